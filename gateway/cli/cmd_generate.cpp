// lqe generate: deterministic demo events (NDJSON in the ingest shape) for `lqe load`.
#include <CLI/CLI.hpp>
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <iostream>

#include "commands.h"
#include "lqe/base/suggest.h"
#include "lqe/schema/demo_events.h"

namespace lqe::cli {
namespace {

struct GenerateFlags {
  std::string source;
  std::uint64_t count = 1000;
  std::uint64_t seed = 1;
  std::string now;
  int projects = 50;
  std::int64_t live_seconds = 0;
  std::string out_dir;
};

// Writes `count` events of one source to `file`; false on a write error.
bool WriteEvents(const demo::GeneratorOptions& options, std::uint64_t count, std::FILE* file) {
  demo::EventGenerator generator(options);
  std::string buffer;
  buffer.reserve(1 << 21);
  for (std::uint64_t i = 0; i < count; ++i) {
    generator.Next(&buffer);
    if (buffer.size() >= (1 << 20)) {
      if (std::fwrite(buffer.data(), 1, buffer.size(), file) != buffer.size()) return false;
      buffer.clear();
    }
  }
  return std::fwrite(buffer.data(), 1, buffer.size(), file) == buffer.size() &&
         std::fflush(file) == 0;
}

int Run(const GenerateFlags& flags) {
  demo::GeneratorOptions options;
  options.seed = flags.seed;
  options.projects = flags.projects;
  options.live_seconds = flags.live_seconds;
  options.now_micros = std::chrono::duration_cast<std::chrono::microseconds>(
                           std::chrono::system_clock::now().time_since_epoch())
                           .count();
  if (!flags.now.empty() && !demo::ParseNow(flags.now, &options.now_micros)) {
    std::cerr << "lqe generate: invalid --now \"" << flags.now
              << "\" (expected e.g. 2026-11-21T12:00:00Z)\n";
    return 2;
  }
  if (flags.source != "all") {
    options.source = flags.source;
    return WriteEvents(options, flags.count, stdout) ? 0 : 1;
  }
  if (flags.out_dir.empty()) {
    std::cerr << "lqe generate: --source all needs --out-dir (one file per source)\n";
    return 2;
  }
  std::filesystem::create_directories(flags.out_dir);
  for (const auto& source : demo::GeneratorSources()) {
    options.source = source;
    const std::string path = flags.out_dir + "/" + source + ".ndjson";
    std::FILE* file = std::fopen(path.c_str(), "wb");
    const bool ok = file != nullptr && WriteEvents(options, flags.count, file);
    if (file != nullptr) std::fclose(file);
    if (!ok) {
      std::cerr << "lqe generate: cannot write " << path << "\n";
      return 1;
    }
  }
  return 0;
}

}  // namespace

void RegisterGenerate(CLI::App& app, int* exit_code) {
  auto* cmd = app.add_subcommand("generate", "Write deterministic demo log events as NDJSON");
  auto flags = std::make_shared<GenerateFlags>();
  std::string sources = "all";
  for (const auto& s : demo::GeneratorSources()) sources += ", " + s;
  cmd->add_option("--source", flags->source, "Log source: " + sources)
      ->required()
      ->check(CLI::Validator(
          [sources](const std::string& source) -> std::string {
            auto names = demo::GeneratorSources();
            names.push_back("all");
            if (std::find(names.begin(), names.end(), source) != names.end()) return "";
            const std::string near = ClosestMatch(source, names, SuggestionLimit(source));
            return "unknown source '" + source + "'" +
                   (near.empty() ? " (sources: " + sources + ")"
                                 : "; did you mean '" + near + "'?");
          },
          "SOURCE"));
  cmd->add_option("--count", flags->count, "Events to write (per source with all; default 1000)");
  cmd->add_option("--seed", flags->seed, "Random seed; same seed, same output (default 1)");
  cmd->add_option("--now", flags->now,
                  "Reference instant, ISO 8601 UTC (default: the current time); events fall in "
                  "the 8 days before it, half of them in the last 2 hours");
  cmd->add_option("--projects", flags->projects, "Distinct projects (default 50)")
      ->check(CLI::Range(1, 1000000));
  cmd->add_option("--live", flags->live_seconds,
                  "Put every event in the SECONDS before --now instead: a live stream, as "
                  "shippers send it (default 0: the 8-day spread)")
      ->check(CLI::Range(std::int64_t{1}, std::int64_t{31} * 24 * 3600));
  cmd->add_option("--out-dir", flags->out_dir,
                  "With --source all: write DIR/<source>.ndjson instead of standard output");
  cmd->callback([flags, exit_code] {
    try {
      *exit_code = Run(*flags);
    } catch (const std::exception& e) {
      std::cerr << "lqe generate: " << e.what() << "\n";
      *exit_code = 1;
    }
  });
}

}  // namespace lqe::cli
