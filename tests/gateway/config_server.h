// A gateway run in-process from a YAML config file, as `lqe serve --config` runs it: the state
// built from the file, the server bound to a free port and run on a thread. ConfigServerTest adds
// what the HTTP-level suites share around it: a migrated test database, the config's common
// parts, and the requests they send (events to ingest, SQL through an endpoint, /metrics).
#pragma once

#include <gtest/gtest.h>

#include <boost/json/array.hpp>
#include <chrono>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <thread>
#include <utility>

#include "http_client.h"
#include "lqe/gateway/server.h"
#include "support.h"
#include "support/test_database.h"

namespace lqe::gateway::testing {

// "2026-01-02T03:04:05Z": the whole second of `t`, as Studio writes a time window.
std::string IsoSeconds(std::chrono::system_clock::time_point t);
// `text` percent-encoded for a query string.
std::string UrlEncode(const std::string& text);

// `dsn` logged in as `role` instead of the superuser ("user=postgres").
std::string DsnAsRole(const std::string& dsn, const std::string& role);

// The head of a test config: an ephemeral port, no access log, `dsn` with a pool of two.
std::string ServerYaml(const std::string& dsn);
// catalogue_file: the seed of this checkout.
std::string CatalogueYaml();
// endpoints_dir: the endpoints shipped in sql/.
std::string ShippedEndpointsYaml();
// The sources of the ingest suites: gotrue.logs.prod (auth, with `auth_id` when given),
// cloudflare.logs.prod (edge) and postgres.logs (postgres).
std::string IngestSourcesYaml(const std::string& auth_id = "");
// One entry of api_keys, `key` stored as its SHA-256. `endpoints` and `ingest` are YAML lists
// ("['*']", "[]"); no ingest entry when `ingest` is empty.
std::string ApiKeyYaml(const std::string& name, const std::string& key,
                       const std::string& endpoints, const std::string& ingest = "");

class ConfigServer {
 public:
  ConfigServer() = default;
  ~ConfigServer() { Stop(); }
  ConfigServer(const ConfigServer&) = delete;
  ConfigServer& operator=(const ConfigServer&) = delete;

  // Builds the state from `config_path`, binds and runs the server; "" or why it cannot run.
  std::string Start(const std::string& config_path);
  // Stops the server and waits for its thread; nothing when none runs.
  void Stop();
  unsigned short port() const { return server_->port(); }

 private:
  std::shared_ptr<Metrics> metrics_ = std::make_shared<Metrics>();
  std::unique_ptr<Server> server_;
  std::thread thread_;
};

class ConfigServerTest : public ::testing::Test {
 protected:
  // `database_tag` names the test database; `key` is the API key the requests below send.
  explicit ConfigServerTest(const std::string& database_tag, std::string key = kTestKey)
      : db_(database_tag), key_(std::move(key)) {}

  // Migrates the test database with two days of partitions back, then serves Config() when a
  // suite gives one (the others call Serve themselves).
  void SetUp() override;
  void TearDown() override { Stop(); }
  virtual std::string Config() const { return ""; }

  void MigrateDatabase(int partition_days_back = 2,
                       const std::optional<std::string>& gateway_role = std::nullopt) const;
  std::string DsnAs(const std::string& role) const { return DsnAsRole(db_.dsn(), role); }
  std::string QueryDsn() const { return DsnAs("lqe_gateway_" + db_.name()); }
  std::string WriterDsn() const { return DsnAs("lqe_ingest_" + db_.name()); }
  // The default sources, the query and writer roles, the fixture's key for every endpoint and
  // source, and the shipped endpoints.
  std::string OneKeyYaml(const std::string& key_name) const;

  // Writes `yaml` as gw.yaml and runs a server from it; a fatal failure when it cannot run.
  void Serve(const std::string& yaml);
  void Stop() { server_.Stop(); }
  unsigned short Port() const { return server_.port(); }

  // POST /api/logs?source_name=<source_name> with the JSON `events`.
  HttpResult PostEvents(const std::string& source_name, const std::string& events) const;
  // The same, failing the test unless it is stored (200).
  void Ingest(const std::string& source_name, const std::string& events) const;
  // GET /api/endpoints/query/<endpoint>?<params>.
  HttpResult GetEndpoint(const std::string& endpoint, const std::string& params) const;
  // The rows of a 200 answer's `result`; a failure naming `what` otherwise.
  static boost::json::array ResultRows(const HttpResult& r, const std::string& what);
  // The window Studio sends with its SQL: the last hour until a minute ahead.
  static std::string LastHourWindow();
  // The rows of `sql` run through `endpoint` for `project` over LastHourWindow().
  boost::json::array SqlRows(const std::string& endpoint, const std::string& project,
                             const std::string& sql) const;
  std::string MetricsText() const;

  // The first column of the one row of `sql` as the superuser ("<null>" for NULL).
  std::string One(const std::string& sql) const;
  std::int64_t Count(const std::string& table, const std::string& where = "true") const;

  lqe::testing::TestDatabase db_;
  TempDir dir_;

 private:
  std::string key_;
  ConfigServer server_;
};

}  // namespace lqe::gateway::testing
