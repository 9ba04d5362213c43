// The LQL rule model: what Parse() makes of each clause, independent of any schema.
#include "lql/parser.h"

#include <gtest/gtest.h>

namespace lqe::lql {
namespace {

Rules Ok(std::string_view text) {
  auto result = Parse(text);
  if (auto* d = std::get_if<Diagnostic>(&result)) {
    ADD_FAILURE() << text << ": " << d->message;
    return {};
  }
  return std::get<Rules>(std::move(result));
}

Diagnostic Err(std::string_view text) {
  auto result = Parse(text);
  if (!std::holds_alternative<Diagnostic>(result)) {
    ADD_FAILURE() << text << " parsed";
    return {};
  }
  return std::get<Diagnostic>(result);
}

TEST(LqlParser, EmptyAndWhitespaceOnlyHaveNoRules) {
  for (const char* text : {"", "   ", "\n\t\r\n "}) {
    const Rules r = Ok(text);
    EXPECT_TRUE(r.filters.empty() && r.selects.empty() && !r.from && !r.chart);
  }
}

TEST(LqlParser, FreeTextWordsAndPhrases) {
  const Rules r = Ok("error  \"staging error\"\nmy|string a\\\"b");
  ASSERT_EQ(r.filters.size(), 4u);
  EXPECT_EQ(r.filters[0].value.text, "error");
  EXPECT_FALSE(r.filters[0].value.quoted);
  EXPECT_EQ(r.filters[1].value.text, "staging error");
  EXPECT_TRUE(r.filters[1].value.quoted);
  EXPECT_EQ(r.filters[2].value.text, "my|string");
  EXPECT_EQ(r.filters[3].value.text, "a\"b");
  for (const auto& f : r.filters) {
    EXPECT_EQ(f.op, FilterOp::kContains);
    EXPECT_EQ(JoinPath(f.path), "event_message");
  }
  EXPECT_EQ(r.filters[1].span.begin, 7u);
  EXPECT_EQ(r.filters[1].span.end, 22u);
}

TEST(LqlParser, QuotedEscapes) {
  const Rules r = Ok(R"("a \"b\" \\ \d")");
  ASSERT_EQ(r.filters.size(), 1u);
  EXPECT_EQ(r.filters[0].value.text, R"(a "b" \ \d)");
}

TEST(LqlParser, Regexes) {
  const Rules r = Ok(R"(~^error$ ~"(?i)log \d\d" m.browser:~"Firefox 5\d" m.x:~a.b)");
  ASSERT_EQ(r.filters.size(), 4u);
  EXPECT_EQ(r.filters[0].value.text, "^error$");
  EXPECT_EQ(r.filters[1].value.text, R"((?i)log \d\d)");
  EXPECT_EQ(JoinPath(r.filters[2].path), "metadata.browser");
  EXPECT_EQ(r.filters[2].value.text, R"(Firefox 5\d)");
  EXPECT_EQ(r.filters[3].value.text, "a.b");
  for (const auto& f : r.filters) {
    EXPECT_EQ(f.op, FilterOp::kRegex);
  }
}

TEST(LqlParser, FieldOperators) {
  const Rules r = Ok("a:1 a:>1 a:>=1 a:<1 a:<=1 a:1..2 a:@>x a:@>~y a:NULL a:\"NULL\" a:true");
  const FilterOp ops[] = {FilterOp::kEq,
                          FilterOp::kGt,
                          FilterOp::kGe,
                          FilterOp::kLt,
                          FilterOp::kLe,
                          FilterOp::kRange,
                          FilterOp::kArrayContains,
                          FilterOp::kArrayRegex,
                          FilterOp::kIsNull,
                          FilterOp::kEq,
                          FilterOp::kEq};
  ASSERT_EQ(r.filters.size(), std::size(ops));
  for (std::size_t i = 0; i < std::size(ops); ++i) {
    EXPECT_EQ(r.filters[i].op, ops[i]) << i;
  }
  EXPECT_EQ(r.filters[5].value.text, "1");
  EXPECT_EQ(r.filters[5].high.text, "2");
  EXPECT_EQ(r.filters[5].high.span.begin, 31u);
  EXPECT_EQ(r.filters[9].value.text, "NULL");
  EXPECT_TRUE(r.filters[9].value.quoted);
}

TEST(LqlParser, MetadataShorthandAndNegation) {
  const Rules r = Ok("-m.user.company:\"My Company\" metadata.a.b:1 m:2");
  ASSERT_EQ(r.filters.size(), 3u);
  EXPECT_TRUE(r.filters[0].negated);
  EXPECT_EQ(JoinPath(r.filters[0].path), "metadata.user.company");
  EXPECT_EQ(r.filters[0].span.begin, 0u);
  EXPECT_EQ(r.filters[0].path_span.begin, 1u);
  EXPECT_EQ(JoinPath(r.filters[1].path), "metadata.a.b");
  EXPECT_EQ(JoinPath(r.filters[2].path), "m");  // only "m." is the shorthand
}

TEST(LqlParser, LoneDashIsAWord) {
  const Rules r = Ok("- -x");
  ASSERT_EQ(r.filters.size(), 2u);
  EXPECT_EQ(r.filters[0].value.text, "-");
  EXPECT_FALSE(r.filters[0].negated);
  EXPECT_EQ(r.filters[1].value.text, "x");
  EXPECT_TRUE(r.filters[1].negated);
}

TEST(LqlParser, TimestampClausesTargetTheTimestampColumn) {
  const Rules r = Ok("t:>2022-01-01 timestamp:2022-04-{07..09}T00:{00..40}:00 t:last@5m");
  ASSERT_EQ(r.filters.size(), 3u);
  for (const auto& f : r.filters) {
    EXPECT_EQ(JoinPath(f.path), "timestamp");
  }
  EXPECT_EQ(r.filters[0].op, FilterOp::kGt);
  EXPECT_EQ(r.filters[1].op, FilterOp::kEq);  // brace ranges stay whole
  EXPECT_EQ(r.filters[1].value.text, "2022-04-{07..09}T00:{00..40}:00");
}

TEST(LqlParser, SelectFromChart) {
  const Rules r =
      Ok("s:m.user.id@user_id select:id s:* from:second_cte c:p95(m.latency) "
         "chart:group_by(t::h)");
  ASSERT_EQ(r.selects.size(), 3u);
  EXPECT_EQ(JoinPath(r.selects[0].path), "metadata.user.id");
  EXPECT_EQ(r.selects[0].alias, "user_id");
  EXPECT_EQ(JoinPath(r.selects[1].path), "id");
  EXPECT_TRUE(r.selects[2].path.empty());
  ASSERT_TRUE(r.from);
  EXPECT_EQ(r.from->name, "second_cte");
  ASSERT_TRUE(r.chart);
  EXPECT_EQ(r.chart->aggregate, Aggregate::kP95);
  EXPECT_EQ(JoinPath(r.chart->path), "metadata.latency");
  EXPECT_EQ(r.chart->period, Period::kHour);
  EXPECT_TRUE(r.chart->has_aggregate);
  EXPECT_TRUE(r.chart->period_set);
}

TEST(LqlParser, ChartDefaultsAndPeriods) {
  const std::pair<const char*, Period> periods[] = {
      {"second", Period::kSecond}, {"s", Period::kSecond},  {"minute", Period::kMinute},
      {"m", Period::kMinute},      {"hour", Period::kHour}, {"h", Period::kHour},
      {"day", Period::kDay},       {"d", Period::kDay}};
  for (const auto& [name, period] : periods) {
    const Rules r = Ok(std::string("c:group_by(timestamp::") + name + ")");
    ASSERT_TRUE(r.chart) << name;
    EXPECT_EQ(r.chart->period, period) << name;
    EXPECT_FALSE(r.chart->has_aggregate);
  }
  const Rules r = Ok("c:count(*)");
  EXPECT_EQ(r.chart->period, Period::kMinute);
  EXPECT_TRUE(r.chart->path.empty());
}

TEST(LqlParser, AtMostOneHundredClauses) {
  std::string text;
  for (int i = 0; i < 100; ++i) {
    text += "w ";
  }
  EXPECT_EQ(Ok(text).filters.size(), 100u);
  const Diagnostic d = Err(text + "extra");
  EXPECT_EQ(d.message, "lql query has too many clauses (at most 100)");
  EXPECT_EQ(d.code, DiagCode::kLimit);
  EXPECT_EQ(d.offset, 200u);
  EXPECT_EQ(d.length, 5u);
  EXPECT_EQ(d.source, DiagSource::kConsumerLql);
}

TEST(LqlParser, TooLong) {
  const Diagnostic d = Err(std::string(kMaxLqlBytes + 1, 'a'));
  EXPECT_EQ(d.message, "lql query is too long (at most 65536 bytes)");
  EXPECT_EQ(d.code, DiagCode::kLimit);
}

TEST(LqlParser, ErrorMessagesAreSanitised) {
  const Diagnostic d = Err(std::string("a:b\"\x01\xff") + std::string(60, 'z'));
  EXPECT_EQ(d.message,
            "lql parse error: unexpected \"\\\"??zzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzz...\"");
  EXPECT_EQ(d.offset, 3u);
}

}  // namespace
}  // namespace lqe::lql
