// IngestService::EnsureSource: sources OTLP ingest creates for a service.name that names none.
#include <spdlog/spdlog.h>

#include <pqxx/pqxx>

#include "lqe/gateway/auth.h"
#include "lqe/gateway/ingest.h"
#include "lqe/gateway/pg_pool.h"

namespace lqe::gateway {
namespace {

// Long enough for every gateway's configuration snapshot to list a new source (they reload
// within a second), short enough that a deleted one is not written to for long.
constexpr std::chrono::seconds kRemembered{10};

// PostgreSQL's message without its "ERROR:" prefix and the lines after the first.
std::string FirstLine(const std::exception& e) {
  std::string message = e.what();
  if (auto end = message.find('\n'); end != std::string::npos) message.resize(end);
  if (message.rfind("ERROR:  ", 0) == 0) message.erase(0, 8);
  return message;
}

}  // namespace

std::variant<IngestSource, IngestService::SourceRefusal> IngestService::EnsureSource(
    const std::string& name, const ApiKey& key) {
  const auto now = std::chrono::steady_clock::now();
  {
    std::lock_guard lock(created_mutex_);
    if (auto it = created_.find(name); it != created_.end() && now - it->second.at < kRemembered) {
      return it->second.source;
    }
  }
  try {
    pqxx::connection conn(DsnWithConnectTimeout(dsn_, 2000));
    pqxx::work tx(conn);
    auto row = tx.exec_params1("SELECT token, log_table FROM logs.ensure_source($1, $2, $3)", name,
                               key.name, HexEncode(key.sha256.data(), 8));
    tx.commit();
    if (row[1].is_null()) {
      return SourceRefusal{400, "source " + name +
                                    " is declared by lqe but this gateway's configuration does "
                                    "not ingest it"};
    }
    IngestSource source{name, row[0].as<std::string>(), row[1].as<std::string>()};
    std::lock_guard lock(created_mutex_);
    created_[name] = Created{source, now};
    return source;
  } catch (const pqxx::broken_connection& e) {
    spdlog::warn("ingest: cannot create source {}: {}", name, e.what());
    return SourceRefusal{503, "the database is unreachable; try again"};
  } catch (const pqxx::sql_error& e) {
    const std::string& state = e.sqlstate();
    if (state == "54000") return SourceRefusal{422, FirstLine(e)};
    if (state.rfind("22", 0) == 0) {
      return SourceRefusal{400, "service.name cannot name a source: " + FirstLine(e)};
    }
    if (state == "42883" || state == "42501") {
      return SourceRefusal{503,
                           "the ingest role may not create sources: run lqe migrate (it grants "
                           "logs.ensure_source)"};
    }
    spdlog::error("ingest: cannot create source {}: {} ({})", name, e.what(), state);
    return SourceRefusal{503, "the source could not be created; try again"};
  } catch (const std::exception& e) {
    spdlog::error("ingest: cannot create source {}: {}", name, e.what());
    return SourceRefusal{503, "the source could not be created; try again"};
  }
}

}  // namespace lqe::gateway
