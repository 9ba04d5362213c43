#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <pqxx/pqxx>
#include <sstream>
#include <stdexcept>
#include <vector>

#include "sqllogic/migrations.h"
#include "support/test_database.h"

namespace lqe::sqllogic {
namespace {

std::string ReadFile(const std::filesystem::path& path) {
  std::ifstream in(path);
  std::stringstream buffer;
  buffer << in.rdbuf();
  return buffer.str();
}

std::vector<std::filesystem::path> SortedFiles(const std::string& dir, const std::string& ext) {
  std::vector<std::filesystem::path> files;
  for (const auto& entry : std::filesystem::directory_iterator(testing::SourcePath(dir))) {
    if (entry.path().extension() == ext) {
      files.push_back(entry.path());
    }
  }
  std::sort(files.begin(), files.end());
  return files;
}

}  // namespace

void ApplyMigrations(const std::string& dsn) {
  const std::string lqe = testing::LqeBinary();
  if (access(lqe.c_str(), X_OK) == 0) {
    const std::string command = "'" + lqe + "' migrate --dsn '" + dsn + "' >/dev/null";
    if (std::system(command.c_str()) != 0) {  // NOLINT(cert-env33-c): test-only, fixed args
      throw std::runtime_error("lqe migrate failed: " + command);
    }
    return;
  }
  pqxx::connection conn(dsn);
  for (const auto& file : SortedFiles("schema/migrations", ".sql")) {
    pqxx::work tx(conn);
    tx.exec(ReadFile(file));
    tx.commit();
  }
}

// Loads through the real `lqe load` (NDJSON parsing, partitions, catalogue evolution) when the
// binary is built; otherwise inserts the same events with SQL.
void LoadFixtures(const std::string& dsn) {
  const std::string lqe = testing::LqeBinary();
  const bool use_loader = access(lqe.c_str(), X_OK) == 0;
  pqxx::connection conn(dsn);
  pqxx::nontransaction tx(conn);  // the loader runs in its own sessions: nothing held open here
  tx.exec("SELECT logs.ensure_partitions('2025-01-14', '2025-01-16')");
  for (const auto& file : SortedFiles("tests/fixtures", ".ndjson")) {
    const std::string source = file.stem().string();
    if (use_loader) {
      const std::string command = "'" + lqe + "' load --dsn '" + dsn + "' --source " + source +
                                  " '" + file.string() + "' 2>/dev/null";
      if (std::system(command.c_str()) != 0) {  // NOLINT(cert-env33-c): test-only, fixed args
        throw std::runtime_error("lqe load failed: " + command);
      }
      continue;
    }
    std::istringstream lines(ReadFile(file));
    std::string line;
    while (std::getline(lines, line)) {
      if (line.empty()) {
        continue;
      }
      tx.exec_params("INSERT INTO logs." + tx.quote_name(source) +
                         " (id, \"timestamp\", event_message, project, metadata) "
                         "SELECT j->>'id', (j->>'timestamp')::timestamptz, j->>'event_message', "
                         "j->>'project', coalesce(j->'metadata', '{}') FROM (SELECT $1::jsonb) "
                         "AS s(j)",
                     line);
    }
  }
  tx.exec("ANALYZE");
}

}  // namespace lqe::sqllogic
