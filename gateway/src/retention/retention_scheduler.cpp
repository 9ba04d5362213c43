#include <spdlog/spdlog.h>

#include <algorithm>
#include <chrono>
#include <map>
#include <pqxx/pqxx>
#include <set>

#include "lqe/gateway/retention.h"
#include "lqe/schema/partitions.h"

namespace lqe::gateway {
namespace {

// Any other pass on this database (another gateway's) waits for nothing: it skips.
constexpr const char* kLockKey = "lqe.retention";

struct Partition {
  std::string table;  // parent: "edge"
  std::string name;   // "edge_p20260101"
  int day = 0;        // days since 1970-01-01
  std::int64_t bytes = 0;
};

std::vector<Partition> LocalPartitions(pqxx::work& tx) {
  // Day partitions of the log tables (parents partitioned by range, named <table>_pYYYYMMDD),
  // oldest first. Foreign partitions (shard nodes) are not local bytes.
  auto rows = tx.exec(
      "SELECT parent.relname, child.relname,"
      " to_date(right(child.relname, 8), 'YYYYMMDD') - date '1970-01-01',"
      " pg_total_relation_size(child.oid)"
      " FROM pg_inherits i JOIN pg_class child ON child.oid = i.inhrelid"
      " JOIN pg_class parent ON parent.oid = i.inhparent"
      " JOIN pg_namespace n ON n.oid = parent.relnamespace"
      " WHERE n.nspname = 'logs' AND parent.relkind = 'p' AND child.relkind = 'r'"
      " AND child.relname ~ ('^' || parent.relname || '_p[0-9]{8}$')"
      " ORDER BY 3, 1");
  std::vector<Partition> out;
  for (const auto& row : rows) {
    out.push_back(Partition{row[0].as<std::string>(), row[1].as<std::string>(), row[2].as<int>(),
                            row[3].as<std::int64_t>()});
  }
  return out;
}

std::vector<std::string> LogTables(pqxx::work& tx) {
  std::vector<std::string> out;
  for (const auto& row :
       tx.exec("SELECT c.relname FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace"
               " WHERE n.nspname = 'logs' AND c.relkind = 'p' ORDER BY 1")) {
    out.push_back(row[0].as<std::string>());
  }
  return out;
}

std::vector<SourceUsage> Usage(const std::vector<std::string>& tables,
                               const std::vector<Partition>& partitions) {
  std::map<std::string, SourceUsage> by_table;
  for (const auto& t : tables) by_table[t] = SourceUsage{t, 0, -1};
  for (const auto& p : partitions) {
    SourceUsage& u = by_table[p.table];
    u.source = p.table;
    u.bytes += p.bytes;
    std::int64_t start = static_cast<std::int64_t>(p.day) * 86400;
    if (u.oldest_day_unix < 0 || start < u.oldest_day_unix) u.oldest_day_unix = start;
  }
  std::vector<SourceUsage> out;
  out.reserve(by_table.size());
  for (auto& [table, u] : by_table) out.push_back(std::move(u));
  return out;
}

int Today(pqxx::work& tx) {
  return tx.exec("SELECT (now() AT TIME ZONE 'UTC')::date - date '1970-01-01'")[0][0].as<int>();
}

}  // namespace

RetentionPass RunRetentionPass(pqxx::connection& conn, const RetentionConfig& config, bool drop) {
  RetentionPass pass;
  if (!drop) {
    pqxx::work tx(conn);
    pass.usage = Usage(LogTables(tx), LocalPartitions(tx));
    return pass;
  }
  {
    pqxx::work tx(conn);
    if (!tx.exec_params("SELECT pg_try_advisory_xact_lock(hashtext($1))", kLockKey)[0][0]
             .as<bool>()) {
      pass.locked = false;
      return pass;
    }
    const int today = Today(tx);
    std::vector<Partition> partitions = LocalPartitions(tx);
    std::set<std::string> gone;
    auto drop_partition = [&](const Partition& p) {
      tx.exec("DROP TABLE IF EXISTS logs." + tx.quote_name(p.name));
      // The histogram's counts of that day go with it (024_source_minute_counts.sql).
      tx.exec_params(
          "SELECT logs.forget_minute_counts($1, date '1970-01-01' + $2::int, "
          "date '1970-01-01' + $2::int)",
          p.table, p.day);
      gone.insert(p.name);
      pass.dropped.push_back(p.name);
    };
    // By age: each table's days before today - days.
    for (const Partition& p : partitions) {
      if (p.day < today - config.DaysFor(p.table)) drop_partition(p);
    }
    // By size: whole days, oldest first, never today or later.
    if (config.max_disk_bytes > 0) {
      std::int64_t total = 0;
      for (const Partition& p : partitions) {
        if (!gone.contains(p.name)) total += p.bytes;
      }
      for (std::size_t i = 0;
           i < partitions.size() && total > static_cast<std::int64_t>(config.max_disk_bytes);) {
        int day = partitions[i].day;
        if (day >= today) break;
        for (; i < partitions.size() && partitions[i].day == day; ++i) {
          if (gone.contains(partitions[i].name)) continue;
          total -= partitions[i].bytes;
          drop_partition(partitions[i]);
        }
      }
    }
    // The edge rollups keep no day the edge table no longer has.
    int edge_cutoff = today - config.DaysFor("edge");
    for (const Partition& p : partitions) {
      if (p.table == "edge" && gone.contains(p.name)) {
        edge_cutoff = std::max(edge_cutoff, p.day + 1);
      }
    }
    tx.exec_params("SELECT logs.drop_rollups_before(date '1970-01-01' + $1::int)", edge_cutoff);
    tx.commit();
  }
  pass.created = schema::EnsurePartitionsAroundToday(conn, 0, config.ahead_days);
  pqxx::work tx(conn);
  pass.usage = Usage(LogTables(tx), LocalPartitions(tx));
  return pass;
}

RetentionScheduler::RetentionScheduler(std::function<std::shared_ptr<const Config>()> config,
                                       OperationsMetrics* metrics)
    : config_(std::move(config)), metrics_(metrics) {}

RetentionScheduler::~RetentionScheduler() {
  Stop();
}

void RetentionScheduler::Start() {
  thread_ = std::thread([this] { Loop(); });
}

void RetentionScheduler::Stop() {
  {
    std::lock_guard lock(mutex_);
    stopping_ = true;
  }
  wake_.notify_all();
  if (thread_.joinable()) thread_.join();
}

void RetentionScheduler::Loop() {
  for (;;) {
    Pass();
    auto config = config_();
    std::unique_lock lock(mutex_);
    if (wake_.wait_for(lock, std::chrono::seconds(config->retention.interval_seconds),
                       [this] { return stopping_; })) {
      return;
    }
  }
}

void RetentionScheduler::Pass() {
  auto config = config_();
  const RetentionConfig& r = config->retention;
  bool drop = r.enabled();
  try {
    pqxx::connection conn(drop ? r.dsn : config->dsn);
    RetentionPass pass = RunRetentionPass(conn, r, drop);
    if (drop && !pass.locked) {
      spdlog::info("retention: another gateway is running a pass; skipped");
    } else if (drop) {
      for (const auto& name : pass.dropped) spdlog::info("retention: dropped logs.{}", name);
      spdlog::info("retention: {} partitions dropped, {} created", pass.dropped.size(),
                   pass.created.size());
      metrics_->CountRetentionRun(true, pass.dropped.size());
    }
    if (pass.locked) metrics_->SetSourceUsage(std::move(pass.usage));
  } catch (const std::exception& e) {
    spdlog::error("retention: pass failed: {}", e.what());
    if (drop) metrics_->CountRetentionRun(false, 0);
  }
}

}  // namespace lqe::gateway
