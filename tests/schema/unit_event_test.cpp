#include <gtest/gtest.h>

#include <boost/json/monotonic_resource.hpp>

#include "lqe/schema/copy_row.h"
#include "lqe/schema/event.h"

namespace lqe::schema {
namespace {

struct Parsed {
  bool ok = false;
  Event event;
  std::string error;
  boost::json::value value;
};

Parsed ParseLine(std::string_view line) {
  Parsed p;
  p.ok = ParseEventLine(line, {}, &p.value, &p.event, &p.error);
  return p;
}

std::string ErrorOf(std::string_view line) {
  auto p = ParseLine(line);
  EXPECT_FALSE(p.ok) << line;
  return p.error;
}

TEST(EventTest, FullEvent) {
  auto p = ParseLine(
      R"({"event_message":"hi","id":"e1","timestamp":"2023-03-23T14:36:26Z","project":"default",)"
      R"("metadata":{"level":"info"}})");
  ASSERT_TRUE(p.ok) << p.error;
  EXPECT_EQ(p.event.event_message, "hi");
  EXPECT_EQ(p.event.id, "e1");
  EXPECT_EQ(p.event.project, "default");
  EXPECT_EQ(p.event.timestamp_micros, 1679582186000000);
  ASSERT_NE(p.event.metadata, nullptr);
  EXPECT_EQ(p.event.metadata->at("level").as_string(), "info");
}

TEST(EventTest, OptionalFieldsAndNulls) {
  auto p = ParseLine(
      R"({"event_message":"x","id":null,"project":null,"metadata":null,"timestamp":1679582186})");
  ASSERT_TRUE(p.ok) << p.error;
  EXPECT_FALSE(p.event.id.has_value());
  EXPECT_FALSE(p.event.project.has_value());
  EXPECT_EQ(p.event.metadata, nullptr);
  EXPECT_EQ(p.event.timestamp_micros, 1679582186000000);
  auto q = ParseLine(R"({"event_message":"x","timestamp":1679582186123})");
  ASSERT_TRUE(q.ok);
  EXPECT_EQ(q.event.timestamp_micros, 1679582186123000);
}

TEST(EventTest, RejectionReasons) {
  EXPECT_EQ(ErrorOf(R"({"event_message":"x")"), "invalid JSON at column 21: incomplete JSON");
  EXPECT_EQ(ErrorOf(R"({"event_message":"x"} junk)"), "invalid JSON at column 23: extra data");
  EXPECT_EQ(ErrorOf("[1,2]"), "not a JSON object, got an array");
  EXPECT_EQ(ErrorOf("42"), "not a JSON object, got a number");
  EXPECT_EQ(ErrorOf(R"({"metadata":{}})"), "event_message is required");
  EXPECT_EQ(ErrorOf(R"({"event_message":5})"), "event_message must be a string, got a number");
  EXPECT_EQ(ErrorOf(R"({"event_message":"x","id":7})"), "id must be a string, got a number");
  EXPECT_EQ(ErrorOf(R"({"event_message":"x","project":[]})"),
            "project must be a string, got an array");
  EXPECT_EQ(ErrorOf(R"({"event_message":"x","metadata":"m"})"),
            "metadata must be an object, got a string");
  EXPECT_EQ(ErrorOf(R"({"event_message":"x","timestamp":true})"),
            "timestamp must be a string or a number, got a boolean");
  EXPECT_EQ(ErrorOf(R"({"event_message":"x","timestamp":"soon"})"),
            "invalid timestamp \"soon\" (expected ISO 8601 or a unix epoch number)");
  EXPECT_EQ(ErrorOf(R"({"event_message":"x","file":"f"})"),
            "unknown top-level field \"file\" (expected event_message, id, timestamp, project, "
            "metadata)");
  EXPECT_EQ(ErrorOf(R"({"event_message":"a\u0000b"})"), "event_message contains a NUL character");
  EXPECT_EQ(ErrorOf("{\"event_message\":\"\xff\"}").substr(0, 12), "invalid JSON");
}

TEST(CopyRowTest, EscapesAndNulls) {
  std::string out;
  AppendCopyRow("i\td", 1679582186000001, "a\\b\nc\r", std::nullopt, R"({"k":"v\"w"})", &out);
  EXPECT_EQ(out,
            "i\\td\t2023-03-23 14:36:26.000001+00\ta\\\\b\\nc\\r\t\\N\t{\"k\":\"v\\\\\"w\"}\n");
}

TEST(CopyRowTest, UuidsAreVersion4AndDistinct) {
  UuidGenerator uuids;
  const std::string a = uuids.Next();
  const std::string b = uuids.Next();
  EXPECT_NE(a, b);
  ASSERT_EQ(a.size(), 36u);
  EXPECT_EQ(a[14], '4');
  EXPECT_TRUE(a[19] == '8' || a[19] == '9' || a[19] == 'a' || a[19] == 'b') << a;
  EXPECT_EQ(a[8], '-');
  EXPECT_EQ(a[23], '-');
}

}  // namespace
}  // namespace lqe::schema
