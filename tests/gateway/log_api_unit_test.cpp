// The console APIs' pure parts: the histogram's bucket choice, facet field paths, SQL/JSON paths,
// and the LQL filter's SQL keeping every typed value out of the SQL text.
#include <gtest/gtest.h>

#include "logapi/bucket_size.h"
#include "logapi/filter_sql.h"
#include "logapi/log_request.h"

namespace lqe::gateway::logapi {
namespace {

constexpr std::int64_t kSecond = 1000000;

TEST(BucketSizeTest, TheSmallestRoundSizeWithinTheBucketCount) {
  const std::int64_t t0 = 1767225600LL * kSecond;  // 2026-01-01T00:00:00Z
  struct Case {
    std::int64_t seconds, max, size, count;
  };
  for (const Case& c : std::vector<Case>{{60, 60, 1, 60},
                                         {600, 60, 10, 60},
                                         {3600, 60, 60, 60},
                                         {3600, 10, 600, 6},
                                         {86400, 60, 1800, 48},
                                         {86400, 500, 300, 288},
                                         {7LL * 86400, 60, 10800, 56},
                                         {31LL * 86400, 60, 86400, 31},
                                         {31LL * 86400, 10, 86400, 31}}) {
    Buckets b = ChooseBuckets(t0, t0 + c.seconds * kSecond, c.max);
    EXPECT_EQ(b.seconds, c.size) << c.seconds << " s in " << c.max;
    EXPECT_EQ(b.count, c.count) << c.seconds << " s in " << c.max;
    EXPECT_EQ(b.first_micros, t0);
  }
  // A misaligned range: the first bucket starts before it, one more bucket may be needed.
  Buckets odd = ChooseBuckets(t0 + 7 * kSecond, t0 + 67 * kSecond, 10);
  EXPECT_EQ(odd.seconds, 10);
  EXPECT_EQ(odd.count, 7);
  EXPECT_EQ(odd.first_micros, t0);
  Buckets exact = ChooseBuckets(t0 + 7 * kSecond, t0 + 8 * kSecond, 10);
  EXPECT_EQ(exact.seconds, 1);
  EXPECT_EQ(exact.count, 1);
  // Before 1970 too.
  Buckets early = ChooseBuckets(-90 * kSecond, -30 * kSecond, 60);
  EXPECT_EQ(early.seconds, 1);
  EXPECT_EQ(early.first_micros, -90 * kSecond);
  EXPECT_EQ(early.count, 60);
}

TEST(FieldPathTest, ColumnsAndDottedPaths) {
  EXPECT_EQ(ParseFieldPath("m.level"), (std::vector<std::string>{"metadata", "level"}));
  EXPECT_EQ(ParseFieldPath("metadata.request.method"),
            (std::vector<std::string>{"metadata", "request", "method"}));
  EXPECT_EQ(ParseFieldPath("extra.host"), (std::vector<std::string>{"extra", "host"}));
  EXPECT_EQ(ParseFieldPath("project"), (std::vector<std::string>{"project"}));
  for (const char* bad : {"", ".", "m.", "m..level", "timestamp", "level", "project.x", "id.y"}) {
    EXPECT_FALSE(ParseFieldPath(bad).has_value()) << bad;
  }
}

TEST(FilterSqlTest, ValuesAreParametersNeverSqlText) {
  SqlParams params;
  auto condition =
      FilterCondition(R"(m.level:"x' OR 1=1 --" ~"a'b" m.status:>=500 -"drop table" m.a.b:NULL)",
                      std::chrono::system_clock::now(), params);
  ASSERT_TRUE(std::holds_alternative<std::string>(condition));
  const std::string& sql = std::get<std::string>(condition);
  EXPECT_EQ(sql.find("OR 1=1"), std::string::npos) << sql;
  EXPECT_EQ(sql.find("a'b"), std::string::npos) << sql;
  EXPECT_EQ(sql.find("drop table"), std::string::npos) << sql;
  bool found = false;
  for (const auto& v : params.values()) found = found || (v && *v == "x' OR 1=1 --");
  EXPECT_TRUE(found);
  EXPECT_EQ(JsonPath({"metadata", "a\"b", "c\\d"}, 1), R"(lax $."a\"b"."c\\d")");
  SqlParams empty;
  EXPECT_EQ(std::get<std::string>(FilterCondition("", std::chrono::system_clock::now(), empty)),
            "TRUE");
  EXPECT_TRUE(empty.values().empty());
}

TEST(FilterSqlTest, ParseErrorsArePositioned) {
  SqlParams params;
  auto condition = FilterCondition("m.level:error m.a:>", std::chrono::system_clock::now(), params);
  ASSERT_TRUE(std::holds_alternative<Diagnostic>(condition));
  EXPECT_GT(std::get<Diagnostic>(condition).offset, 0U);
}

}  // namespace
}  // namespace lqe::gateway::logapi
