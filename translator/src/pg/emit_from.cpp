// FROM items: log tables, CTEs, derived tables, joins and UNNEST.
#include <algorithm>

#include "pg/emitter.h"
#include "pg/otel_branches.h"
#include "pg/quoting.h"
#include "pg/type_table.h"
#include "translate_error.h"

namespace lqe::pg {
namespace {

using translator::Fail;

std::string JoinName(const std::vector<ast::Identifier>& parts) {
  std::string out;
  for (const auto& p : parts) out += (out.empty() ? "" : ".") + p.name;
  return out;
}

ast::SourceSpan NameSpan(const std::vector<ast::Identifier>& parts) {
  return {parts.front().span.begin, parts.back().span.end};
}

std::vector<std::string> SplitDots(const std::string& name) {
  std::vector<std::string> out(1);
  for (char c : name) {
    if (c == '.') {
      out.emplace_back();
    } else {
      out.back() += c;
    }
  }
  return out;
}

// A log table's columns. Its metadata column is a REPEATED record that always holds exactly one
// object: the loader stores only an object there (a non-object metadata goes to extra), and the
// column is NOT NULL DEFAULT '{}'.
std::vector<Column> RowColumns(const SourceSchema& source) {
  std::vector<Column> cols;
  for (const auto& f : source.row->fields) {
    const bool single = names::EqualsIgnoreCase(f.name, "metadata") && IsRepeatedRecord(f.type);
    // "timestamp" is the partition key, NOT NULL in every log table.
    cols.push_back({f.name, f.type, IsKind(f.type, TypeKind::kArray) && !single, single,
                    single ? &source.promoted : nullptr,
                    names::EqualsIgnoreCase(f.name, "timestamp")});
  }
  return cols;
}

// logs.otel (migration 019): the nine log tables as one OTEL-shaped relation, the table `logs`
// of ClickHouse-dialect queries. Its attribute maps are JSON objects of text values.
const SourceSchema& OtelRelation() {
  static const SourceSchema relation = [] {
    const auto text = Type::Scalar(TypeKind::kString);
    const auto map = Type::Scalar(TypeKind::kJson);
    SourceSchema s;
    s.name = "otel";
    s.pg_schema = "logs";
    s.pg_table = "otel_events";
    s.row = Type::Record({{"id", text},
                          {"timestamp", Type::Scalar(TypeKind::kTimestamp)},
                          {"project", text},
                          {"source", text},
                          {"event_message", text},
                          {"severity_text", text},
                          {"severity_number", Type::Scalar(TypeKind::kInt64)},
                          {"service_name", text},
                          {"trace_id", text},
                          {"span_id", text},
                          {"scope_name", text},
                          {"log_attributes", map},
                          {"resource_attributes", map}});
    return s;
  }();
  return relation;
}

}  // namespace

std::string Emitter::NewAlias(std::string_view base) {
  return std::string(base) + std::to_string(++alias_counter_);
}

std::string Emitter::EmitFrom(const ast::FromItem& item, std::vector<std::string>& conditions) {
  auto sql = EmitFromItem(item, conditions, true);
  return sql ? *sql : "(SELECT 1) AS " + NewAlias("_one");
}

std::optional<std::string> Emitter::EmitFromItem(const ast::FromItem& item,
                                                 std::vector<std::string>& conditions, bool first) {
  switch (item.kind) {
    case ast::NodeKind::kTableRef:
      return EmitTableRef(item.As<ast::TableRef>(), conditions, first);
    case ast::NodeKind::kJoin:
      return EmitJoin(item.As<ast::Join>(), conditions);
    case ast::NodeKind::kUnnestRef: {
      const auto& u = item.As<ast::UnnestRef>();
      return EmitUnnest(u, EmitExpr(*u.array), false, conditions, first);
    }
    case ast::NodeKind::kSubqueryRef:
      return EmitSubqueryRef(item.As<ast::SubqueryRef>());
    default:
      Fail(DiagCode::kUnsupported, item.span, "unsupported FROM item");
  }
}

std::optional<std::string> Emitter::EmitTableRef(const ast::TableRef& ref,
                                                 std::vector<std::string>& conditions, bool first) {
  // FROM t, t.arr: a path starting at a visible range variable is an implicit UNNEST.
  if (ref.name.size() > 1 && LookupName(*scope_, ref.name.front()).found) {
    auto path = std::make_unique<ast::Path>(NameSpan(ref.name));
    path->parts = ref.name;
    ast::UnnestRef u(ref.span);
    u.alias = ref.alias ? ref.alias : ref.name.back();
    return EmitUnnest(u, EmitExpr(*path), false, conditions, first);
  }
  const std::string full = JoinName(ref.name);
  const auto parts = SplitDots(full);
  const std::string alias = ref.alias ? ref.alias->name : parts.back();
  RangeVar var;
  var.name = alias;
  var.pg_alias = QuoteIdent(alias);
  std::string table_sql;
  if (parts.size() == 1) {
    for (auto it = ctes_.rbegin(); it != ctes_.rend(); ++it) {
      if (names::EqualsIgnoreCase(it->first, parts[0])) {
        table_sql = QuoteIdent(it->first);
        var.columns = it->second;
        reads_.ctes.insert(static_cast<std::size_t>(ctes_.rend() - it) - 1);
        break;
      }
    }
  } else if (parts.size() == 2 && names::EqualsIgnoreCase(parts[0], "logs")) {
    const SourceSchema* s = options_.catalog->FindSource(parts[1]);
    if (s == nullptr && names::EqualsIgnoreCase(parts[1], "otel")) s = &OtelRelation();
    if (s != nullptr) {
      table_sql = QuoteIdent(s->pg_schema) + "." + QuoteIdent(s->pg_table);
      var.columns = RowColumns(*s);
      if (s == &OtelRelation() && ref.only_sources) {
        table_sql = "(" + OtelBranchesSql(*ref.only_sources) + ")";
      }
      if (s == &OtelRelation()) {
        // logs.otel_attribute reads one key of the map from this column (migration 020).
        for (auto& c : var.columns) {
          if (names::EqualsIgnoreCase(c.name, "log_attributes")) {
            c.event_column = "attributes_event";
          }
        }
      }
      source_rows_.push_back(s->row);
    }
  }
  if (table_sql.empty()) {
    std::vector<std::string> names;
    for (const auto& c : ctes_) names.push_back(c.first);
    for (const auto& s : options_.catalog->SourceNames()) names.push_back("logs." + s);
    Fail(DiagCode::kUnknownName, NameSpan(ref.name), "table \"" + full + "\" not found",
         names::DidYouMean(full, names).empty()
             ? "Log tables are named logs.<source>, e.g. logs.edge."
             : names::DidYouMean(full, names));
  }
  scope_->vars.push_back(std::move(var));
  const std::string pg_alias = scope_->vars.back().pg_alias;
  return table_sql == pg_alias ? table_sql : table_sql + " AS " + pg_alias;
}

std::string Emitter::EmitSubqueryRef(const ast::SubqueryRef& ref) {
  // A derived table sees outer queries but not its FROM siblings.
  Scope* saved = scope_;
  Scope outer{saved->parent, {}, {}};
  scope_ = &outer;
  pass_promoted_ = true;
  QueryOut q = EmitQuery(*ref.query, false);
  pass_promoted_ = false;
  scope_ = saved;
  RangeVar var;
  var.name = ref.alias ? ref.alias->name : "";
  var.pg_alias = ref.alias ? QuoteIdent(ref.alias->name) : NewAlias("_sub");
  var.columns = std::move(q.columns);
  scope_->vars.push_back(std::move(var));
  return "(" + q.sql + ") AS " + scope_->vars.back().pg_alias;
}

std::optional<std::string> Emitter::EmitUnnest(const ast::UnnestRef& ref, const Value& array,
                                               bool outer, std::vector<std::string>& conditions,
                                               bool first) {
  RangeVar var;
  var.kind = RangeVar::Kind::kValue;
  var.name = ref.alias ? ref.alias->name : "";
  std::optional<std::string> item;
  std::string offset_sql = "0";
  if (!array.single_sql.empty()) {
    // A REPEATED record that always holds one element: its one row, bound without a join.
    var.value = SingleElement(array);
  } else if (IsKind(array.type, TypeKind::kRecord)) {
    // A single JSON object (a STRUCT value): UNNEST gives its one row without a join.
    var.value = array;
    // BigQuery gives no row for a NULL record. Written as <> 'null' (not = 'object') because PG
    // estimates <> on an expression as barely selective, which keeps LIMIT plans on the index.
    if (!outer) conditions.push_back("jsonb_typeof(" + array.sql + ") <> 'null'");
  } else if (IsKind(array.type, TypeKind::kArray)) {
    const std::string alias = ref.alias ? QuoteIdent(ref.alias->name) : NewAlias("_u");
    // A stored value that is not an array (a type conflict the loader kept) unnests to no rows;
    // a REPEATED record also unnests an object, as its one element.
    const std::string elements = IsRepeatedRecord(array.type) && array.json_array
                                     ? "bq.json_record_elements(" + RecordJson(array) + ")"
                                 : array.json_array
                                     ? "jsonb_array_elements(bq.json_array(" + array.sql + "))"
                                     : "unnest(" + array.sql + ")";
    item = std::string(first ? "" : "LATERAL ") + elements + " WITH ORDINALITY AS " + alias +
           "(value, ord)";
    const TypePtr elem =
        array.type->element ? array.type->element : Type::Scalar(TypeKind::kUnknown);
    if (array.json_array) {
      var.value = FromJson(alias + ".value", elem, array.path);
      if (array.promoted && !array.promoted_prefix.empty() && array.sql == array.promoted_sql) {
        // An element of a REPEATED record of a log row's metadata: its promoted fields imply
        // conditions on the row's min/max columns.
        var.value.promoted = array.promoted;
        var.value.promoted_row = array.promoted_row;
        var.value.promoted_prefix = array.promoted_prefix;
        var.value.promoted_sql = var.value.sql;
      }
    } else {
      var.value = Value{alias + ".value", elem, false, false, array.path, {}};
    }
    offset_sql = "(" + alias + ".ord - 1)";
  } else {
    Fail(
        DiagCode::kType, ref.array->span,
        "UNNEST needs an array, got " + (array.type ? TypeName(*array.type) : std::string("NULL")));
  }
  var.fields_visible = IsKind(var.value.type, TypeKind::kRecord);
  scope_->vars.push_back(std::move(var));
  if (ref.with_offset) {
    RangeVar off;
    off.kind = RangeVar::Kind::kValue;
    off.name = ref.offset_alias ? ref.offset_alias->name : "offset";
    off.value = Value{offset_sql, Type::Scalar(TypeKind::kInt64), false, false, "", {}};
    scope_->vars.push_back(std::move(off));
  }
  return item;
}

std::string Emitter::EmitJoinGroup(const ast::Join& group, std::vector<std::string>& conditions) {
  // BigQuery resolves names inside a parenthesised join against the group's own FROM items (and
  // outer queries), not against the items to its left; afterwards all of them are visible.
  Scope* saved = scope_;
  Scope inner{saved->parent, {}, {}};
  scope_ = &inner;
  std::string sql = EmitJoin(group, conditions);
  scope_ = saved;
  for (auto& var : inner.vars) saved->vars.push_back(std::move(var));
  for (auto& u : inner.using_columns) saved->using_columns.push_back(std::move(u));
  return sql;
}

std::string Emitter::JoinOn(const ast::Join& join, std::vector<std::string>& on_conditions) {
  if (!join.using_columns.empty()) {
    std::string cols;
    for (const auto& c : join.using_columns) {
      cols += (cols.empty() ? "" : ", ") + QuoteIdent(c.name);
      scope_->using_columns.push_back(c.name);
    }
    return " USING (" + cols + ")";
  }
  if (join.on) on_conditions.insert(on_conditions.begin(), EmitBool(*join.on, "ON"));
  if (on_conditions.empty()) return " ON true";
  std::string out;
  for (const auto& c : on_conditions) out += (out.empty() ? "" : " AND ") + c;
  return " ON " + out;
}

std::string Emitter::EmitJoin(const ast::Join& join, std::vector<std::string>& conditions) {
  using K = ast::Join::Kind;
  const std::size_t left_begin = scope_->vars.size();
  std::string left = EmitFrom(*join.left, conditions);
  const std::size_t right_begin = scope_->vars.size();
  if (join.left->Is<ast::Join>() && join.left->As<ast::Join>().parenthesized &&
      left.find(" JOIN ") != std::string::npos) {
    left = "(" + left + ")";
  }
  const bool outer =
      join.join_kind == K::kLeft || join.join_kind == K::kRight || join.join_kind == K::kFull;
  std::vector<std::string> right_conditions;
  std::optional<std::string> right;
  if (join.right->Is<ast::UnnestRef>()) {
    if (join.join_kind == K::kRight || join.join_kind == K::kFull) {
      Fail(DiagCode::kUnsupported, join.span, "unsupported RIGHT or FULL JOIN with UNNEST");
    }
    const auto& u = join.right->As<ast::UnnestRef>();
    const Value array = EmitExpr(*u.array);
    right = EmitUnnest(u, array, join.join_kind == K::kLeft, right_conditions, false);
    if (!right && join.on &&
        !(join.on->Is<ast::Literal>() &&
          join.on->As<ast::Literal>().literal_kind == ast::Literal::Kind::kBool &&
          join.on->As<ast::Literal>().bool_value)) {
      if (join.join_kind == K::kLeft) {
        Fail(DiagCode::kUnsupported, join.on->span,
             "unsupported LEFT JOIN UNNEST of a single record with a condition other than TRUE");
      }
      right_conditions.push_back(EmitBool(*join.on, "ON"));
    }
    if (!right) {
      conditions.insert(conditions.end(), right_conditions.begin(), right_conditions.end());
      return left;
    }
  } else if (join.right->Is<ast::Join>()) {
    right = EmitJoinGroup(join.right->As<ast::Join>(), right_conditions);
  } else {
    right = EmitFromItem(*join.right, right_conditions, false);
  }
  if (!join.right->Is<ast::UnnestRef>()) {
    if (!right) {  // FROM t, t.record: an implicit UNNEST of one record binds without a join
      conditions.insert(conditions.end(), right_conditions.begin(), right_conditions.end());
      return left;
    }
    // A parenthesised group stays one only if it still joins (UNNESTs of records vanish).
    if (join.right->Is<ast::Join>() && right->find(" JOIN ") != std::string::npos) {
      *right = "(" + *right + ")";
    }
  }
  std::string sql = left;
  if (!outer && !join.on && join.using_columns.empty()) {
    conditions.insert(conditions.end(), right_conditions.begin(), right_conditions.end());
    return sql + " CROSS JOIN " + *right;
  }
  switch (join.join_kind) {
    case K::kLeft:
      sql += " LEFT JOIN ";
      break;
    case K::kRight:
      sql += " RIGHT JOIN ";
      break;
    case K::kFull:
      sql += " FULL JOIN ";
      break;
    default:
      sql += " JOIN ";
      break;
  }
  if (!outer) {
    conditions.insert(conditions.end(), right_conditions.begin(), right_conditions.end());
    right_conditions.clear();
  }
  sql += *right + JoinOn(join, right_conditions);
  // The outer side of an outer join holds NULLs where nothing matched.
  const bool left_outer = join.join_kind == K::kRight || join.join_kind == K::kFull;
  const bool right_outer = join.join_kind == K::kLeft || join.join_kind == K::kFull;
  for (std::size_t i = left_begin; i < scope_->vars.size(); ++i) {
    if (i < right_begin ? left_outer : right_outer) {
      for (Column& c : scope_->vars[i].columns) c.not_null = false;
    }
  }
  return sql;
}

}  // namespace lqe::pg
