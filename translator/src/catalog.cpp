#include "lqe/catalog.h"

#include <algorithm>
#include <memory>

#include "lqe/base/ascii.h"

namespace lqe {
namespace {

std::string Lower(std::string_view s) {
  std::string out(s);
  std::transform(out.begin(), out.end(), out.begin(), [](char c) { return ascii::ToLower(c); });
  return out;
}

// A mutable tree used while building; converted to immutable Types at the end.
struct Node {
  std::string name;
  std::string type;  // "" until a row names it (implied parents become RECORD)
  bool repeated = false;
  std::vector<std::unique_ptr<Node>> children;

  Node* Child(std::string_view child_name) {
    for (auto& c : children) {
      if (Lower(c->name) == Lower(child_name)) return c.get();
    }
    children.push_back(std::make_unique<Node>());
    children.back()->name = std::string(child_name);
    return children.back().get();
  }
};

// depth 0 is a source's row, 1 its columns. As in Logflare's BigQuery tables every nested record
// is REPEATED (ARRAY<STRUCT<...>>), whatever mode the catalogue records for how it usually
// arrives (an object is a one-element array). The exception is the `extra` column: its fields
// are the event's other top-level keys, which are columns in Logflare's tables.
TypePtr ToType(const Node& node, int depth) {
  TypePtr base;
  const bool record = !node.children.empty() || node.type.empty() || node.type == "RECORD";
  if (record) {
    std::vector<StructField> fields;
    fields.reserve(node.children.size());
    for (const auto& c : node.children) fields.push_back({c->name, ToType(*c, depth + 1)});
    base = Type::Record(std::move(fields));
  } else {
    base = Type::Scalar(ParseScalarTypeName(node.type));
  }
  const bool repeated =
      node.repeated || (record && depth > 0 && !(depth == 1 && Lower(node.name) == "extra"));
  return repeated ? Type::Array(base) : base;
}

bool ValidType(std::string_view t) {
  return t == "STRING" || t == "INT64" || t == "FLOAT64" || t == "BOOL" || t == "TIMESTAMP" ||
         t == "RECORD";
}

}  // namespace

Catalog Catalog::FromEntries(const std::vector<CatalogEntry>& entries, std::string* error) {
  std::map<std::string, std::unique_ptr<Node>> roots;  // per source
  std::map<std::string, PromotedColumns> promoted;     // per source
  std::map<std::string, std::string> display_names;
  for (const auto& e : entries) {
    const std::string type = Lower(e.type) == "record" ? "RECORD" : [&] {
      std::string up(e.type);
      std::transform(up.begin(), up.end(), up.begin(), [](char c) { return ascii::ToUpper(c); });
      return up;
    }();
    if (!ValidType(type)) {
      if (error) *error = "unknown type " + e.type + " for " + e.source + "." + e.path;
      return {};
    }
    auto& root = roots[Lower(e.source)];
    if (!root) root = std::make_unique<Node>();
    display_names.emplace(Lower(e.source), e.source);
    Node* node = root.get();
    std::string_view path = e.path;
    while (!path.empty()) {
      const auto dot = path.find('.');
      const std::string_view part = path.substr(0, dot);
      if (!node->type.empty() && node->type != "RECORD") {
        if (error) *error = "field " + e.source + "." + e.path + " is inside a non-record field";
        return {};
      }
      node = node->Child(part);
      path = dot == std::string_view::npos ? std::string_view{} : path.substr(dot + 1);
    }
    if (!node->children.empty() && type != "RECORD") {
      if (error) *error = "field " + e.source + "." + e.path + " has fields but is typed " + type;
      return {};
    }
    node->type = type;
    node->repeated = e.mode == "REPEATED";
    // A scalar directly under metadata is read on the row (metadata holds one object); one
    // inside metadata's nested records (REPEATED) is held as its lowest and highest value over
    // the row's elements, columns <column>_min and <column>_max (key "response.status_code").
    const bool under_metadata = Lower(e.path).starts_with("metadata.");
    if (!e.column.empty() && under_metadata && type != "RECORD" && e.mode != "REPEATED") {
      promoted[Lower(e.source)][Lower(e.path.substr(9))] = e.column;
    }
  }
  Catalog catalog;
  for (const auto& [key, root] : roots) {
    SourceSchema s;
    s.name = display_names[key];
    s.pg_schema = "logs";
    s.pg_table = s.name;
    s.row = ToType(*root, 0);
    s.promoted = std::move(promoted[key]);
    catalog.sources_.emplace(key, std::move(s));
  }
  if (error) error->clear();
  return catalog;
}

std::vector<CatalogEntry> Catalog::ParseTsv(std::string_view text, std::string* error) {
  std::vector<CatalogEntry> out;
  std::size_t line_no = 0;
  while (!text.empty()) {
    const auto nl = text.find('\n');
    std::string_view line = text.substr(0, nl);
    text = nl == std::string_view::npos ? std::string_view{} : text.substr(nl + 1);
    ++line_no;
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    if (line.empty() || line.front() == '#') continue;
    std::vector<std::string_view> cols;
    while (true) {
      const auto tab = line.find('\t');
      cols.push_back(line.substr(0, tab));
      if (tab == std::string_view::npos) break;
      line = line.substr(tab + 1);
    }
    if (cols.size() < 3 || cols.size() > 4) {
      if (error) {
        *error = "line " + std::to_string(line_no) + ": expected source, path, type[, mode]";
      }
      return {};
    }
    out.push_back({std::string(cols[0]), std::string(cols[1]), std::string(cols[2]),
                   cols.size() == 4 ? std::string(cols[3]) : "NULLABLE"});
  }
  if (error) error->clear();
  return out;
}

const SourceSchema* Catalog::FindSource(std::string_view name) const {
  const auto it = sources_.find(Lower(name));
  return it == sources_.end() ? nullptr : &it->second;
}

std::vector<std::string> Catalog::SourceNames() const {
  std::vector<std::string> names;
  names.reserve(sources_.size());
  for (const auto& [key, s] : sources_) names.push_back(s.name);
  return names;
}

}  // namespace lqe
