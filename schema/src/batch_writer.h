// Writes one batch in one transaction: partitions, duplicate check, catalogue changes, COPY.
#pragma once

#include <cstdint>
#include <set>
#include <string>
#include <vector>

#include "load_batch.h"
#include "pg_conn.h"

namespace lqe::schema {

class BatchWriter {
 public:
  BatchWriter(PgConn& conn, std::string source);

  struct Result {
    std::int64_t loaded = 0;
    std::int64_t duplicates = 0;
  };
  // Throws PgError; the batch's transaction is then rolled back by the server.
  Result Write(Batch& batch);

 private:
  void EnsurePartitions(const Batch& batch);
  std::vector<bool> FindDuplicates(Batch& batch);
  void WriteCatalogueChanges(const Batch& batch);

  PgConn& conn_;
  std::string source_;
  std::string table_;
  std::set<std::int64_t> known_days_;
};

}  // namespace lqe::schema
