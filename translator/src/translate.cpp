// The translator façade: parse, (sandbox-validate the consumer,) emit. Stages throw
// translator::Error; this is the only place that catches it.
#include "lqe/translate.h"

#include <exception>

#include "lql/lql.h"
#include "parse/parser.h"
#include "pg/emitter.h"
#include "sandbox/validator.h"
#include "translate_error.h"

namespace lqe {
namespace {

ast::QueryPtr Parse(std::string_view text, const TranslateOptions& options, DiagSource source) {
  parse::ParseOptions po;
  po.max_nesting_depth = options.max_nesting_depth;
  po.max_query_bytes = options.max_query_bytes;
  po.source = source;
  auto parsed = parse::ParseQuery(text, po);
  if (auto* diag = std::get_if<Diagnostic>(&parsed)) throw translator::Error{*diag};
  return std::move(std::get<ast::QueryPtr>(parsed));
}

ast::QueryPtr ParseConsumer(const ConsumerQuery& consumer, const TranslateOptions& options,
                            const pg::Emitter& emitter) {
  if (consumer.language == ConsumerQuery::Language::kSql) {
    return Parse(consumer.text, options, DiagSource::kConsumerSql);
  }
  lql::LowerContext context;
  context.now = options.now;
  for (const auto& [name, columns] : emitter.Ctes()) {
    std::vector<StructField> fields;
    for (const auto& c : columns) fields.push_back({c.name, c.type});
    context.ctes.push_back({name, Type::Record(std::move(fields))});
  }
  auto lowered = lql::Lower(consumer.text, context);
  if (auto* diag = std::get_if<Diagnostic>(&lowered)) throw translator::Error{*diag};
  return std::move(std::get<ast::QueryPtr>(lowered));
}

// The consumer's query in place of the stored final SELECT. A consumer WITH joins the stored
// one (PG allows one WITH per query level); if it reuses a stored CTE name, it shadows it as
// in BigQuery, so it then stays nested in a derived table.
std::string EmitConsumer(pg::Emitter& emitter, const ast::Query& consumer, std::string& with,
                         std::vector<OutputColumn>& columns) {
  bool clash = false;
  for (const auto& cte : consumer.with) {
    for (const auto& [name, cols] : emitter.Ctes()) {
      if (resolve::EqualsIgnoreCase(name, cte.name.name)) clash = true;
    }
  }
  pg::QueryOut out;
  if (clash) {
    out = emitter.EmitQuery(consumer, true);
    out.sql = "SELECT * FROM (" + out.sql + ") AS _consumer";
  } else {
    const std::string own = emitter.EmitCteList(consumer.with);
    if (!own.empty()) with = with.empty() ? own : with + ", " + own.substr(5);
    out = emitter.EmitFinal(consumer);
  }
  for (auto& c : out.columns) columns.push_back({c.name, c.type});
  return out.sql;
}

Translation Run(std::string_view bq_sql, const TranslateOptions& options, DiagSource& phase) {
  phase = DiagSource::kStored;
  ast::QueryPtr stored = Parse(bq_sql, options, DiagSource::kStored);
  pg::Emitter emitter(options);
  Translation t;
  std::string with = emitter.EmitCteList(stored->with);
  for (const auto& c : emitter.Ctes()) t.cte_names.push_back(c.first);
  std::string body;
  if (!options.consumer) {
    pg::QueryOut out = emitter.EmitFinal(*stored);
    for (auto& c : out.columns) t.columns.push_back({c.name, c.type});
    body = out.sql;
  } else {
    phase = options.consumer->language == ConsumerQuery::Language::kSql ? DiagSource::kConsumerSql
                                                                        : DiagSource::kConsumerLql;
    ast::QueryPtr consumer = ParseConsumer(*options.consumer, options, emitter);
    sandbox::Validate(*consumer, {t.cte_names});
    body = EmitConsumer(emitter, *consumer, with, t.columns);
  }
  t.pg_sql = with.empty() ? body : with + " " + body;
  t.params = emitter.TakeParams();
  return t;
}

}  // namespace

TranslateResult Translate(std::string_view bq_sql, const TranslateOptions& options) {
  if (!options.catalog) {
    return Diagnostic{DiagCode::kUnsupported, "no field catalogue configured", {}, 0, 0, {}};
  }
  DiagSource phase = DiagSource::kStored;
  try {
    return Run(bq_sql, options, phase);
  } catch (translator::Error& e) {
    if (e.diag.source == DiagSource::kStored) e.diag.source = phase;
    return e.diag;
  } catch (const std::exception& e) {
    // A bug, not a user error; still never crash the process on untrusted input.
    return Diagnostic{DiagCode::kUnsupported,
                      std::string("internal translator error: ") + e.what(),
                      {},
                      0,
                      0,
                      phase};
  }
}

}  // namespace lqe
