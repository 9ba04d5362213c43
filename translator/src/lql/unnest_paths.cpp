#include "lql/unnest_paths.h"

#include "lql/ast_build.h"

namespace lqe::lql {
namespace {

std::vector<std::string> Slice(const std::vector<std::string>& names, std::size_t from,
                               std::size_t to) {
  return {names.begin() + static_cast<std::ptrdiff_t>(from),
          names.begin() + static_cast<std::ptrdiff_t>(to)};
}

std::vector<std::string> Prefixed(std::string first, std::vector<std::string> rest) {
  rest.insert(rest.begin(), std::move(first));
  return rest;
}

// A repeated record at the very end of the path is the value itself, not a step into it.
std::vector<std::size_t> Steps(const ResolvedField& field) {
  std::vector<std::size_t> steps = field.repeated_ends;
  if (!steps.empty() && steps.back() >= field.names.size()) steps.pop_back();
  return steps;
}

ast::FromPtr Unnest(ast::ExprPtr array, const std::string& alias, SourceSpan span) {
  auto unnest = std::make_unique<ast::UnnestRef>(span);
  unnest->array = std::move(array);
  unnest->alias = ast::Identifier{alias, false, span};
  return unnest;
}

ast::FromPtr JoinOnto(ast::FromPtr left, ast::FromPtr right, ast::Join::Kind kind,
                      SourceSpan span) {
  auto join = std::make_unique<ast::Join>(span);
  join->join_kind = kind;
  join->left = std::move(left);
  join->right = std::move(right);
  if (kind == ast::Join::Kind::kLeft) join->on = build::Bool(true, span);
  return join;
}

}  // namespace

ast::ExprPtr ExistsInElements(const CteInfo& cte, const ResolvedField& field,
                              const std::function<ast::ExprPtr(ast::ExprPtr)>& condition,
                              SourceSpan span) {
  const std::vector<std::size_t> steps = Steps(field);
  if (steps.empty()) return nullptr;
  ast::FromPtr from;
  std::string previous = cte.name;
  std::size_t begin = 0;
  for (std::size_t i = 0; i < steps.size(); ++i) {
    const std::string alias = "_l" + std::to_string(i + 1);
    ast::FromPtr unnest = Unnest(
        build::Path(Prefixed(previous, Slice(field.names, begin, steps[i])), span), alias, span);
    from = from ? JoinOnto(std::move(from), std::move(unnest), ast::Join::Kind::kCross, span)
                : std::move(unnest);
    previous = alias;
    begin = steps[i];
  }
  auto select = std::make_unique<ast::Select>(span);
  ast::SelectItem one;
  one.expr = build::Int("1", span);
  one.span = span;
  select->items.push_back(std::move(one));
  select->from = std::move(from);
  select->where = condition(
      build::Path(Prefixed(previous, Slice(field.names, begin, field.names.size())), span));
  auto query = std::make_unique<ast::Query>(span);
  query->body = std::move(select);
  auto exists = std::make_unique<ast::Exists>(span);
  exists->subquery = std::move(query);
  return exists;
}

ast::ExprPtr ElementJoins::Path(const ResolvedField& field, SourceSpan span) {
  std::string previous = cte_.name;
  std::size_t begin = 0;
  for (const std::size_t end : Steps(field)) {
    std::string key;
    for (std::size_t i = 0; i < end; ++i) key += (i ? "." : "") + field.names[i];
    auto [it, added] = alias_of_.try_emplace(key, "_s" + std::to_string(alias_of_.size() + 1));
    if (added) {
      joins_.emplace_back(build::Path(Prefixed(previous, Slice(field.names, begin, end)), span),
                          it->second);
    }
    previous = it->second;
    begin = end;
  }
  return build::Path(Prefixed(previous, Slice(field.names, begin, field.names.size())), span);
}

ast::FromPtr ElementJoins::From() {
  auto table = std::make_unique<ast::TableRef>(ast::SourceSpan{});
  table->name.push_back(ast::Identifier{cte_.name, false, {}});
  ast::FromPtr from = std::move(table);
  for (auto& [array, alias] : joins_) {
    const SourceSpan span = array->span;
    from = JoinOnto(std::move(from), Unnest(std::move(array), alias, span), ast::Join::Kind::kLeft,
                    span);
  }
  joins_.clear();
  return from;
}

}  // namespace lqe::lql
