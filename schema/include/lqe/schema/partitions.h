// Daily partitions of the log tables (the SQL side lives in migrations/004_partitions.sql).
#pragma once

#include <pqxx/connection>
#include <string>
#include <vector>

namespace lqe::schema {

// Creates partitions of every log table for today-days_back .. today+days_ahead (UTC).
// Returns the names created (already existing ones are skipped).
std::vector<std::string> EnsurePartitionsAroundToday(pqxx::connection& conn, int days_back,
                                                     int days_ahead);

// Drops every partition whose whole day is older than `days` days before today (UTC), i.e.
// days before today-days. Returns the dropped names.
std::vector<std::string> DropPartitionsOlderThan(pqxx::connection& conn, int days);

}  // namespace lqe::schema
