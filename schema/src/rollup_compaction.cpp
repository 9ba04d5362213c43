#include "lqe/schema/rollup_compaction.h"

#include "pg_conn.h"

namespace lqe::schema {

EdgeRollupCompactor::EdgeRollupCompactor(std::string dsn) : dsn_(std::move(dsn)) {}

EdgeRollupCompactor::~EdgeRollupCompactor() = default;

std::int64_t EdgeRollupCompactor::Compact() {
  try {
    if (!conn_) conn_ = std::make_unique<PgConn>(dsn_);
    // Read-write even for a role whose sessions default to read only (the gateway's): folding
    // changes no answer, and a read-only gateway over a database filled by SQL must keep the
    // delta small too.
    conn_->Exec("BEGIN READ WRITE");
    const PgResult result =
        conn_->Exec("SELECT logs.compact_edge_rollups() + logs.compact_source_minute_counts()");
    conn_->Exec("COMMIT");
    return std::stoll(result.Text(0, 0));
  } catch (...) {
    conn_.reset();  // a broken connection is not reused; the next call connects again
    throw;
  }
}

}  // namespace lqe::schema
