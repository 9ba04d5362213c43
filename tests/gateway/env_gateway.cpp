#include "env_gateway.h"

#include <utility>
#include <vector>

#include "support/test_database.h"

namespace lqe::gateway::testing {
namespace {

ChildOptions Options(const TempDir& dir, std::map<std::string, std::string> vars, bool migrate,
                     unsigned short port) {
  vars["LQE_LISTEN"] = "127.0.0.1:" + std::to_string(port);
  std::vector<std::string> args = {"serve"};
  if (migrate) args.emplace_back("--migrate");
  return {std::move(args), std::move(vars),
          (dir.path() / ("serve-" + std::to_string(port) + ".log")).string()};
}

}  // namespace

std::map<std::string, std::string> StackEnvironment(const std::string& dsn,
                                                    const std::string& public_token,
                                                    const std::string& private_token) {
  return {{"LQE_DATABASE_URL", dsn},
          {"LOGFLARE_PUBLIC_ACCESS_TOKEN", public_token},
          {"LOGFLARE_PRIVATE_ACCESS_TOKEN", private_token},
          {"LQE_ENDPOINTS_DIR", lqe::testing::SourcePath("sql")},
          {"LQE_CATALOGUE_FILE", lqe::testing::SourcePath("schema/catalogue_seed.tsv")},
          {"LQE_CONFIG", ""}};
}

EnvGateway::EnvGateway(const TempDir& dir, std::map<std::string, std::string> vars, bool migrate)
    : port_(FreePort()), child_(Options(dir, std::move(vars), migrate, port_)) {
  up_ = child_.WaitHealthy(port_);
}

}  // namespace lqe::gateway::testing
