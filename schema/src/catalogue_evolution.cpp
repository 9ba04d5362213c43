#include "lqe/schema/catalogue_evolution.h"

#include <algorithm>
#include <boost/json/serialize.hpp>
#include <functional>
#include <string_view>
#include <tuple>
#include <unordered_map>

#include "lqe/base/ascii.h"
#include "lqe/base/string_hash.h"

namespace lqe::schema {

namespace json = boost::json;

enum class FieldType { kUnknown, kString, kInt64, kFloat64, kBool, kTimestamp, kRecord };

namespace {

std::string_view TypeText(FieldType t) {
  switch (t) {
    case FieldType::kString:
      return "STRING";
    case FieldType::kInt64:
      return "INT64";
    case FieldType::kFloat64:
      return "FLOAT64";
    case FieldType::kBool:
      return "BOOL";
    case FieldType::kTimestamp:
      return "TIMESTAMP";
    case FieldType::kRecord:
      return "RECORD";
    case FieldType::kUnknown:
      break;
  }
  return "NULL";
}

FieldType ParseType(std::string_view t) {
  if (t == "STRING") return FieldType::kString;
  if (t == "INT64") return FieldType::kInt64;
  if (t == "FLOAT64") return FieldType::kFloat64;
  if (t == "BOOL") return FieldType::kBool;
  if (t == "TIMESTAMP") return FieldType::kTimestamp;
  return FieldType::kRecord;
}

FieldType ScalarType(const json::value& v) {
  switch (v.kind()) {
    case json::kind::string:
      return FieldType::kString;
    case json::kind::int64:
    case json::kind::uint64:
      return FieldType::kInt64;
    case json::kind::double_:
      return FieldType::kFloat64;
    case json::kind::bool_:
      return FieldType::kBool;
    case json::kind::object:
      return FieldType::kRecord;
    default:
      return FieldType::kUnknown;
  }
}

bool SameIgnoringCase(std::string_view a, std::string_view b) {
  return a.size() == b.size() && std::equal(a.begin(), a.end(), b.begin(), [](char x, char y) {
           return ascii::ToLower(x) == ascii::ToLower(y);
         });
}

bool Fail(std::string* error, std::string message) {
  *error = std::move(message);
  return false;
}

}  // namespace

struct CatalogueEvolver::Node {
  std::string path;
  std::string name;  // the last part of the path
  FieldType type = FieldType::kRecord;
  bool repeated = false;
  bool seen = false;
  std::unordered_map<std::string, std::unique_ptr<Node>, StringHash, std::equal_to<>> children;
  // The child found for each position of the last object checked here: events of one source
  // mostly repeat their keys in the same order, so a key is first compared with this guess.
  std::vector<Node*> by_position;

  // Find, for the key at `position` of an object.
  Node* FindAt(std::size_t position, std::string_view name) {
    if (position < by_position.size() && by_position[position] != nullptr &&
        by_position[position]->name == name) {
      return by_position[position];
    }
    Node* found = Find(name);
    if (position >= by_position.size()) by_position.resize(position + 1, nullptr);
    by_position[position] = found;
    return found;
  }

  // Exact name first; BigQuery field names are case-insensitive, so fall back to that.
  Node* Find(std::string_view name) {
    const auto it = children.find(name);
    if (it != children.end()) return it->second.get();
    for (auto& [child_name, child] : children) {
      if (SameIgnoringCase(child_name, name)) return child.get();
    }
    return nullptr;
  }
  Node* Add(std::string_view name) {
    auto node = std::make_unique<Node>();
    node->path = path + "." + std::string(name);
    node->name = name;
    Node* raw = node.get();
    children.emplace(std::string(name), std::move(node));
    return raw;
  }
  std::string Describe() const {
    return (repeated ? "REPEATED " : "") + std::string(TypeText(type));
  }
};

// A type inferred from a value no catalogue row covers yet.
struct InferredChild;
struct Inferred {
  FieldType type = FieldType::kUnknown;
  bool repeated = false;
  // Not std::pair<std::string, Inferred>: a pair of a type still incomplete here is undefined,
  // and clang rejects it (the fuzz build); a vector of an incomplete type is allowed.
  std::vector<InferredChild> children;
};
struct InferredChild {
  std::string first;  // the field's name as first seen
  Inferred second;
};

struct CatalogueEvolver::Pending {
  std::vector<std::pair<Node*, std::pair<std::string, Inferred>>> adds;
  std::vector<Node*> widens;
};

namespace {

constexpr std::string_view kNulError = ": NUL character (\\u0000) in a string is not supported";
constexpr std::string_view kNameError = "invalid field name";

std::string DescribeValue(const json::value& v) {
  if (!v.is_array()) return std::string(TypeText(ScalarType(v)));
  for (const auto& e : v.get_array()) {
    if (!e.is_null()) return "REPEATED " + (e.is_array() ? "ARRAY" : DescribeValue(e));
  }
  return "REPEATED";
}

bool ValidName(std::string_view name, const std::string& parent, std::string* error) {
  if (name.empty() || name.find('.') != std::string_view::npos ||
      name.find('\0') != std::string_view::npos) {
    return Fail(error, parent + ": " + std::string(kNameError) + " \"" + std::string(name) +
                           "\" (empty or contains '.')");
  }
  return true;
}

bool InferValue(const json::value& v, const std::string& path, Inferred* out, std::string* error);

// Inference errors that reject the event (the others are type clashes, recorded as conflicts).
bool HardError(const std::string& error) {
  return error.find(kNulError) != std::string::npos || error.find(kNameError) != std::string::npos;
}

// Merges b into a (array elements, repeated sightings of one new field in a line).
bool Merge(Inferred* a, const Inferred& b, const std::string& path, std::string* error) {
  if (b.type == FieldType::kUnknown) return true;
  if (a->type == FieldType::kUnknown) {
    *a = b;
    return true;
  }
  if (a->repeated != b.repeated) {
    return Fail(error, path + ": type conflict: both an array and a single value in one event");
  }
  const bool numbers = (a->type == FieldType::kInt64 || a->type == FieldType::kFloat64) &&
                       (b.type == FieldType::kInt64 || b.type == FieldType::kFloat64);
  if (numbers) {
    if (b.type == FieldType::kFloat64) a->type = FieldType::kFloat64;
    return true;
  }
  if (a->type != b.type) {
    return Fail(error, path + ": type conflict: values of types " + std::string(TypeText(a->type)) +
                           " and " + std::string(TypeText(b.type)) + " in one event");
  }
  for (const auto& [name, child] : b.children) {
    const std::string& wanted = name;  // clang 14 cannot capture a structured binding
    auto it = std::find_if(a->children.begin(), a->children.end(),
                           [&](const auto& c) { return SameIgnoringCase(c.first, wanted); });
    if (it == a->children.end()) {
      a->children.push_back({name, child});
    } else {
      std::string child_path = path;
      child_path.append(".").append(name);
      if (!Merge(&it->second, child, child_path, error)) return false;
    }
  }
  return true;
}

bool InferElement(const json::value& v, const std::string& path, Inferred* out,
                  std::string* error) {
  if (v.is_string() && v.get_string().find('\0') != json::string::npos) {
    return Fail(error, path + std::string(kNulError));
  }
  out->type = ScalarType(v);
  if (!v.is_object()) return true;
  for (const auto& [key, child] : v.get_object()) {
    if (!ValidName(key, path, error)) return false;
    Inferred inferred;
    const std::string child_path = path + "." + std::string(key);
    if (!InferValue(child, child_path, &inferred, error)) return false;
    Inferred* slot = nullptr;
    for (auto& [name, existing] : out->children) {
      if (SameIgnoringCase(name, key)) slot = &existing;
    }
    if (slot != nullptr) {
      if (!Merge(slot, inferred, child_path, error)) return false;
    } else if (inferred.type != FieldType::kUnknown) {
      out->children.push_back({std::string(key), std::move(inferred)});
    }
  }
  return true;
}

bool InferValue(const json::value& v, const std::string& path, Inferred* out, std::string* error) {
  if (!v.is_array()) return InferElement(v, path, out, error);
  Inferred merged;
  for (const auto& element : v.get_array()) {
    if (element.is_array()) return Fail(error, path + ": arrays of arrays are not supported");
    Inferred one;
    if (!InferElement(element, path, &one, error) || !Merge(&merged, one, path, error)) {
      return false;
    }
  }
  *out = std::move(merged);
  if (out->type != FieldType::kUnknown) out->repeated = true;
  return true;
}

}  // namespace

CatalogueEvolver::CatalogueEvolver(const std::vector<CatalogEntry>& rows, const std::string& root)
    : root_(std::make_unique<Node>()) {
  root_->path = root;
  const std::string prefix = root + ".";
  for (const auto& row : rows) {
    std::string_view path = row.path;
    if (path != root && path.rfind(prefix, 0) != 0) continue;
    Node* node = root_.get();
    path.remove_prefix(std::min<std::size_t>(path.size(), prefix.size()));
    while (!path.empty()) {
      const auto dot = path.find('.');
      const std::string_view part = path.substr(0, dot);
      Node* child = node->Find(part);
      node = child != nullptr ? child : node->Add(part);
      path = dot == std::string_view::npos ? std::string_view{} : path.substr(dot + 1);
    }
    node->type = ParseType(row.type);
    node->repeated = row.mode == "REPEATED";
  }
}

CatalogueEvolver::~CatalogueEvolver() = default;

namespace {

using Node = CatalogueEvolver::Node;

constexpr std::size_t kMaxExampleBytes = 200;

std::string Example(const json::value& v) {
  std::string text = json::serialize(v);
  if (text.size() <= kMaxExampleBytes) return text;
  std::size_t cut = kMaxExampleBytes;
  while (cut > 0 && (static_cast<unsigned char>(text[cut]) & 0xC0) == 0x80) --cut;
  return text.substr(0, cut) + "...";
}

struct Checker {
  std::vector<std::pair<Node*, std::pair<std::string, Inferred>>>* adds;
  std::vector<Node*>* widens;
  std::vector<TypeConflict>* conflicts;
  std::string* error;

  void Record(const std::string& path, std::string catalogue_type, std::string seen_type,
              const json::value& v) {
    conflicts->push_back({path, std::move(catalogue_type), std::move(seen_type), 1, Example(v)});
  }
  // The value stays in the stored event; the catalogue keeps its type.
  bool Conflict(const Node& node, const json::value& v) {
    Record(node.path, node.Describe(), DescribeValue(v), v);
    return true;
  }

  bool Object(Node* node, const json::object& object) {
    std::size_t position = 0;
    for (const auto& [key, v] : object) {
      Node* child = node->FindAt(position++, key);
      if (child != nullptr) {
        if (!Value(child, v)) return false;
        continue;
      }
      if (!ValidName(key, node->path, error)) return false;
      const std::string path = node->path + "." + std::string(key);
      Inferred inferred;
      std::string clash;
      if (!InferValue(v, path, &inferred, &clash)) {
        if (HardError(clash)) return Fail(error, clash);
        const bool nested = clash.find("arrays of arrays") != std::string::npos;
        Record(path, "NONE", nested ? "REPEATED ARRAY" : "MIXED", v);
        continue;
      }
      if (inferred.type == FieldType::kUnknown) continue;  // null or []: nothing to learn yet
      const std::string_view wanted = key;  // clang 14 cannot capture a structured binding
      auto same = std::find_if(adds->begin(), adds->end(), [&](const auto& a) {
        return a.first == node && SameIgnoringCase(a.second.first, wanted);
      });
      if (same != adds->end()) {
        Inferred merged = same->second.second;
        if (!Merge(&merged, inferred, path, &clash)) {
          Record(path, "NONE", "MIXED", v);
          continue;
        }
        same->second.second = std::move(merged);
      } else {
        adds->push_back({node, {std::string(key), std::move(inferred)}});
      }
    }
    return true;
  }

  bool Element(Node* node, const json::value& v) {
    switch (v.kind()) {
      case json::kind::null:
        return true;
      case json::kind::object:
        return node->type == FieldType::kRecord ? Object(node, v.get_object()) : Conflict(*node, v);
      case json::kind::string:
        if (v.get_string().find('\0') != json::string::npos) {
          return Fail(error, node->path + std::string(kNulError));
        }
        return node->type == FieldType::kString || node->type == FieldType::kTimestamp ||
               Conflict(*node, v);
      case json::kind::int64:
      case json::kind::uint64:
        return node->type == FieldType::kInt64 || node->type == FieldType::kFloat64 ||
               node->type == FieldType::kTimestamp || Conflict(*node, v);
      case json::kind::double_:
        if (node->type == FieldType::kInt64) {
          widens->push_back(node);
          return true;
        }
        return node->type == FieldType::kFloat64 || Conflict(*node, v);
      case json::kind::bool_:
        return node->type == FieldType::kBool || Conflict(*node, v);
      case json::kind::array:
        break;  // Value() handles arrays of arrays
    }
    return Conflict(*node, v);
  }

  bool Value(Node* node, const json::value& v) {
    node->seen = true;
    if (v.is_null()) return true;
    if (v.is_array() != node->repeated) return Conflict(*node, v);
    if (!v.is_array()) return Element(node, v);
    for (const auto& element : v.get_array()) {
      if (element.is_array()) {
        Record(node->path, node->Describe(), "REPEATED ARRAY", v);
        return true;
      }
    }
    for (const auto& element : v.get_array()) {
      if (!Element(node, element)) return false;
    }
    return true;
  }
};

void AddInferred(Node* parent, const std::string& name, const Inferred& inferred,
                 std::vector<FieldChange>* changes) {
  Node* node = parent->Add(name);
  node->type = inferred.type;
  node->repeated = inferred.repeated;
  node->seen = true;
  changes->push_back({node->path, std::string(TypeText(node->type)),
                      node->repeated ? "REPEATED" : "NULLABLE", false});
  for (const auto& [child_name, child] : inferred.children) {
    AddInferred(node, child_name, child, changes);
  }
}

void CollectSeen(Node* node, std::vector<std::string>* out) {
  if (node->seen) out->push_back(node->path);
  node->seen = false;
  for (auto& [name, child] : node->children) CollectSeen(child.get(), out);
}

void CollectRows(const Node& node, const std::string& source, std::vector<CatalogEntry>* out) {
  out->push_back({source, node.path, std::string(TypeText(node.type)),
                  node.repeated ? "REPEATED" : "NULLABLE"});
  for (const auto& [name, child] : node.children) CollectRows(*child, source, out);
}

}  // namespace

bool CatalogueEvolver::Observe(const json::object* object, std::string* error) {
  if (object == nullptr) return true;
  std::vector<std::pair<Node*, std::pair<std::string, Inferred>>> adds;
  std::vector<Node*> widens;
  std::vector<TypeConflict> conflicts;
  Checker checker{&adds, &widens, &conflicts, error};
  root_->seen = true;
  if (!checker.Object(root_.get(), *object)) return false;
  for (auto& c : conflicts) {
    auto same = std::find_if(conflicts_.begin(), conflicts_.end(), [&](const TypeConflict& o) {
      return o.path == c.path && o.seen_type == c.seen_type;
    });
    if (same != conflicts_.end()) {
      ++same->count;
    } else {
      conflicts_.push_back(std::move(c));
    }
  }
  for (Node* node : widens) {
    if (node->type != FieldType::kInt64) continue;  // widened earlier in this event
    node->type = FieldType::kFloat64;
    changes_.push_back({node->path, "FLOAT64", node->repeated ? "REPEATED" : "NULLABLE", true});
  }
  for (const auto& [parent, named] : adds) {
    AddInferred(parent, named.first, named.second, &changes_);
  }
  return true;
}

std::vector<FieldChange> CatalogueEvolver::TakeChanges() {
  return std::exchange(changes_, {});
}

std::vector<TypeConflict> CatalogueEvolver::TakeConflicts() {
  std::vector<TypeConflict> out = std::exchange(conflicts_, {});
  std::sort(out.begin(), out.end(), [](const TypeConflict& a, const TypeConflict& b) {
    return std::tie(a.path, a.seen_type) < std::tie(b.path, b.seen_type);
  });
  return out;
}

std::vector<std::string> CatalogueEvolver::TakeSeenPaths() {
  std::vector<std::string> out;
  CollectSeen(root_.get(), &out);
  return out;
}

std::vector<CatalogEntry> CatalogueEvolver::Rows(const std::string& source) const {
  std::vector<CatalogEntry> out;
  CollectRows(*root_, source, &out);
  std::sort(out.begin(), out.end(),
            [](const CatalogEntry& a, const CatalogEntry& b) { return a.path < b.path; });
  return out;
}

}  // namespace lqe::schema
