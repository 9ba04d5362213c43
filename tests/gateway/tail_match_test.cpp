// LQL evaluated on one event (the live tail's filter): each operator, negation, nested and
// repeated fields, levels, timestamps, and the errors.
#include <gtest/gtest.h>

#include <boost/json/parse.hpp>

#include "tail/event_match.h"
#include "tail/tail_hub.h"
#include "tail/tail_request.h"

namespace lqe::gateway::tail {
namespace {

namespace json = boost::json;

const auto kNow = std::chrono::system_clock::time_point(std::chrono::seconds(1700000000));

bool Matches(const std::string& lql, const std::string& event, std::int64_t micros = 0) {
  auto match = EventMatch::Compile(lql, kNow);
  if (auto* diag = std::get_if<Diagnostic>(&match)) {
    ADD_FAILURE() << lql << ": " << diag->message;
    return false;
  }
  json::object fields = json::parse(event).as_object();
  return std::get<EventMatch>(match).Matches(EventView{&fields, micros});
}

std::string Error(const std::string& lql) {
  auto match = EventMatch::Compile(lql, kNow);
  auto* diag = std::get_if<Diagnostic>(&match);
  return diag == nullptr ? "<compiled>" : diag->message;
}

const std::string kEvent = R"({"id":"e1","event_message":"GET /rest/v1/users 503",
  "metadata":{"level":"error","status":503,"ok":false,"tags":["a","beta"],
              "request":[{"method":"GET"},{"method":"POST","path":"/x"}]},
  "extra":{"appname":"kong"}})";

TEST(TailMatchTest, FreeTextAndRegexReadTheMessage) {
  EXPECT_TRUE(Matches("", kEvent));
  EXPECT_TRUE(Matches("users", kEvent));
  EXPECT_TRUE(Matches("\"v1/users 503\"", kEvent));
  EXPECT_FALSE(Matches("Users", kEvent));  // case-sensitive, like STRPOS
  EXPECT_TRUE(Matches("~users\\s\\d+", kEvent));
  EXPECT_FALSE(Matches("-users", kEvent));
  EXPECT_TRUE(Matches("users -missing", kEvent));
}

// An event without a message has an empty one: the rule Studio gives every drain, ~".*?",
// matches it, and a regex that needs a character does not.
TEST(TailMatchTest, ARegexReadsAMissingMessageAsEmpty) {
  const std::string silent = R"({"id":"e2","metadata":{"level":"info"}})";
  const std::string null_message = R"({"id":"e3","event_message":null})";
  EXPECT_TRUE(Matches("~\".*?\"", silent));
  EXPECT_TRUE(Matches("~\".*?\"", null_message));
  EXPECT_TRUE(Matches("~\"^$\"", silent));
  EXPECT_FALSE(Matches("~\".+\"", silent));
  EXPECT_TRUE(Matches("-~\".+\"", silent));
  EXPECT_FALSE(Matches("users", silent));
  EXPECT_TRUE(Matches("~\".*?\" m.level:info", silent));
  EXPECT_FALSE(Matches("m.missing:~\".*?\"", silent));  // only the message is read as empty
}

TEST(TailMatchTest, FieldComparisonsByTheValuesType) {
  EXPECT_TRUE(Matches("m.level:error", kEvent));
  EXPECT_TRUE(Matches("metadata.status:503 m.status:>=500 m.status:<600", kEvent));
  EXPECT_FALSE(Matches("m.status:>503", kEvent));
  EXPECT_TRUE(Matches("m.status:500..599", kEvent));
  EXPECT_FALSE(Matches("m.status:abc", kEvent));
  EXPECT_TRUE(Matches("m.ok:false", kEvent));
  EXPECT_TRUE(Matches("m.level:warning..critical", kEvent));  // by severity
  EXPECT_FALSE(Matches("m.level:debug..warning", kEvent));
  EXPECT_TRUE(Matches("extra.appname:kong", kEvent));
}

TEST(TailMatchTest, ArraysRepeatedRecordsAndNulls) {
  EXPECT_TRUE(Matches("m.tags:@>beta", kEvent));
  EXPECT_FALSE(Matches("m.tags:@>gamma", kEvent));
  EXPECT_TRUE(Matches("m.tags:@>~^be", kEvent));
  EXPECT_TRUE(Matches("m.request.method:POST", kEvent));
  EXPECT_TRUE(Matches("m.request.path:NULL", R"({"metadata":{"request":[{"method":"GET"}]}})"));
  EXPECT_FALSE(Matches("m.request.path:NULL", kEvent));
  EXPECT_TRUE(Matches("-m.request.path:NULL", kEvent));
  // A negated filter keeps events without the field, as the endpoints do.
  EXPECT_TRUE(Matches("-m.user:bob", kEvent));
  EXPECT_FALSE(Matches("m.user:bob", kEvent));
}

TEST(TailMatchTest, TimestampsUseTheEventsTime) {
  const std::int64_t t = 1699999990LL * 1000000;  // ten seconds before kNow
  EXPECT_TRUE(Matches("t:>2023-11-14", kEvent, t));
  EXPECT_TRUE(Matches("timestamp:2023-11-14", kEvent, t));  // that day
  EXPECT_FALSE(Matches("timestamp:2023-11-15", kEvent, t));
  EXPECT_TRUE(Matches("t:last@1m", kEvent, t));
  EXPECT_FALSE(Matches("t:last@5s", kEvent, t));
}

TEST(TailMatchTest, ErrorsArePositioned) {
  EXPECT_NE(Error("s:id").find("only filters apply"), std::string::npos);
  EXPECT_NE(Error("c:count(*)").find("only filters apply"), std::string::npos);
  EXPECT_NE(Error("f:edge").find("source is a parameter"), std::string::npos);
  EXPECT_NE(Error("m.a:~(").find("invalid regular expression"), std::string::npos);
  EXPECT_NE(Error("t:>yesterday").find("cannot be compared"), std::string::npos);
  EXPECT_NE(Error("t:notatime").find("notatime"), std::string::npos);
}

TEST(TailMatchTest, SinceDurations) {
  EXPECT_EQ(ParseSince("30s"), 30);
  EXPECT_EQ(ParseSince("15m"), 900);
  EXPECT_EQ(ParseSince("2h"), 7200);
  EXPECT_EQ(ParseSince("1d"), 86400);
  EXPECT_FALSE(ParseSince("m"));
  EXPECT_FALSE(ParseSince("0m"));
  EXPECT_FALSE(ParseSince("-5m"));
  EXPECT_FALSE(ParseSince("5w"));
  EXPECT_FALSE(ParseSince("99999999999d"));
}

TEST(TailMatchTest, IsoTimestamps) {
  EXPECT_EQ(IsoMicros(0), "1970-01-01T00:00:00.000000Z");
  EXPECT_EQ(IsoMicros(1700000000123456LL), "2023-11-14T22:13:20.123456Z");
}

}  // namespace
}  // namespace lqe::gateway::tail
