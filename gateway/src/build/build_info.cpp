#include "lqe/gateway/build_info.h"

#include "lqe_build_info.h"  // generated; only this file includes it, so a new commit rebuilds one file

namespace lqe::gateway {

std::string_view BuildVersion() {
  return LQE_VERSION;
}

std::string_view BuildCommit() {
  return LQE_GIT_COMMIT;
}

}  // namespace lqe::gateway
