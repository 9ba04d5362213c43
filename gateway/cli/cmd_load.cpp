// lqe load: NDJSON events (ingest shape) into one log table.
#include <CLI/CLI.hpp>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <string>

#include "commands.h"
#include "lqe/schema/loader.h"
#include "progress_reporter.h"

namespace lqe::cli {
namespace {

// "timestamps not readable, stored at the ingest time ...: lines 2, 7 and 3 more".
std::string InferredLines(const schema::LoadStats& stats) {
  std::string out =
      "timestamps not readable, stored at the ingest time with the value sent in "
      "extra.timestamp_original: line";
  if (stats.timestamps_inferred > 1) out += 's';
  for (std::size_t i = 0; i < stats.inferred_lines.size(); ++i) {
    out += (i == 0 ? " " : ", ") + std::to_string(stats.inferred_lines[i]);
  }
  const auto listed = static_cast<std::int64_t>(stats.inferred_lines.size());
  if (stats.timestamps_inferred > listed) {
    out += " and " + std::to_string(stats.timestamps_inferred - listed) + " more";
  }
  return out;
}

void PrintSummary(const schema::LoadStats& stats) {
  const double rate = stats.seconds > 0 ? static_cast<double>(stats.loaded) / stats.seconds : 0;
  // Conflicting values are stored; the count says how many read NULL (or as text) in queries.
  const std::string conflicts =
      stats.conflicts > 0 ? ", " + std::to_string(stats.conflicts) + " type conflicts" : "";
  const std::string inferred =
      stats.timestamps_inferred > 0
          ? ", " + std::to_string(stats.timestamps_inferred) + " timestamps inferred"
          : "";
  std::fprintf(stdout,
               "loaded %lld events, skipped %lld duplicates, rejected %lld lines%s%s in %.2f s "
               "(%.0f events/s)\n",
               static_cast<long long>(stats.loaded), static_cast<long long>(stats.duplicates),
               static_cast<long long>(stats.rejected), conflicts.c_str(), inferred.c_str(),
               stats.seconds, rate);
  if (stats.timestamps_inferred > 0) std::fprintf(stdout, "%s\n", InferredLines(stats).c_str());
}

// On a terminal: bytes read (of the file's size, with an ETA, unless reading stdin) and events/s.
std::function<void(std::uint64_t, std::int64_t)> DrawLoad(ProgressReporter& progress,
                                                          const std::string& file) {
  std::error_code ec;
  const std::uint64_t total = file == "-" ? 0 : std::filesystem::file_size(file, ec);
  return [&progress, total = ec ? 0 : total](std::uint64_t bytes, std::int64_t lines) {
    progress.Show({.done = bytes,
                   .total = total,
                   .bytes = true,
                   .count = static_cast<std::uint64_t>(lines),
                   .count_noun = "events"});
  };
}

}  // namespace

void RegisterLoad(CLI::App& app, int* exit_code) {
  auto* cmd = app.add_subcommand("load", "Load NDJSON events into a log table");
  struct Flags {
    schema::LoadOptions options;
    std::string file = "-";
  };
  auto flags = std::make_shared<Flags>();
  cmd->add_option("--dsn", flags->options.dsn, "PostgreSQL connection string")->required();
  cmd->add_option("--source", flags->options.source,
                  "Log source (table): edge, postgres, function_edge, function_events, auth, "
                  "realtime, storage, restapi, pooler, supavisor, pg_upgrade, etl_replication, "
                  "auth_audit")
      ->required();
  cmd->add_option("--batch-size", flags->options.batch_size,
                  "Events per COPY and transaction (default 10000)")
      ->check(CLI::Range(1, 1000000));
  cmd->add_option("--jobs", flags->options.jobs,
                  "Batches written at once, each over its own connection (default 2)")
      ->check(CLI::Range(1, 64));
  cmd->add_option("--max-event-bytes", flags->options.max_event_bytes,
                  "Reject lines longer than this many bytes (default 1048576)")
      ->check(CLI::Range(std::size_t{1}, std::size_t{1} << 30));
  cmd->add_option("file", flags->file, "NDJSON file, or - for standard input (default)");
  cmd->callback([flags, exit_code] {
    std::ios::sync_with_stdio(false);
    std::ifstream file;
    std::istream* in = &std::cin;
    if (flags->file != "-") {
      file.open(flags->file, std::ios::binary);
      if (!file) {
        std::cerr << "lqe load: cannot open " << flags->file << "\n";
        *exit_code = 1;
        return;
      }
      in = &file;
    }
    schema::LoadStats stats;
    ProgressReporter progress = ProgressReporter::OnStderr("lqe load");
    ProgressSafeStream errors(std::cerr, progress);
    schema::LoadOptions options = flags->options;
    options.progress = DrawLoad(progress, flags->file);
    try {
      schema::LoadNdjson(options, *in, errors, &stats);
      *exit_code = stats.rejected > 0 ? 1 : 0;
    } catch (const std::exception& e) {
      progress.Clear();
      // A failed load has no summary (it would read as a finished one); only what stays stored.
      std::cerr << "lqe load: " << e.what() << "\n";
      if (stats.loaded > 0) {
        std::cerr << "lqe load: " << stats.loaded
                  << " events stored before the error stay loaded\n";
      }
      *exit_code = 1;
      return;
    }
    progress.Clear();
    std::cerr.flush();
    PrintSummary(stats);
  });
}

}  // namespace lqe::cli
