// Command-line mistakes: CLI11's message, or for an unknown command or option the nearest known
// one ("did you mean"), and exit status 2 for every usage error (CLI11's own codes are 100+).
#include <CLI/CLI.hpp>
#include <algorithm>
#include <iostream>
#include <string>
#include <vector>

#include "commands.h"
#include "lqe/base/suggest.h"

namespace lqe::cli {
namespace {

constexpr int kUsage = 2;

// "lqe", "lqe load", "lqe cluster status": the command as typed.
std::string CommandPath(const CLI::App& command) {
  if (command.get_parent() == nullptr) return "lqe";
  return CommandPath(*command.get_parent()) + " " + command.get_name();
}

// The deepest command the parse reached (CLI11 records each subcommand it entered).
CLI::App& Reached(CLI::App& app) {
  CLI::App* at = &app;
  while (!at->get_subcommands().empty()) at = at->get_subcommands().front();
  return *at;
}

std::string Join(const std::vector<std::string>& names) {
  std::string out;
  for (const auto& name : names) out += (out.empty() ? "" : ", ") + name;
  return out;
}

std::vector<std::string> OptionNames(const CLI::App& command) {
  std::vector<std::string> names;
  for (const CLI::Option* option : command.get_options()) {
    for (const auto& name : option->get_lnames()) names.push_back("--" + name);
    for (const auto& name : option->get_snames()) names.push_back("-" + name);
  }
  return names;
}

std::vector<std::string> CommandNames(CLI::App& command) {
  std::vector<std::string> names;
  for (const CLI::App* sub : command.get_subcommands([](CLI::App*) { return true; })) {
    names.push_back(sub->get_name());
  }
  return names;
}

// The message for the first argument `command` did not know, or "" when every leftover is a
// positional argument the command takes no command for (CLI11's message says it well).
std::string UnknownArgument(CLI::App& command) {
  const std::string path = CommandPath(command);
  for (std::string arg : command.remaining(false)) {
    if (arg.size() > 1 && arg[0] == '-') {
      if (const auto eq = arg.find('='); eq != std::string::npos) arg.resize(eq);
      const std::vector<std::string> options = OptionNames(command);
      if (std::find(options.begin(), options.end(), arg) != options.end()) continue;
      const std::string near = ClosestMatch(arg, options, SuggestionLimit(arg));
      std::string message = path;
      message += ": unknown option '" + arg + "'";
      message += near.empty() ? "; see " + path + " --help for the options"
                              : "; did you mean '" + near + "'?";
      return message;
    }
    const std::vector<std::string> commands = CommandNames(command);
    if (commands.empty()) continue;
    const std::string near = ClosestMatch(arg, commands, SuggestionLimit(arg));
    std::string message = path;
    message += ": unknown command '" + arg + "'";
    message +=
        near.empty() ? " (commands: " + Join(commands) + ")" : "; did you mean '" + near + "'?";
    return message;
  }
  return "";
}

}  // namespace

int ReportParseError(CLI::App& app, const CLI::ParseError& error) {
  if (error.get_exit_code() == static_cast<int>(CLI::ExitCodes::Success)) return app.exit(error);
  const std::string unknown = UnknownArgument(Reached(app));
  if (unknown.empty()) {
    app.exit(error);
  } else {
    std::cerr << unknown << "\n";
  }
  return kUsage;
}

}  // namespace lqe::cli
