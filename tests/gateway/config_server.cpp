#include "config_server.h"

#include <boost/json/parse.hpp>
#include <boost/url/encode.hpp>
#include <boost/url/rfc/unreserved_chars.hpp>
#include <ctime>
#include <pqxx/pqxx>

#include "lqe/schema/migrate.h"

namespace lqe::gateway::testing {

std::string IsoSeconds(std::chrono::system_clock::time_point t) {
  std::time_t seconds = std::chrono::system_clock::to_time_t(t);
  std::tm tm{};
  gmtime_r(&seconds, &tm);
  char buf[64];
  std::strftime(buf, sizeof(buf), "%Y-%m-%dT%H:%M:%SZ", &tm);
  return buf;
}

std::string UrlEncode(const std::string& text) {
  return boost::urls::encode(text, boost::urls::unreserved_chars);
}

std::string DsnAsRole(const std::string& dsn, const std::string& role) {
  std::string out = dsn;
  if (auto user = out.find("user=postgres"); user != std::string::npos) {
    out.replace(user, 13, "user=" + role);
  }
  return out;
}

std::string ServerYaml(const std::string& dsn) {
  return "listen: 127.0.0.1:0\naccess_log: false\ndatabase:\n  dsn: " + dsn + "\n  pool_size: 2\n";
}

std::string CatalogueYaml() {
  return "catalogue_file: " + lqe::testing::SourcePath("schema/catalogue_seed.tsv") + "\n";
}

std::string ShippedEndpointsYaml() {
  return "endpoints_dir: " + lqe::testing::SourcePath("sql") + "\n";
}

std::string IngestSourcesYaml(const std::string& auth_id) {
  return "sources:\n  - {name: gotrue.logs.prod, " +
         (auth_id.empty() ? "" : "id: " + auth_id + ", ") +
         "table: auth}\n  - {name: cloudflare.logs.prod, table: edge}\n"
         "  - {name: postgres.logs, table: postgres}\n";
}

std::string ApiKeyYaml(const std::string& name, const std::string& key,
                       const std::string& endpoints, const std::string& ingest) {
  return "  - {name: " + name + ", sha256: " + Sha256Hex(key) + ", endpoints: " + endpoints +
         (ingest.empty() ? "" : ", ingest: " + ingest) + "}\n";
}

std::string ConfigServer::Start(const std::string& config_path) {
  std::string error;
  auto state = BuildState(config_path, metrics_.get(), &error);
  if (state == nullptr) return "config refused: " + error;
  server_ = std::make_unique<Server>(config_path, state, metrics_);
  error = server_->Bind();
  if (!error.empty()) {
    server_.reset();
    return error;
  }
  thread_ = std::thread([this] { server_->Run(false); });
  return "";
}

void ConfigServer::Stop() {
  if (!server_) return;
  server_->Stop();
  thread_.join();
  server_.reset();
}

void ConfigServerTest::SetUp() {
  MigrateDatabase();
  if (const std::string yaml = Config(); !yaml.empty()) Serve(yaml);
}

void ConfigServerTest::MigrateDatabase(int partition_days_back,
                                       const std::optional<std::string>& gateway_role) const {
  pqxx::connection conn(db_.dsn());
  schema::MigrateOptions options;
  options.partition_days_back = partition_days_back;
  options.gateway_role = gateway_role;
  schema::Migrate(conn, options);
}

std::string ConfigServerTest::OneKeyYaml(const std::string& key_name) const {
  return ServerYaml(QueryDsn()) + "ingest:\n  dsn: " + WriterDsn() + "\napi_keys:\n" +
         ApiKeyYaml(key_name, key_, "['*']", "['*']") + ShippedEndpointsYaml();
}

void ConfigServerTest::Serve(const std::string& yaml) {
  ASSERT_EQ(server_.Start(dir_.Write("gw.yaml", yaml)), "");
}

HttpResult ConfigServerTest::PostEvents(const std::string& source_name,
                                        const std::string& events) const {
  return Fetch(Port(), "/api/logs?source_name=" + source_name,
               {{"x-api-key", key_}, {"Content-Type", "application/json"}}, "POST", events);
}

void ConfigServerTest::Ingest(const std::string& source_name, const std::string& events) const {
  HttpResult r = PostEvents(source_name, events);
  ASSERT_EQ(r.status, 200) << source_name << ": " << r.body;
}

HttpResult ConfigServerTest::GetEndpoint(const std::string& endpoint,
                                         const std::string& params) const {
  return Fetch(Port(), "/api/endpoints/query/" + endpoint + "?" + params, {{"x-api-key", key_}});
}

boost::json::array ConfigServerTest::ResultRows(const HttpResult& r, const std::string& what) {
  EXPECT_EQ(r.status, 200) << what << "\n" << r.body;
  if (r.status != 200) return {};
  return boost::json::parse(r.body).at("result").as_array();
}

std::string ConfigServerTest::LastHourWindow() {
  const auto now = std::chrono::system_clock::now();
  return "iso_timestamp_start=" + IsoSeconds(now - std::chrono::hours(1)) +
         "&iso_timestamp_end=" + IsoSeconds(now + std::chrono::minutes(1));
}

boost::json::array ConfigServerTest::SqlRows(const std::string& endpoint,
                                             const std::string& project,
                                             const std::string& sql) const {
  return ResultRows(GetEndpoint(endpoint, "project=" + project + "&" + LastHourWindow() +
                                              "&sql=" + UrlEncode(sql)),
                    sql);
}

std::string ConfigServerTest::MetricsText() const {
  return Fetch(Port(), "/metrics").body;
}

std::string ConfigServerTest::One(const std::string& sql) const {
  pqxx::connection conn(db_.dsn());
  pqxx::work tx(conn);
  auto row = tx.exec1(sql);
  return row[0].is_null() ? "<null>" : row[0].c_str();
}

std::int64_t ConfigServerTest::Count(const std::string& table, const std::string& where) const {
  return std::stoll(One("SELECT count(*) FROM logs." + table + " WHERE " + where));
}

}  // namespace lqe::gateway::testing
