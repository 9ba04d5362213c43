// See count_chart.h. Every check is on the AST as written: anything not exactly the chart over
// the plain read returns nullopt, and the consumer is emitted as before.
#include "count_chart.h"

#include <array>
#include <string_view>
#include <vector>

#include "ast/row_free.h"
#include "names.h"
#include "pg/quoting.h"
#include "translate_error.h"

namespace lqe::translator {
namespace {

using ast::IsPlainCall;
using ast::IsRowFree;
using names::EqualsIgnoreCase;

// The TIMESTAMP_TRUNC units whose bucket is one fixed interval (date_bin equals date_trunc).
std::optional<std::string_view> BucketOf(const ast::Expr& unit) {
  static constexpr std::array<std::pair<std::string_view, std::string_view>, 4> kUnits{
      {{"SECOND", "1 second"}, {"MINUTE", "1 minute"}, {"HOUR", "1 hour"}, {"DAY", "1 day"}}};
  if (!unit.Is<ast::Path>()) return std::nullopt;
  const auto& parts = unit.As<ast::Path>().parts;
  if (parts.size() != 1 || parts[0].quoted) return std::nullopt;
  for (const auto& [name, interval] : kUnits) {
    if (EqualsIgnoreCase(parts[0].name, name)) return interval;
  }
  return std::nullopt;
}

// `column` or `qualifier.column`.
bool IsColumn(const ast::Expr& e, std::string_view qualifier, std::string_view column) {
  if (!e.Is<ast::Path>()) return false;
  const auto& parts = e.As<ast::Path>().parts;
  if (parts.size() == 1) return EqualsIgnoreCase(parts[0].name, column);
  return parts.size() == 2 && EqualsIgnoreCase(parts[0].name, qualifier) &&
         EqualsIgnoreCase(parts[1].name, column);
}

// GROUP BY / ORDER BY naming the bucket: the ordinal 1, or its alias.
bool NamesBucket(const ast::Expr& e, std::string_view alias) {
  if (e.Is<ast::Literal>()) {
    const auto& lit = e.As<ast::Literal>();
    return lit.literal_kind == ast::Literal::Kind::kInt && lit.text == "1";
  }
  if (!e.Is<ast::Path>()) return false;
  const auto& parts = e.As<ast::Path>().parts;
  return parts.size() == 1 && EqualsIgnoreCase(parts[0].name, alias);
}

void Conjuncts(const ast::Expr& e, std::vector<const ast::Expr*>& out) {
  if (e.Is<ast::Binary>() && e.As<ast::Binary>().op == ast::Binary::Op::kAnd) {
    Conjuncts(*e.As<ast::Binary>().left, out);
    Conjuncts(*e.As<ast::Binary>().right, out);
    return;
  }
  out.push_back(&e);
}

struct ChartShape {
  const ast::Select* select = nullptr;
  std::string cte;
  std::string qualifier;  // the CTE's alias in the consumer, or its name
  std::string_view bucket;
  std::string bucket_alias;
  std::string count_alias;
};

std::optional<ChartShape> ShapeOf(const ast::Query& consumer) {
  if (!consumer.with.empty() || consumer.limit || consumer.offset) return std::nullopt;
  if (!consumer.body || !consumer.body->Is<ast::Select>()) return std::nullopt;
  const auto& select = consumer.body->As<ast::Select>();
  if (select.distinct || select.as_struct || select.where || select.having || select.qualify ||
      !select.windows.empty() || !select.from || !select.from->Is<ast::TableRef>() ||
      select.items.size() != 2 || select.group_by.size() != 1) {
    return std::nullopt;
  }
  const auto& from = select.from->As<ast::TableRef>();
  if (from.name.size() != 1) return std::nullopt;
  ChartShape shape;
  shape.select = &select;
  shape.cte = from.name[0].name;
  shape.qualifier = from.alias ? from.alias->name : shape.cte;
  const auto& bucket_item = select.items[0];
  const auto& count_item = select.items[1];
  for (const auto* item : {&bucket_item, &count_item}) {
    if (item->kind != ast::SelectItem::Kind::kExpr || !item->alias) return std::nullopt;
  }
  shape.bucket_alias = bucket_item.alias->name;
  shape.count_alias = count_item.alias->name;
  if (EqualsIgnoreCase(shape.bucket_alias, shape.count_alias)) return std::nullopt;
  if (!IsPlainCall(*bucket_item.expr, "TIMESTAMP_TRUNC")) return std::nullopt;
  const auto& trunc = bucket_item.expr->As<ast::Call>();
  if (trunc.star || trunc.args.size() != 2 ||
      !IsColumn(*trunc.args[0], shape.qualifier, "timestamp")) {
    return std::nullopt;
  }
  const auto bucket = BucketOf(*trunc.args[1]);
  if (!bucket) return std::nullopt;
  shape.bucket = *bucket;
  if (!IsPlainCall(*count_item.expr, "COUNT") || !count_item.expr->As<ast::Call>().star) {
    return std::nullopt;
  }
  if (!NamesBucket(*select.group_by[0], shape.bucket_alias)) return std::nullopt;
  if (consumer.order_by.size() > 1) return std::nullopt;
  for (const auto& item : consumer.order_by) {
    if (item.nulls != ast::OrderItem::Nulls::kDefault ||
        !NamesBucket(*item.expr, shape.bucket_alias)) {
      return std::nullopt;
    }
  }
  return shape;
}

// The parts of `select t.timestamp, ... from logs.<source> as t where t.project = @p and
// t.timestamp > <bound> and t.timestamp <= <bound>`.
struct PlainRead {
  std::string source;
  const ast::Param* project = nullptr;
  const ast::Expr* after = nullptr;
  const ast::Expr* upto = nullptr;
};

std::optional<PlainRead> PlainReadOf(const ast::Query& cte, const Catalog& catalog) {
  if (!cte.with.empty() || cte.limit || cte.offset || !cte.body || !cte.body->Is<ast::Select>()) {
    return std::nullopt;
  }
  const auto& select = cte.body->As<ast::Select>();
  if (select.distinct || select.as_struct || select.having || select.qualify ||
      !select.windows.empty() || !select.group_by.empty() || !select.where || !select.from ||
      !select.from->Is<ast::TableRef>()) {
    return std::nullopt;
  }
  const auto& from = select.from->As<ast::TableRef>();
  std::string table;
  for (const auto& part : from.name) table += (table.empty() ? "" : ".") + part.name;
  constexpr std::string_view kSchema = "logs.";
  if (table.size() <= kSchema.size() ||
      !EqualsIgnoreCase(table.substr(0, kSchema.size()), kSchema)) {
    return std::nullopt;
  }
  PlainRead read;
  read.source = table.substr(kSchema.size());
  if (!catalog.FindSource(read.source)) return std::nullopt;
  for (char& c : read.source) c = static_cast<char>(c >= 'A' && c <= 'Z' ? c - 'A' + 'a' : c);
  const std::string qualifier = from.alias ? from.alias->name : from.name.back().name;
  // Columns only, `timestamp` among them as itself. (A chart's GROUP BY or ORDER BY naming the
  // bucket's alias means the bucket even when a column has that name, as the emitter resolves it:
  // Studio's `... AS timestamp ... GROUP BY timestamp`.)
  bool has_timestamp = false;
  for (const auto& item : select.items) {
    if (item.kind != ast::SelectItem::Kind::kExpr || !item.expr->Is<ast::Path>() ||
        item.expr->As<ast::Path>().parts.size() > 2) {
      return std::nullopt;
    }
    const std::string& name =
        item.alias ? item.alias->name : item.expr->As<ast::Path>().parts.back().name;
    if (EqualsIgnoreCase(name, "timestamp")) {
      if (!IsColumn(*item.expr, qualifier, "timestamp")) return std::nullopt;
      has_timestamp = true;
    }
  }
  if (!has_timestamp) return std::nullopt;
  std::vector<const ast::Expr*> terms;
  Conjuncts(*select.where, terms);
  if (terms.size() != 3) return std::nullopt;
  for (const ast::Expr* term : terms) {
    if (!term->Is<ast::Binary>()) return std::nullopt;
    const auto& cmp = term->As<ast::Binary>();
    if (cmp.op == ast::Binary::Op::kEq && IsColumn(*cmp.left, qualifier, "project") &&
        cmp.right->Is<ast::Param>() && !read.project) {
      read.project = &cmp.right->As<ast::Param>();
    } else if (cmp.op == ast::Binary::Op::kGt && IsColumn(*cmp.left, qualifier, "timestamp") &&
               IsRowFree(*cmp.right) && !read.after) {
      read.after = cmp.right.get();
    } else if (cmp.op == ast::Binary::Op::kLe && IsColumn(*cmp.left, qualifier, "timestamp") &&
               IsRowFree(*cmp.right) && !read.upto) {
      read.upto = cmp.right.get();
    } else {
      return std::nullopt;
    }
  }
  return read;
}

const ast::Cte* FindCte(const ast::Query& stored, std::string_view name) {
  const ast::Cte* found = nullptr;
  for (const auto& cte : stored.with) {
    if (EqualsIgnoreCase(cte.name.name, name)) found = &cte;
  }
  return found;
}

}  // namespace

std::optional<std::string> CountChartCte(const ast::Query& consumer) {
  auto shape = ShapeOf(consumer);
  if (!shape) return std::nullopt;
  return shape->cte;
}

std::optional<pg::QueryOut> EmitCountChart(pg::Emitter& emitter, const ast::Query& consumer,
                                           const ast::Query& stored) {
  const auto shape = ShapeOf(consumer);
  if (!shape) return std::nullopt;
  const ast::Cte* cte = FindCte(stored, shape->cte);
  if (!cte || !cte->query) return std::nullopt;
  const auto read = PlainReadOf(*cte->query, *emitter.options().catalog);
  if (!read) return std::nullopt;
  const pg::Emitter::State before = emitter.SaveState();
  pg::Value project;
  pg::Value after;
  pg::Value upto;
  try {
    project = emitter.EmitExpr(*read->project);
    after = emitter.EmitExpr(*read->after);
    upto = emitter.EmitExpr(*read->upto);
  } catch (const Error&) {
    emitter.RestoreState(before);
    return std::nullopt;
  }
  const auto is = [](const pg::Value& v, TypeKind kind) { return v.type && v.type->kind == kind; };
  if (!is(project, TypeKind::kString) || !is(after, TypeKind::kTimestamp) ||
      !is(upto, TypeKind::kTimestamp)) {
    emitter.RestoreState(before);
    return std::nullopt;
  }
  pg::QueryOut out;
  out.sql = "SELECT _chart.bucket_start AS " + pg::QuoteLabel(shape->bucket_alias) +
            ", _chart.n AS " + pg::QuoteLabel(shape->count_alias) + " FROM logs.count_by_bucket(" +
            pg::QuoteLiteral(read->source) + ", interval '" + std::string(shape->bucket) + "', " +
            project.sql + ", " + after.sql + ", " + upto.sql + ") AS _chart";
  if (!consumer.order_by.empty()) {
    out.sql += consumer.order_by[0].descending ? " ORDER BY 1 DESC" : " ORDER BY 1 ASC";
  }
  out.columns.push_back({shape->bucket_alias, Type::Scalar(TypeKind::kTimestamp)});
  out.columns.push_back({shape->count_alias, Type::Scalar(TypeKind::kInt64)});
  return out;
}

}  // namespace lqe::translator
