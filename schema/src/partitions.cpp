#include "lqe/schema/partitions.h"

#include <pqxx/pqxx>

namespace lqe::schema {
namespace {

std::vector<std::string> Names(const pqxx::result& result) {
  std::vector<std::string> out;
  out.reserve(result.size());
  for (const auto& row : result) out.push_back(row[0].as<std::string>());
  return out;
}

}  // namespace

std::vector<std::string> EnsurePartitionsAroundToday(pqxx::connection& conn, int days_back,
                                                     int days_ahead) {
  pqxx::work tx(conn);
  const auto result = tx.exec_params(
      "SELECT logs.ensure_partitions((now() AT TIME ZONE 'UTC')::date - $1::int,"
      " (now() AT TIME ZONE 'UTC')::date + $2::int)",
      days_back, days_ahead);
  tx.commit();
  return Names(result);
}

std::vector<std::string> DropPartitionsOlderThan(pqxx::connection& conn, int days) {
  pqxx::work tx(conn);
  const auto result = tx.exec_params(
      "SELECT logs.drop_partitions_before((now() AT TIME ZONE 'UTC')::date - $1::int)", days);
  // The rollups and minute counts of the dropped days go in the same transaction (005, 024).
  tx.exec_params("SELECT logs.drop_rollups_before((now() AT TIME ZONE 'UTC')::date - $1::int)",
                 days);
  tx.exec_params(
      "SELECT logs.forget_minute_counts(NULL, NULL,"
      " (now() AT TIME ZONE 'UTC')::date - $1::int - 1)",
      days);
  tx.commit();
  return Names(result);
}

}  // namespace lqe::schema
