#include "support/test_database.h"

#include <unistd.h>

#include <atomic>
#include <chrono>
#include <cstdlib>
#include <fstream>
#include <pqxx/pqxx>
#include <sstream>
#include <stdexcept>
#include <thread>

namespace lqe::testing {
namespace {

std::string ServerDsn() {
  const char* dsn = std::getenv("LQE_TEST_DSN");
  if (dsn == nullptr || *dsn == '\0') {
    throw std::runtime_error(
        "LQE_TEST_DSN is not set: run integration tests through deploy/test.sh");
  }
  return dsn;
}

}  // namespace

std::string TestDatabase::DsnFor(const std::string& database) {
  // Key/value DSNs: a later dbname= overrides an earlier one. URIs are turned into that form.
  std::string dsn = ServerDsn();
  if (dsn.rfind("postgres", 0) == 0) {
    pqxx::connection probe(dsn);
    return "host=" + std::string(probe.hostname()) + " port=" + std::string(probe.port()) +
           " user=" + std::string(probe.username()) + " dbname=" + database;
  }
  return dsn + " dbname=" + database;
}

TestDatabase::TestDatabase(const std::string& tag) {
  static std::atomic<int> counter{0};
  name_ = "lqe_test_" + tag + "_" + std::to_string(getpid()) + "_" + std::to_string(counter++);
  pqxx::connection admin(ServerDsn());
  pqxx::nontransaction tx(admin);
  tx.exec("DROP DATABASE IF EXISTS " + tx.quote_name(name_));
  tx.exec("CREATE DATABASE " + tx.quote_name(name_));
  dsn_ = DsnFor(name_);
}

TestDatabase::~TestDatabase() {
  try {
    pqxx::connection admin(ServerDsn());
    pqxx::nontransaction tx(admin);
    tx.exec("DROP DATABASE IF EXISTS " + tx.quote_name(name_) + " WITH (FORCE)");
  } catch (...) {  // NOLINT(bugprone-empty-catch): best effort; the cluster is thrown away anyway
  }
}

std::string SourcePath(const std::string& relative) {
  return std::string(LQE_SOURCE_DIR) + "/" + relative;
}

std::string ReadFileText(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

std::string LqeBinary() {
  return std::string(LQE_BINARY_DIR) + "/lqe";
}

int TestDatabase::ActiveQueries(const std::string& fragment) const {
  pqxx::connection c(dsn_);
  pqxx::nontransaction tx(c);
  return tx
      .exec1(
          "SELECT count(*) FROM pg_stat_activity WHERE datname = current_database() AND "
          "state = 'active' AND pid <> pg_backend_pid() AND position(" +
          tx.quote(fragment) + " in query) > 0")[0]
      .as<int>();
}

int TestDatabase::WaitForActiveQueries(const std::string& fragment, int count) const {
  int seen = -1;
  for (int i = 0; i < 200; ++i) {
    seen = ActiveQueries(fragment);
    if (seen == count) break;
    std::this_thread::sleep_for(std::chrono::milliseconds(25));
  }
  return seen;
}

}  // namespace lqe::testing
