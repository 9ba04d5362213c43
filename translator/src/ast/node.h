// AST base: a kind tag, a source span, and a checked cast.
#pragma once

#include <cassert>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace lqe::ast {

// Byte range [begin, end) in the text the node was parsed from.
struct SourceSpan {
  std::uint32_t begin = 0;
  std::uint32_t end = 0;
};

enum class NodeKind : std::uint8_t {
#define LQE_NODE(name) k##name,
#include "ast/nodes.def"
#undef LQE_NODE
};

const char* NodeKindName(NodeKind kind);

struct Node {
  explicit Node(NodeKind k, SourceSpan s = {}) : kind(k), span(s) {}
  virtual ~Node() = default;
  Node(const Node&) = delete;
  Node& operator=(const Node&) = delete;

  NodeKind kind;    // which subclass this is
  SourceSpan span;  // where it came from

  template <class T>
  T& As() {
    assert(kind == T::kKind);
    return static_cast<T&>(*this);
  }
  template <class T>
  const T& As() const {
    assert(kind == T::kKind);
    return static_cast<const T&>(*this);
  }
  template <class T>
  bool Is() const {
    return kind == T::kKind;
  }
};

// A name as written. Backtick-quoted names keep their text verbatim (dots included:
// `logs.edge` is one quoted identifier; table resolution splits it).
struct Identifier {
  std::string name;     // decoded text, original case
  bool quoted = false;  // written in backticks
  SourceSpan span;
};

}  // namespace lqe::ast
