#include "schema_test_util.h"

#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <boost/json/parse.hpp>
#include <boost/json/serialize.hpp>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <stdexcept>

#include "support/test_database.h"

namespace lqe::testing {
namespace {

std::string Quote(const std::string& arg) {
  std::string out = "'";
  for (char c : arg) {
    if (c == '\'') {
      out += "'\\''";
    } else {
      out += c;
    }
  }
  return out + "'";
}

// One directory per test process, removed when the process exits: the files written here (NDJSON
// inputs of up to 50 MB, configs, captured output) must not outlive the run.
class ProcessTempDir {
 public:
  ProcessTempDir()
      : path_(std::filesystem::temp_directory_path() /
              ("lqe_schema_test_" + std::to_string(getpid()))) {
    std::filesystem::create_directories(path_);
  }
  ProcessTempDir(const ProcessTempDir&) = delete;
  ProcessTempDir& operator=(const ProcessTempDir&) = delete;
  ~ProcessTempDir() {
    std::error_code ignored;
    std::filesystem::remove_all(path_, ignored);
  }
  [[nodiscard]] const std::filesystem::path& Path() const { return path_; }

 private:
  std::filesystem::path path_;
};

std::string TempPath(const std::string& suffix) {
  static const ProcessTempDir dir;
  static int counter = 0;
  return (dir.Path() / (std::to_string(counter++) + suffix)).string();
}

}  // namespace

std::string ReadFile(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream buffer;
  buffer << in.rdbuf();
  return buffer.str();
}

std::string WriteTempFile(const std::string& text) {
  std::string path = TempPath(".ndjson");
  std::ofstream(path, std::ios::binary) << text;
  return path;
}

std::vector<CommandResult> RunLqeTogether(const std::vector<std::vector<std::string>>& runs) {
  std::vector<std::string> out_paths, err_paths, status_paths;
  std::string command;
  for (const auto& args : runs) {
    out_paths.push_back(TempPath(".out"));
    err_paths.push_back(TempPath(".err"));
    status_paths.push_back(TempPath(".status"));
    command += "(" + Quote(LqeBinary());
    for (const auto& a : args) command += " " + Quote(a);
    command += " </dev/null >" + Quote(out_paths.back()) + " 2>" + Quote(err_paths.back()) +
               "; echo $? >" + Quote(status_paths.back()) + ") & ";
  }
  command += "wait";
  EXPECT_EQ(std::system(command.c_str()), 0) << command;
  std::vector<CommandResult> results;
  for (std::size_t i = 0; i < runs.size(); ++i) {
    CommandResult result;
    result.exit_code = std::atoi(ReadFile(status_paths[i]).c_str());
    result.out = ReadFile(out_paths[i]);
    result.err = ReadFile(err_paths[i]);
    for (const auto* path : {&out_paths[i], &err_paths[i], &status_paths[i]}) {
      std::remove(path->c_str());
    }
    results.push_back(result);
  }
  return results;
}

CommandResult RunLqe(const std::vector<std::string>& args, const std::string& stdin_file) {
  std::vector<std::string> argv = {LqeBinary()};
  argv.insert(argv.end(), args.begin(), args.end());
  return RunCommand(argv, stdin_file);
}

CommandResult RunCommand(const std::vector<std::string>& argv, const std::string& stdin_file) {
  const std::string out_path = TempPath(".out");
  const std::string err_path = TempPath(".err");
  std::string command;
  for (const auto& a : argv) command += (command.empty() ? "" : " ") + Quote(a);
  command += " <" + Quote(stdin_file.empty() ? "/dev/null" : stdin_file);
  command += " >" + Quote(out_path) + " 2>" + Quote(err_path);
  const int status = std::system(command.c_str());
  CommandResult result;
  result.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  result.out = ReadFile(out_path);
  result.err = ReadFile(err_path);
  std::remove(out_path.c_str());
  std::remove(err_path.c_str());
  return result;
}

std::string CompactSample(const std::string& source) {
  // The fixtures are in the checkout: the tests read nothing outside it.
  const std::string path = SourcePath("tests/fixtures/ingest/" + source + ".ndjson");
  const std::string text = ReadFile(path);
  if (text.empty()) throw std::runtime_error("missing or empty ingest fixture " + path);
  return boost::json::serialize(boost::json::parse(text.substr(0, text.find('\n'))));
}

std::string UtcDayTag(int offset_days) {
  const auto now = std::chrono::system_clock::now() + std::chrono::hours(24 * offset_days);
  const std::chrono::year_month_day ymd{std::chrono::floor<std::chrono::days>(now)};
  char buf[16];
  std::snprintf(buf, sizeof(buf), "%04d%02u%02u", static_cast<int>(ymd.year()),
                static_cast<unsigned>(ymd.month()), static_cast<unsigned>(ymd.day()));
  return buf;
}

std::string UtcIso(int offset_days) {
  const std::string tag = UtcDayTag(offset_days);
  // Midnight: offset 0 is never in the future, whatever the time of day the tests run at (noon
  // was more than the loader's one-hour future limit ahead before 11:00 UTC).
  return tag.substr(0, 4) + "-" + tag.substr(4, 2) + "-" + tag.substr(6, 2) + "T00:00:00Z";
}

}  // namespace lqe::testing
