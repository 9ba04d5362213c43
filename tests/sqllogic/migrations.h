// Database setup for the corpus: migrations (lqe migrate when the binary is built, else the
// migration files in order) and the hand-designed fixtures of tests/fixtures/*.ndjson.
#pragma once

#include <string>

namespace lqe::sqllogic {

void ApplyMigrations(const std::string& dsn);
// Inserts every tests/fixtures/<source>.ndjson into logs.<source> (partitions created first).
void LoadFixtures(const std::string& dsn);

}  // namespace lqe::sqllogic
