#include "lql_pg_fixture.h"

#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <pqxx/pqxx>
#include <sstream>
#include <stdexcept>

#include "lqe/translate.h"

namespace lqe::testing::lql {
namespace {

std::string ReadFile(const std::string& path) {
  std::ifstream in(path);
  if (!in) {
    throw std::runtime_error("cannot read " + path);
  }
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

void Migrate(const std::string& dsn) {
  const std::string lqe = LqeBinary();
  if (access(lqe.c_str(), X_OK) == 0) {
    const std::string command =
        "'" + lqe + "' migrate --gateway-role lqe_gateway --dsn '" + dsn + "' >/dev/null";
    if (std::system(command.c_str()) != 0) {  // NOLINT(cert-env33-c): test-only, fixed args
      throw std::runtime_error("lqe migrate failed: " + command);
    }
    return;
  }
  std::vector<std::filesystem::path> files;
  for (const auto& e : std::filesystem::directory_iterator(SourcePath("schema/migrations"))) {
    if (e.path().extension() == ".sql") {
      files.push_back(e.path());
    }
  }
  std::sort(files.begin(), files.end());
  pqxx::connection conn(dsn);
  for (const auto& file : files) {
    pqxx::work tx(conn);
    tx.exec(ReadFile(file.string()));
    tx.commit();
  }
}

std::string Json(const std::string& s) {
  std::string out = "\"";
  for (const char c : s) {
    if (c == '"' || c == '\\') {
      out += '\\';
    }
    out += c;
  }
  return out + "\"";
}

std::string Timestamp(std::int64_t micros) {
  const std::time_t secs = static_cast<std::time_t>(micros / 1'000'000);
  std::tm tm{};
  gmtime_r(&secs, &tm);
  char buf[40];
  std::strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%SZ", &tm);
  return buf;
}

constexpr const char* kPaths[] = {"/rest/v1/todos", "/auth/v1/token", "/storage/v1/object/a b.png",
                                  "/rest/v1/it's"};
constexpr const char* kLevels[] = {"debug", "info",     "notice", "warning",
                                   "error", "critical", "alert",  "emergency"};

EdgeRow MakeEdge(int i, const std::string& project) {
  EdgeRow r;
  r.id = (project == "p1" ? "e-" : "x-") + std::to_string(i);
  r.project = project;
  r.micros = kBaseMicros + (i * 60LL + i) * 1'000'000;
  r.method = i % 3 == 0 ? "POST" : "GET";
  r.path = kPaths[i % 4];
  if (i % 11 != 0) {
    r.status = i % 10 == 9 ? 500 : i % 10 == 4 ? 404 : 200;
  }
  if (i % 7 != 0) {
    r.verified = i % 2 == 0;
  }
  if (i % 6 != 5) {
    r.detections = {i % 3, i % 5};
  }
  r.message = r.method + " | " + (r.status ? std::to_string(*r.status) : "-") + " | " + r.path +
              (i % 8 == 0 ? " staging error" : "") + (i % 9 == 0 ? " Log 42" : "") +
              (i % 5 == 1 ? " error" : "") + (project == "p1" ? "" : " other-project");
  return r;
}

std::string EdgeMetadata(const EdgeRow& r) {
  std::string bot;
  if (r.verified) {
    bot += "\"verifiedBot\":" + std::string(*r.verified ? "true" : "false");
  }
  if (!r.detections.empty()) {
    bot += std::string(bot.empty() ? "" : ",") + "\"detectionIds\":[" +
           std::to_string(r.detections[0]) + "," + std::to_string(r.detections[1]) + "]";
  }
  std::string m = "{\"request\":{\"method\":" + Json(r.method) + ",\"path\":" + Json(r.path) +
                  ",\"cf\":{\"botManagement\":{" + bot + "}}}";
  if (r.status) {
    m += ",\"response\":{\"status_code\":" + std::to_string(*r.status) + "}";
  }
  return m + "}";
}

}  // namespace

LqlDatabase::LqlDatabase() {
  std::string error;
  catalog_ = Catalog::FromEntries(
      Catalog::ParseTsv(ReadFile(SourcePath("schema/catalogue_seed.tsv")), &error), &error);
  if (!error.empty()) {
    throw std::runtime_error("catalogue: " + error);
  }
  stored_sql_ = ReadFile(SourcePath("sql/logs.all.sql"));
  Migrate(db_.dsn());
  Insert();
}

void LqlDatabase::Insert() {
  for (int i = 0; i < 40; ++i) {
    edge.push_back(MakeEdge(i, "p1"));
  }
  for (int i = 0; i < 5; ++i) {
    edge.push_back(MakeEdge(i, "p2"));
  }
  for (int i = 0; i < 18; ++i) {
    AuthRow r;
    r.project = i < 16 ? "p1" : "p2";
    r.id = "a-" + std::to_string(i);
    r.micros = kBaseMicros + i * 60'000'000LL;
    r.level = i == 15 ? "" : kLevels[i % 8];
    r.args = i % 2 ? std::vector<std::string>{"--verbose", "-v" + std::to_string(i)}
                   : std::vector<std::string>{"run"};
    r.message = "auth event " + std::to_string(i);
    auth.push_back(r);
  }
  for (int i = 0; i < 12; ++i) {
    StorageRow r;
    r.project = i < 10 ? "p1" : "p2";
    r.id = "s-" + std::to_string(i);
    r.micros = kBaseMicros + i * 60'000'000LL;
    if (i != 9) {
      r.response_time = (i % 10) / 10.0;
    }
    r.message = "storage event " + std::to_string(i);
    storage.push_back(r);
  }
  pqxx::connection conn(db_.dsn());
  pqxx::work tx(conn);
  tx.exec("SELECT logs.ensure_partitions('2025-01-14', '2025-01-16')");
  const auto insert = [&](const std::string& table, const std::string& id, std::int64_t micros,
                          const std::string& message, const std::string& project,
                          const std::string& metadata) {
    tx.exec_params("INSERT INTO logs." + table +
                       " (id, \"timestamp\", event_message, project, metadata)"
                       " VALUES ($1, $2::timestamptz, $3, $4, $5::jsonb)",
                   id, Timestamp(micros), message, project, metadata);
  };
  for (const auto& r : edge) {
    insert("edge", r.id, r.micros, r.message, r.project, EdgeMetadata(r));
  }
  for (const auto& r : auth) {
    std::string m = "{\"args\":[";
    for (std::size_t k = 0; k < r.args.size(); ++k) {
      m += (k ? "," : "") + Json(r.args[k]);
    }
    m += "]";
    if (!r.level.empty()) {
      m += ",\"level\":" + Json(r.level);
    }
    insert("auth", r.id, r.micros, r.message, r.project, m + "}");
  }
  for (const auto& r : storage) {
    std::string m = "{\"project\":" + Json(r.project);
    if (r.response_time) {
      char buf[32];
      std::snprintf(buf, sizeof buf, "%.1f", *r.response_time);
      m += ",\"responseTime\":" + std::string(buf);
    }
    insert("storage", r.id, r.micros, r.message, "", m + "}");
  }
  tx.exec("ANALYZE");
  tx.commit();
}

QueryResult LqlDatabase::Run(const std::string& lql,
                             const std::map<std::string, std::string>& params) {
  QueryResult out;
  TranslateOptions options;
  options.catalog = &catalog_;
  for (const char* name : {"project", "iso_timestamp_start", "iso_timestamp_end"}) {
    options.params[name] = Type::Scalar(TypeKind::kString);
  }
  options.consumer = ConsumerQuery{ConsumerQuery::Language::kLql, lql};
  options.now = now;
  const TranslateResult translated = Translate(stored_sql_, options);
  if (!translated.ok()) {
    const Diagnostic& d = translated.error();
    out.error = RenderOneLine(d, d.source == DiagSource::kConsumerLql ? lql : stored_sql_);
    out.error_source = d.source;
    return out;
  }
  out.pg_sql = translated.value().pg_sql;
  std::vector<std::string> values;
  for (const auto& p : translated.value().params) {
    const auto it = params.find(p.name);
    values.push_back(it != params.end() ? it->second : p.name == "project" ? "p1" : "");
  }
  try {
    pqxx::connection conn(db_.dsn());
    pqxx::work tx(conn);
    tx.exec("SET LOCAL TimeZone = 'UTC'; SET LOCAL DateStyle = 'ISO'; SET LOCAL ROLE lqe_gateway");
    const pqxx::result result =
        tx.exec_params(out.pg_sql, pqxx::prepare::make_dynamic_params(values));
    for (pqxx::row::size_type c = 0; c < result.columns(); ++c) {
      out.columns.emplace_back(result.column_name(c));
    }
    for (const auto& row : result) {
      std::vector<std::string> cells;
      for (const auto& field : row) {
        cells.push_back(field.is_null() ? "NULL" : field.c_str());
      }
      out.rows.push_back(std::move(cells));
    }
  } catch (const std::exception& e) {
    out.error = e.what();
  }
  return out;
}

}  // namespace lqe::testing::lql
