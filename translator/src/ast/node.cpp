#include "ast/node.h"

namespace lqe::ast {

const char* NodeKindName(NodeKind kind) {
  switch (kind) {
#define LQE_NODE(name)    \
  case NodeKind::k##name: \
    return #name;
#include "ast/nodes.def"
#undef LQE_NODE
  }
  return "?";
}

}  // namespace lqe::ast
