// Runs every record of tests/sqllogic/*.test end to end: translate, execute on the real cluster
// over the fixtures, compare with the hand-written rows (or the expected error).
#include <gtest/gtest.h>

#include <algorithm>
#include <regex>

#include "sqllogic/corpus.h"
#include "sqllogic/migrations.h"
#include "support/test_database.h"

namespace {

using lqe::sqllogic::Record;

// One test per .test file (each test process sets up its database once); every record that
// fails is reported with its file:line and name.
class Corpus : public ::testing::TestWithParam<std::string> {
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

void Check(const Record& r, const std::string& dsn) {
  const auto outcome = lqe::sqllogic::Run(r, dsn);
  if (r.expect_error) {
    EXPECT_FALSE(outcome.ok) << Where(r) << ": expected an error, got rows\n" << outcome.pg_sql;
    EXPECT_TRUE(std::regex_search(outcome.error, std::regex(r.error_regex)))
        << Where(r) << ": error '" << outcome.error << "' does not match /" << r.error_regex << "/";
    return;
  }
  if (!outcome.ok) {
    ADD_FAILURE() << Where(r) << ": " << outcome.error << "\n" << outcome.pg_sql;
    return;
  }
  auto got = outcome.rows;
  auto want = r.rows;
  if (r.rowsort) {
    std::sort(got.begin(), got.end());
    std::sort(want.begin(), want.end());
  }
  EXPECT_EQ(got, want) << Where(r) << "\n" << outcome.pg_sql;
}

TEST_P(Corpus, File) {
  int count = 0;
  for (const auto& record : lqe::sqllogic::ReadCorpus()) {
    if (record.file == GetParam()) {
      Check(record, db_->dsn());
      ++count;
    }
  }
  EXPECT_GT(count, 0) << GetParam() << " has no records";
}

std::vector<std::string> CorpusFiles() {
  std::vector<std::string> files;
  for (const auto& record : lqe::sqllogic::ReadCorpus()) {
    if (files.empty() || files.back() != record.file) {
      files.push_back(record.file);
    }
  }
  return files;
}

std::string FileName(const ::testing::TestParamInfo<std::string>& info) {
  return info.param.substr(0, info.param.find('.'));
}

INSTANTIATE_TEST_SUITE_P(Sqllogic, Corpus, ::testing::ValuesIn(CorpusFiles()), FileName);

TEST(CorpusSize, AtLeastFortyConsumerQueriesAndBothStoredQueries) {
  int consumer = 0;
  int stored = 0;
  for (const auto& record : lqe::sqllogic::ReadCorpus()) {
    consumer += record.sandbox.empty() ? 0 : 1;
    stored += record.endpoint == "logs.all" ? 1 : 0;
  }
  EXPECT_GE(consumer, 40);
  EXPECT_GE(stored, 1);
}

}  // namespace
