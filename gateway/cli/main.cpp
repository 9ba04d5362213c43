// lqe: one binary, one subcommand per job. Argument parsing is CLI11's (Debian libcli11-dev).
#include <CLI/CLI.hpp>

#include "commands.h"

int main(int argc, char** argv) {
  CLI::App app{
      "lqe: log query endpoints. Stored BigQuery-dialect queries over PostgreSQL log tables, "
      "served over HTTP."};
  app.require_subcommand(1);
  app.set_version_flag("--version", lqe::cli::VersionText());
  int exit_code = 0;
  lqe::cli::RegisterServe(app, &exit_code);
  lqe::cli::RegisterReload(app, &exit_code);
  lqe::cli::RegisterCheck(app, &exit_code);
  lqe::cli::RegisterKeygen(app, &exit_code);
  lqe::cli::RegisterTranslate(app, &exit_code);
  lqe::cli::RegisterMigrate(app, &exit_code);
  lqe::cli::RegisterLoad(app, &exit_code);
  lqe::cli::RegisterRetention(app, &exit_code);
  lqe::cli::RegisterGenerate(app, &exit_code);
  lqe::cli::RegisterCluster(app, &exit_code);
  lqe::cli::RegisterHealth(app, &exit_code);
  lqe::cli::RegisterVersion(app, &exit_code);
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    return lqe::cli::ReportParseError(app, e);
  }
  return exit_code;
}
