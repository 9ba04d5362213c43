// Which SQLSTATE is whose fault: the class table behind every query failure's HTTP status.
#include <gtest/gtest.h>

#include "lqe/gateway/metrics.h"
#include "lqe/gateway/pg_pool.h"

namespace lqe::gateway {
namespace {

TEST(QueryStatusTest, SqlStateClasses) {
  struct Case {
    const char* state;
    QueryStatus status;
  };
  for (const Case& c : std::vector<Case>{
           {"57014", QueryStatus::kTimeout},        // query_canceled (statement_timeout)
           {"08006", QueryStatus::kUnavailable},    // connection_failure
           {"08001", QueryStatus::kUnavailable},    // cannot connect
           {"57P01", QueryStatus::kUnavailable},    // admin_shutdown
           {"57P02", QueryStatus::kUnavailable},    // crash_shutdown
           {"57P03", QueryStatus::kUnavailable},    // cannot_connect_now
           {"53300", QueryStatus::kUnavailable},    // too_many_connections
           {"40001", QueryStatus::kUnavailable},    // serialization_failure
           {"40P01", QueryStatus::kUnavailable},    // deadlock_detected
           {"55P03", QueryStatus::kUnavailable},    // lock_not_available
           {"58030", QueryStatus::kUnavailable},    // io_error
           {"22012", QueryStatus::kBadQuery},       // division_by_zero
           {"22P02", QueryStatus::kBadQuery},       // invalid_text_representation
           {"2201B", QueryStatus::kBadQuery},       // invalid_regular_expression
           {"2202E", QueryStatus::kBadQuery},       // array_subscript_error (bq helpers)
           {"21000", QueryStatus::kBadQuery},       // cardinality_violation
           {"P0001", QueryStatus::kBadQuery},       // raise_exception
           {"53100", QueryStatus::kTooExpensive},   // disk_full (temp_file_limit)
           {"53200", QueryStatus::kTooExpensive},   // out_of_memory
           {"53400", QueryStatus::kTooExpensive},   // configuration_limit_exceeded
           {"54000", QueryStatus::kTooExpensive},   // program_limit_exceeded
           {"54001", QueryStatus::kTooExpensive},   // statement_too_complex
           {"42601", QueryStatus::kTranslatorBug},  // syntax_error
           {"42883", QueryStatus::kTranslatorBug},  // undefined_function
           {"42702", QueryStatus::kTranslatorBug},  // ambiguous_column
           {"42804", QueryStatus::kTranslatorBug},  // datatype_mismatch
           {"42501", QueryStatus::kTranslatorBug},  // insufficient_privilege
           {"0A000", QueryStatus::kTranslatorBug},  // feature_not_supported
           {"25006", QueryStatus::kFailed},         // read_only_sql_transaction
           {"XX000", QueryStatus::kFailed},         // internal_error
       }) {
    EXPECT_EQ(ClassifySqlState(c.state), c.status) << c.state;
  }
}

TEST(QueryStatusTest, EveryStatusLqeSendsHasItsOwnCounter) {
  Metrics metrics;
  auto e = metrics.ForEndpoint("e");
  for (int status : {429, 501, 503, 504, 499}) e->Count(status);
  std::string text = metrics.Render({}, 0, 0);
  for (const char* status : {"429", "501", "503", "504", "other"}) {
    EXPECT_NE(
        text.find(std::string("lqe_requests_total{endpoint=\"e\",status=\"") + status + "\"} 1\n"),
        std::string::npos)
        << status << "\n"
        << text;
  }
}

}  // namespace
}  // namespace lqe::gateway
