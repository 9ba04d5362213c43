// The translator façade: parse, (sandbox-validate the consumer,) emit. Stages throw
// translator::Error; this is the only place that catches it.
#include "lqe/translate.h"

#include <exception>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "ast/query.h"
#include "clickhouse/lower.h"
#include "clickhouse/source_filter.h"
#include "count_chart.h"
#include "lqe/lql.h"
#include "names.h"
#include "parse/parser.h"
#include "pg/emitter.h"
#include "sandbox/validator.h"
#include "stored_with.h"
#include "translate_error.h"

namespace lqe {
namespace {

// Parsed with `dialect`'s lexical rules; not lowered (see Parse and clickhouse::Lower).
ast::QueryPtr ParseText(std::string_view text, const TranslateOptions& options, DiagSource source,
                        SqlDialect dialect) {
  parse::ParseOptions po;
  po.max_nesting_depth = options.max_nesting_depth;
  po.max_query_bytes = options.max_query_bytes;
  po.source = source;
  po.dialect =
      dialect == SqlDialect::kClickHouse ? lex::Dialect::kClickHouse : lex::Dialect::kBigQuery;
  auto parsed = parse::ParseQuery(text, po);
  if (auto* diag = std::get_if<Diagnostic>(&parsed)) throw translator::Error{*diag};
  return std::move(std::get<ast::QueryPtr>(parsed));
}

// The stored query, or a BigQuery consumer: parsed, and a ClickHouse stored query lowered.
ast::QueryPtr Parse(std::string_view text, const TranslateOptions& options, DiagSource source) {
  const SqlDialect dialect =
      source == DiagSource::kStored ? options.dialect : SqlDialect::kBigQuery;
  auto query = ParseText(text, options, source, dialect);
  if (dialect == SqlDialect::kClickHouse) {
    clickhouse::Lower(*query, {}, source == DiagSource::kStored && options.consumer.has_value());
  }
  return query;
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

// Whether a consumer orders its own result; the CTEs' ORDER BYs are then left out (see
// Emitter::SetDropCteOrder).
bool OrdersItsResult(const ast::Query& consumer) {
  if (!consumer.order_by.empty()) return true;
  return !consumer.with.empty() && consumer.body->Is<ast::Query>() &&
         !consumer.body->As<ast::Query>().order_by.empty();
}

// The consumer's query in place of the stored final SELECT. A consumer WITH joins the stored
// one (PG allows one WITH per query level; `own_with` gets its CTEs, without "WITH "); if it
// reuses a stored CTE name, it shadows it as in BigQuery, so it then stays nested in a derived
// table.
std::string EmitConsumer(pg::Emitter& emitter, const ast::Query& consumer, std::string& own_with,
                         std::vector<OutputColumn>& columns) {
  bool clash = false;
  for (const auto& cte : consumer.with) {
    for (const auto& [name, cols] : emitter.Ctes()) {
      if (names::EqualsIgnoreCase(name, cte.name.name)) clash = true;
    }
  }
  pg::QueryOut out;
  if (clash) {
    out = emitter.EmitQuery(consumer, true);
    out.sql = "SELECT * FROM (" + out.sql + ") AS _consumer";
  } else {
    const std::string own = emitter.EmitCteList(consumer.with);
    if (!own.empty()) own_with = own.substr(5);
    out = emitter.EmitFinal(consumer);
  }
  for (auto& c : out.columns) columns.push_back({c.name, c.type});
  return out.sql;
}

// A count chart over a plain read CTE, counted per leaf partition (count_chart.h). The stored
// query is parsed again only for a consumer of that shape (its WITH may come from the cache).
std::optional<std::string> EmitCountChart(std::string_view bq_sql, const TranslateOptions& options,
                                          pg::Emitter& emitter, const ast::Query& consumer,
                                          std::vector<OutputColumn>& columns) {
  if (!translator::CountChartCte(consumer)) return std::nullopt;
  const ast::QueryPtr stored = Parse(bq_sql, options, DiagSource::kStored);
  auto out = translator::EmitCountChart(emitter, consumer, *stored);
  if (!out) return std::nullopt;
  for (auto& c : out->columns) columns.push_back({c.name, c.type});
  return out->sql;
}

// The stored query's CTEs, from the caller's cache or freshly parsed and emitted (then cached).
// On a hit the stored text is not even parsed again.
// `parsed`: the stored query already parsed (and its OTEL relation restricted, `variant` naming
// how), else nullptr.
std::shared_ptr<const translator::StoredWith> EmitStoredWith(
    std::string_view bq_sql, const TranslateOptions& options, bool drop_cte_order,
    pg::Emitter& emitter, ast::QueryPtr parsed = nullptr, const std::string& variant = "") {
  StoredQueryCache* cache = options.stored_cache;
  const std::string key =
      cache ? translator::StoredCacheKey(bq_sql, options, drop_cte_order) + variant : "";
  if (auto hit =
          cache ? translator::StoredCacheAccess::Find(*cache, key, *options.catalog) : nullptr) {
    emitter.RestoreState(hit->state);
    return hit;
  }
  ast::QueryPtr stored = parsed ? std::move(parsed) : Parse(bq_sql, options, DiagSource::kStored);
  emitter.SetDropCteOrder(drop_cte_order);
  auto entry =
      std::make_shared<translator::StoredWith>(translator::EmitStoredCtes(emitter, stored->with));
  emitter.SetDropCteOrder(false);
  if (cache) translator::StoredCacheAccess::Put(*cache, key, entry);
  return entry;
}

// The stored CTEs `body` reads, then the consumer's own, then `body`.
std::string Statement(const translator::StoredWith& stored, const pg::Emitter::Reads& reads,
                      std::size_t params, const std::string& own_with, const std::string& body) {
  std::string with = translator::KeptWith(stored, reads, params);
  if (!own_with.empty()) with = with.empty() ? "WITH " + own_with : with + ", " + own_with;
  return with.empty() ? body : with + " " + body;
}

Translation Run(std::string_view bq_sql, const TranslateOptions& options, DiagSource& phase) {
  phase = DiagSource::kStored;
  pg::Emitter emitter(options);
  Translation t;
  if (!options.consumer) {
    ast::QueryPtr stored = Parse(bq_sql, options, DiagSource::kStored);
    const translator::StoredWith ctes = translator::EmitStoredCtes(emitter, stored->with);
    for (const auto& c : emitter.Ctes()) t.cte_names.push_back(c.first);
    pg::QueryOut out = emitter.EmitFinal(*stored);
    for (auto& c : out.columns) t.columns.push_back({c.name, c.type});
    t.params = emitter.TakeParams();
    t.pg_sql = Statement(ctes, emitter.TakeReads(), t.params.size(), "", out.sql);
    return t;
  }
  // Sandboxed: the stored final query is replaced, so only its WITH matters. A SQL consumer is
  // parsed first: when it orders its own result, the CTEs' ORDER BYs are left out. LQL needs the
  // CTE row types before it can be lowered.
  const bool clickhouse = options.consumer->language == ConsumerQuery::Language::kClickHouseSql;
  const bool sql = clickhouse || options.consumer->language == ConsumerQuery::Language::kSql;
  ast::QueryPtr consumer;
  if (sql) {
    phase = DiagSource::kConsumerSql;
    consumer = ParseText(options.consumer->text, options, DiagSource::kConsumerSql,
                         clickhouse ? SqlDialect::kClickHouse : SqlDialect::kBigQuery);
    phase = DiagSource::kStored;
  }
  const pg::Emitter::State before_with = emitter.SaveState();
  // A ClickHouse stored query's `logs` restricted to the sources the consumer reads of it.
  ast::QueryPtr parsed;
  std::string variant;
  if (clickhouse && options.dialect == SqlDialect::kClickHouse) {
    parsed = Parse(bq_sql, options, DiagSource::kStored);
    variant = clickhouse::RestrictStoredLogs(*parsed, *consumer);
  }
  auto stored = EmitStoredWith(bq_sql, options, consumer && OrdersItsResult(*consumer), emitter,
                               std::move(parsed), variant);
  for (const auto& c : emitter.Ctes()) t.cte_names.push_back(c.first);
  phase = sql ? DiagSource::kConsumerSql : DiagSource::kConsumerLql;
  // A ClickHouse consumer is lowered once the stored CTEs it may read (`logs`) are known.
  if (clickhouse) clickhouse::Lower(*consumer, t.cte_names);
  if (!consumer) {
    consumer = ParseConsumer(*options.consumer, options, emitter);
    // The CTEs' row types LQL was lowered against do not depend on their ORDER BYs, so a lowered
    // query that orders its result (a listing by time, a chart by bucket) reads the CTEs without
    // them: flattened, a chart scans the partitions unordered, the foreign ones at once.
    if (OrdersItsResult(*consumer)) {
      emitter.RestoreState(before_with);
      phase = DiagSource::kStored;
      stored = EmitStoredWith(bq_sql, options, true, emitter);
      phase = DiagSource::kConsumerLql;
    }
  }
  sandbox::Validate(*consumer, {t.cte_names});
  emitter.TakeReads();
  std::string own_with;
  auto chart = EmitCountChart(bq_sql, options, emitter, *consumer, t.columns);
  const std::string body =
      chart ? std::move(*chart) : EmitConsumer(emitter, *consumer, own_with, t.columns);
  t.params = emitter.TakeParams();
  t.pg_sql = Statement(*stored, emitter.TakeReads(), t.params.size(), own_with, body);
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
