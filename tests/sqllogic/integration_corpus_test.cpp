// Runs every record of tests/sqllogic/*.test end to end: translate, execute on the real cluster
// over the fixtures, compare with the hand-written rows (or the expected error).
#include <gtest/gtest.h>

#include <algorithm>
#include <ostream>
#include <regex>

#include "sqllogic/corpus.h"
#include "sqllogic/migrations.h"
#include "support/test_database.h"

namespace lqe::sqllogic {

// Names the record in gtest's failure lines instead of dumping its bytes.
void PrintTo(const Record& r, std::ostream* os) {
  *os << r.file << ":" << r.line << " " << r.name;
}

}  // namespace lqe::sqllogic

namespace {

using lqe::sqllogic::Record;

class Corpus : public ::testing::TestWithParam<Record> {
 protected:
  static void SetUpTestSuite() {
    db_ = new lqe::testing::TestDatabase("corpus");
    lqe::sqllogic::ApplyMigrations(db_->dsn());
    lqe::sqllogic::LoadFixtures(db_->dsn());
  }
  static void TearDownTestSuite() { delete db_; }
  static lqe::testing::TestDatabase* db_;
};

lqe::testing::TestDatabase* Corpus::db_ = nullptr;

std::string Where(const Record& r) {
  return r.file + ":" + std::to_string(r.line) + " " + r.name;
}

TEST_P(Corpus, Record) {
  const Record& r = GetParam();
  const auto outcome = lqe::sqllogic::Run(r, db_->dsn());
  if (r.expect_error) {
    EXPECT_FALSE(outcome.ok) << Where(r) << ": expected an error, got rows\n" << outcome.pg_sql;
    EXPECT_TRUE(std::regex_search(outcome.error, std::regex(r.error_regex)))
        << Where(r) << ": error '" << outcome.error << "' does not match /" << r.error_regex << "/";
    return;
  }
  ASSERT_TRUE(outcome.ok) << Where(r) << ": " << outcome.error << "\n" << outcome.pg_sql;
  auto got = outcome.rows;
  auto want = r.rows;
  if (r.rowsort) {
    std::sort(got.begin(), got.end());
    std::sort(want.begin(), want.end());
  }
  EXPECT_EQ(got, want) << Where(r) << "\n" << outcome.pg_sql;
}

std::string RecordName(const ::testing::TestParamInfo<Record>& info) {
  std::string name = info.param.file.substr(0, info.param.file.find('.')) + "_" + info.param.name;
  std::replace_if(
      name.begin(), name.end(), [](char c) { return !std::isalnum(c) && c != '_'; }, '_');
  return name;
}

INSTANTIATE_TEST_SUITE_P(Sqllogic, Corpus, ::testing::ValuesIn(lqe::sqllogic::ReadCorpus()),
                         RecordName);

}  // namespace
