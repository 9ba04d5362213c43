// A database for the LQL end-to-end tests: migrated, filled with generated edge, auth and storage
// rows (kept in memory too, so tests compute expectations without SQL), and a runner for
// Translate(sql/logs.all.sql + consumer LQL).
#pragma once

#include <chrono>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "lqe/catalog.h"
#include "lqe/diagnostic.h"
#include "support/test_database.h"

namespace lqe::testing::lql {

constexpr std::int64_t kBaseMicros = 1736935200LL * 1'000'000;  // 2025-01-15 10:00:00 UTC

struct EdgeRow {
  std::string id, project, message, method, path;
  std::int64_t micros = 0;
  std::optional<int> status;     // absent: no metadata.response at all
  std::optional<bool> verified;  // metadata.request.cf.botManagement.verifiedBot
  std::vector<int> detections;   // ...botManagement.detectionIds (absent when empty)
};

struct AuthRow {
  std::string id, project, message, level;  // level "" means absent
  std::int64_t micros = 0;
  std::vector<std::string> args;
};

struct StorageRow {
  std::string id, project, message;
  std::int64_t micros = 0;
  std::optional<double> response_time;
};

struct QueryResult {
  std::string error;  // RenderOneLine of the diagnostic, or PostgreSQL's message
  DiagSource error_source = DiagSource::kStored;
  std::string pg_sql;
  std::vector<std::string> columns;
  std::vector<std::vector<std::string>> rows;  // text values, NULL as "NULL"
};

class LqlDatabase {
 public:
  LqlDatabase();
  // Runs the LQL in the logs.all sandbox; project defaults to p1, the time bounds to "".
  QueryResult Run(const std::string& lql, const std::map<std::string, std::string>& params);
  const std::string& dsn() const { return db_.dsn(); }

  std::vector<EdgeRow> edge;
  std::vector<AuthRow> auth;
  std::vector<StorageRow> storage;
  std::chrono::system_clock::time_point now = std::chrono::system_clock::now();

 private:
  void Insert();
  TestDatabase db_{"lql"};
  Catalog catalog_;
  std::string stored_sql_;
};

}  // namespace lqe::testing::lql
