// Log lines of the library code a command runs, as one-line notes on stderr.
#include <spdlog/sinks/stdout_sinks.h>
#include <spdlog/spdlog.h>

#include "commands.h"

namespace lqe::cli {

void UseStderrLog(const std::string& command) {
  auto logger = spdlog::stderr_logger_st(command);
  logger->set_pattern(command + ": %v");
  spdlog::set_default_logger(std::move(logger));
}

}  // namespace lqe::cli
