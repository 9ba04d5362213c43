// `lqe serve` configured by the environment (the compose stack's way) on a free port, killed at
// the end: the management API and drain tests' gateway.
#pragma once

#include <map>
#include <string>

#include "lqe_child.h"
#include "support.h"

namespace lqe::gateway::testing {

// The environment of a self-hosted stack's analytics container for `dsn`: the two Logflare tokens,
// the stored endpoints and the catalogue of this checkout, and no config file.
std::map<std::string, std::string> StackEnvironment(const std::string& dsn,
                                                    const std::string& public_token,
                                                    const std::string& private_token);

class EnvGateway {
 public:
  EnvGateway(const TempDir& dir, std::map<std::string, std::string> vars, bool migrate);

  void Kill() { child_.Kill(); }
  bool Up() const { return up_; }
  unsigned short Port() const { return port_; }
  std::string Log() const { return child_.Log(); }

 private:
  unsigned short port_;
  LqeChild child_;
  bool up_ = false;
};

}  // namespace lqe::gateway::testing
