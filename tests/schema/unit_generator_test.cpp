#include <gtest/gtest.h>

#include <algorithm>
#include <boost/json/parse.hpp>
#include <functional>
#include <map>

#include "lqe/schema/demo_events.h"
#include "lqe/schema/event.h"

namespace lqe::demo {
namespace {

constexpr std::int64_t kNow = 1795262400LL * 1000000;  // 2026-11-21T12:00:00Z

std::string Generate(const std::string& source, std::uint64_t seed, int count) {
  EventGenerator generator({source, seed, kNow, 50});
  std::string out;
  for (int i = 0; i < count; ++i) generator.Next(&out);
  return out;
}

std::vector<boost::json::value> Lines(const std::string& text) {
  std::vector<boost::json::value> out;
  std::size_t start = 0;
  while (start < text.size()) {
    const auto nl = text.find('\n', start);
    out.push_back(boost::json::parse(text.substr(start, nl - start)));
    start = nl + 1;
  }
  return out;
}

// Forms every NDJSON line of `text` as an ingested event and hands it to `check`.
void ForEachFormedEvent(const std::string& text,
                        const std::function<void(const schema::FormedEvent&)>& check) {
  std::size_t start = 0;
  while (start < text.size()) {
    const auto nl = text.find('\n', start);
    boost::json::value value;
    schema::FormedEvent event;
    schema::EventFormOptions options;
    options.now_micros = [] { return kNow; };
    options.new_id = [] { return std::string("generated"); };
    std::string error;
    ASSERT_TRUE(
        schema::ParseEventLine(text.substr(start, nl - start), {}, &value, options, &event, &error))
        << error;
    check(event);
    start = nl + 1;
  }
}

TEST(GeneratorTest, SameSeedSameBytes) {
  for (const auto& source : GeneratorSources()) {
    EXPECT_EQ(Generate(source, 7, 200), Generate(source, 7, 200)) << source;
    EXPECT_NE(Generate(source, 7, 200), Generate(source, 8, 200)) << source;
  }
}

TEST(GeneratorTest, EveryLineIsAValidIngestEvent) {
  for (const auto& source : GeneratorSources()) {
    int lines = 0;
    ForEachFormedEvent(Generate(source, 3, 500), [&](const schema::FormedEvent& event) {
      EXPECT_TRUE(event.id_given) << source;
      EXPECT_TRUE(event.timestamp_given) << source;
      EXPECT_LE(event.timestamp_micros, kNow);
      EXPECT_GE(event.timestamp_micros, kNow - 8LL * 86400 * 1000000);
      EXPECT_TRUE(event.extra.empty()) << source;
      ++lines;
    });
    EXPECT_EQ(lines, 500) << source;
  }
}

TEST(GeneratorTest, EdgeShapeProjectsAndTimes) {
  const auto events = Lines(Generate("edge", 11, 4000));
  std::map<std::string, int> per_project;
  int recent = 0;
  int ipv6 = 0;
  for (const auto& e : events) {
    const auto& o = e.as_object();
    const std::string project(o.at("project").as_string());
    ++per_project[project];
    const auto& request = o.at("metadata").at("request").as_object();
    const std::string url(request.at("url").as_string());
    EXPECT_EQ(url.rfind("https://" + project + ".supabase.co/", 0), 0u) << url;
    EXPECT_TRUE(o.at("metadata").at("response").at("status_code").is_int64());
    const std::string ip(request.at("headers").at("cf_connecting_ip").as_string());
    if (ip.find(':') != std::string::npos) ++ipv6;
    if (o.at("timestamp").as_string() >= "2026-11-21T10:00:00") ++recent;
  }
  // "default" is the most popular project, but far from the only one.
  int top = 0;
  std::string top_project;
  for (const auto& [p, n] : per_project) {
    if (n > top) top = n, top_project = p;
  }
  EXPECT_EQ(top_project, "default");
  EXPECT_GT(per_project.size(), 30u);
  EXPECT_GT(recent, 1800);  // about half in the last two hours
  EXPECT_LT(recent, 2600);
  EXPECT_GT(ipv6, 400);
}

TEST(GeneratorTest, MetadataOnlySourcesCarryTheProjectInside) {
  for (const std::string source : {"function_edge", "function_events"}) {
    for (const auto& e : Lines(Generate(source, 5, 50))) {
      EXPECT_FALSE(e.as_object().contains("project")) << source;
      EXPECT_TRUE(e.at("metadata").at("project_ref").is_string()) << source;
    }
  }
  for (const std::string source : {"realtime", "storage"}) {
    for (const auto& e : Lines(Generate(source, 5, 50))) {
      EXPECT_FALSE(e.as_object().contains("project")) << source;
      EXPECT_TRUE(e.at("metadata").at("project").is_string()) << source;
    }
  }
}

TEST(GeneratorTest, UnknownSourceAndNowParsing) {
  EXPECT_THROW(EventGenerator({"nope", 1, kNow, 5}), std::invalid_argument);
  EXPECT_THROW(EventGenerator({"edge", 1, kNow, 0}), std::invalid_argument);
  std::int64_t now = 0;
  ASSERT_TRUE(ParseNow("2026-11-21T12:00:00Z", &now));
  EXPECT_EQ(now, kNow);
  EXPECT_FALSE(ParseNow("2026-13-21T12:00:00Z", &now));
  EXPECT_FALSE(ParseNow("tomorrow", &now));
  // The shared ISO 8601 reader: offsets (once refused here), fractions and a bare date.
  ASSERT_TRUE(ParseNow("2026-11-21T14:00:00+02:00", &now));
  EXPECT_EQ(now, kNow);
  ASSERT_TRUE(ParseNow("2026-11-21T12:00:00.250Z", &now));
  EXPECT_EQ(now, kNow + 250000);
  ASSERT_TRUE(ParseNow("2026-11-21", &now));
  EXPECT_EQ(now, kNow - 12LL * 3600 * 1000000);
  EXPECT_FALSE(ParseNow("2026-11-21T12:00:00Zjunk", &now));
}

TEST(GeneratorTest, LiveEventsAllFallInTheGivenSecondsBeforeNow) {
  GeneratorOptions options{"edge", 5, kNow, 10};
  options.live_seconds = 60;
  EventGenerator generator(options);
  std::string text;
  for (int i = 0; i < 500; ++i) generator.Next(&text);
  std::int64_t oldest = kNow;
  ForEachFormedEvent(text, [&](const schema::FormedEvent& event) {
    EXPECT_LE(event.timestamp_micros, kNow);
    EXPECT_GT(event.timestamp_micros, kNow - 60LL * 1000000);
    oldest = std::min(oldest, event.timestamp_micros);
  });
  // 500 events spread over the minute, not bunched at its end.
  EXPECT_LT(oldest, kNow - 50LL * 1000000);
}

}  // namespace
}  // namespace lqe::demo
