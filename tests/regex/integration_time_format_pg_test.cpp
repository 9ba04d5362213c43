// to_char with the converted template gives what BigQuery's documentation says
// FORMAT_TIMESTAMP gives for the same timestamp (UTC).
#include <gtest/gtest.h>

#include <pqxx/pqxx>
#include <string>
#include <vector>

#include "pg/time_format.h"
#include "support/test_database.h"

namespace {

struct Case {
  std::string format;
  std::string expected;  // FORMAT_TIMESTAMP(format, TIMESTAMP '2008-12-25 15:30:00.123456+00')
};

const std::vector<Case> kCases = {
    {"c-ish: %a %b %d %T %Y", "c-ish: Thu Dec 25 15:30:00 2008"},
    {"%Y-%m-%d %H:%M:%S", "2008-12-25 15:30:00"},
    {"%F", "2008-12-25"},
    {"%D", "12/25/08"},
    {"%x", "12/25/08"},
    {"%X", "15:30:00"},
    {"%b-%d-%Y", "Dec-25-2008"},
    {"%B %Y", "December 2008"},
    {"%A", "Thursday"},
    {"%j", "360"},
    {"%I:%M %p", "03:30 PM"},
    {"%E3S", "00.123"},
    {"%E6S", "00.123456"},
    {"%Y%m%d%H%M%S", "20081225153000"},
    {"%y%Y", "082008"},
    {"%G-W%V-%u", "2008-W52-4"},
    {"Q%Q", "Q4"},
    {"%z", "+0000"},
    {"%Ez", "+00:00"},
    {"%Z", "UTC"},
    {"100%% at %R", "100% at 15:30"},
};

TEST(TimeFormatOnPostgres, ToCharMatchesBigQueryDocs) {
  lqe::testing::TestDatabase db("timefmt");
  pqxx::connection conn(db.dsn());
  pqxx::nontransaction tx(conn);
  tx.exec("SET TimeZone = 'UTC'");
  for (const auto& c : kCases) {
    const auto converted = lqe::pg::ConvertTimeFormat(c.format);
    ASSERT_EQ(converted.error, "") << c.format;
    const auto got =
        tx.exec_params1("SELECT to_char(timestamptz '2008-12-25 15:30:00.123456+00', $1)",
                        converted.pattern)
            .front()
            .as<std::string>();
    EXPECT_EQ(got, c.expected) << c.format << " as " << converted.pattern;
  }
}

TEST(TimeFormatOnPostgres, ToTimestampParsesWhatBigQueryParses) {
  lqe::testing::TestDatabase db("timeparse");
  pqxx::connection conn(db.dsn());
  pqxx::nontransaction tx(conn);
  tx.exec("SET TimeZone = 'UTC'");
  // PARSE_TIMESTAMP('%Y%m%d %H:%M:%S', '20250115 11:00:05') = 2025-01-15 11:00:05+00
  const auto converted = lqe::pg::ConvertTimeFormat("%Y%m%d %H:%M:%S");
  ASSERT_EQ(converted.error, "");
  const auto got =
      tx.exec_params1("SELECT to_timestamp($1, $2)::text", "20250115 11:00:05", converted.pattern)
          .front()
          .as<std::string>();
  EXPECT_EQ(got, "2025-01-15 11:00:05+00");
}

}  // namespace
