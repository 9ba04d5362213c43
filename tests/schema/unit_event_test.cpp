// The event model shared by HTTP ingest and lqe load: FormEvent's table of cases.
#include <gtest/gtest.h>

#include <boost/json/parse.hpp>
#include <boost/json/serialize.hpp>

#include "lqe/schema/copy_row.h"
#include "lqe/schema/event.h"

namespace lqe::schema {
namespace {

constexpr std::int64_t kNow = 1795348800LL * 1000000;  // 2026-11-22 12:00:00 UTC

EventFormOptions FixedOptions() {
  EventFormOptions options;
  options.now_micros = [] { return kNow; };
  options.new_id = [] { return std::string("generated-id"); };
  return options;
}

struct Formed {
  bool ok = false;
  FormedEvent event;
  std::string refusal;
};

Formed Form(std::string_view json) {
  Formed f;
  const auto value = boost::json::parse(json);
  f.ok = FormEvent(value.as_object(), FixedOptions(), &f.event, &f.refusal);
  return f;
}

std::string Json(const boost::json::object& object) {
  return boost::json::serialize(object);
}

TEST(EventFormTest, MessageRules) {
  struct Case {
    const char* json;
    std::optional<std::string> event_message;
    const char* extra;
  };
  const Case cases[] = {
      {R"({"message":"m"})", "m", "{}"},
      {R"({"event_message":"e"})", "e", "{}"},
      {R"({"message":"same","event_message":"same"})", "same", "{}"},
      // Different: message wins the column as in Logflare; both keys are kept.
      {R"({"event_message":"e","message":"m"})", "m", R"({"event_message":"e","message":"m"})"},
      {R"({})", std::nullopt, "{}"},
      {R"({"message":"","event_message":"e"})", "e", "{}"},  // "" is cleaned away first
      {R"({"message":null})", std::nullopt, "{}"},
      {R"({"message":5})", "5", "{}"},
      {R"({"message":{"a":1}})", R"({"a":1})", "{}"},
      // log_entry is no message key (Logflare >= 1.26.5): kept as an extra key.
      {R"({"log_entry":"old"})", std::nullopt, R"({"log_entry":"old"})"},
  };
  for (const auto& c : cases) {
    const auto f = Form(c.json);
    ASSERT_TRUE(f.ok) << c.json << ": " << f.refusal;
    EXPECT_EQ(f.event.event_message, c.event_message) << c.json;
    EXPECT_EQ(Json(f.event.extra), c.extra) << c.json;
  }
}

constexpr std::int64_t kInferred = -1;  // sent, unreadable: the ingest time, marked
constexpr std::int64_t kAbsent = -2;    // not sent (or empty): the ingest time, unmarked

TEST(EventFormTest, TimestampForms) {
  struct Case {
    const char* json;
    std::int64_t micros;
  };
  const Case cases[] = {
      {R"({"timestamp":1679582186})", 1679582186000000},              // 10 digits: s
      {R"({"timestamp":1679582186123})", 1679582186123000},           // 13: ms
      {R"({"timestamp":1679582186123456})", 1679582186123456},        // 16: us
      {R"({"timestamp":1679582186123456789})", 1679582186123456},     // 19: ns
      {R"({"timestamp":1679582})", 1679582000000000},                 // 7: x 10^9
      {R"({"timestamp":167958218612})", 167958218612},                // 12: taken as us
      {R"({"timestamp":5})", 5},                                      // 1: taken as us
      {R"({"timestamp":-5})", kInferred},                             // negative
      {R"({"timestamp":1679582186.6})", 1679582187000000},            // float rounded, s
      {R"({"timestamp":1679582186123.4})", 1679582186123000},         // float rounded, ms
      {R"({"timestamp":-1.5})", kInferred},                           // negative float
      {R"({"timestamp":"2023-03-23T14:36:26Z"})", 1679582186000000},  // ISO, Z
      {R"({"timestamp":"2023-03-23T14:36:26.123456789+02:00"})", 1679574986123456},
      {R"({"timestamp":"2023-03-23T14:36:26-0100"})", 1679585786000000},
      {R"({"timestamp":"2023-03-23T14:36:26+01"})", 1679578586000000},
      // No zone: UTC, as in BigQuery (Python's datetime.utcnow().isoformat()).
      {R"({"timestamp":"2023-03-23T14:36:26"})", 1679582186000000},
      {R"({"timestamp":"2023-03-23T14:36:26.123456"})", 1679582186123456},
      {R"({"timestamp":"2023-03-23t14:36:26.5"})", 1679582186500000},
      {R"({"timestamp":"2023-03-23 14:36:26"})", 1679582186000000},  // space for T
      {R"({"timestamp":"2023-03-23 14:36"})", 1679582160000000},     // no seconds
      {R"({"timestamp":"2023-03-23 14:40:18.149 UTC"})", 1679582418149000},
      {R"({"timestamp":"2023-03-23 14:40:18.149UTC"})", 1679582418149000},
      {R"({"timestamp":"2023-03-23 14:40:18,149"})", 1679582418149000},  // comma fraction
      {R"({"timestamp":"2023-03-23 14:40:18.123456789123"})", 1679582418123456},
      {R"({"timestamp":"2023-03-23 14:40:18+0000"})", 1679582418000000},
      {R"({"timestamp":"2023-03-23"})", 1679529600000000},  // a date: midnight UTC
      // Digits as text: read like the number when the digit count names the unit.
      {R"({"timestamp":"1679582186"})", 1679582186000000},
      {R"({"timestamp":"1679582186123"})", 1679582186123000},
      {R"({"timestamp":"1679582186.6"})", 1679582187000000},
      {R"({"timestamp":"20230323"})", kInferred},  // ambiguous as text
      {R"({"timestamp":"2023-03-23T99:00:00Z"})", kInferred},
      {R"({"timestamp":"2023-03-23T14:36:26 Europe/Paris"})", kInferred},
      {R"({"timestamp":"soon"})", kInferred},
      {R"({"timestamp":true})", kInferred},
      {R"({"timestamp":{"seconds":1}})", kInferred},
      {R"({"timestamp":null})", kAbsent},  // empty values are cleaned away first
      {R"({"timestamp":""})", kAbsent},
      {R"({})", kAbsent},
  };
  for (const auto& c : cases) {
    const auto f = Form(c.json);
    ASSERT_TRUE(f.ok) << c.json << ": " << f.refusal;
    if (c.micros < 0) {
      EXPECT_EQ(f.event.timestamp_micros, kNow) << c.json;
      EXPECT_FALSE(f.event.timestamp_given) << c.json;
    } else {
      EXPECT_EQ(f.event.timestamp_micros, c.micros) << c.json;
      EXPECT_TRUE(f.event.timestamp_given) << c.json;
    }
    EXPECT_EQ(f.event.timestamp_inferred, c.micros == kInferred) << c.json;
    EXPECT_FALSE(f.event.extra.contains("timestamp")) << c.json;
    if (c.micros != kInferred) {
      EXPECT_EQ(Json(f.event.extra), "{}") << c.json;
    }
  }
}

TEST(EventFormTest, AnUnreadableTimestampIsKeptAsSentAndMarked) {
  auto f = Form(R"({"message":"m","timestamp":"soon","level":"info"})");
  ASSERT_TRUE(f.ok) << f.refusal;
  EXPECT_EQ(f.event.timestamp_micros, kNow);
  EXPECT_EQ(Json(f.event.extra),
            R"({"level":"info","timestamp_original":"soon","timestamp_inferred":true})");
  // The JSON value as sent, not its text.
  f = Form(R"({"timestamp":-5})");
  EXPECT_EQ(Json(f.event.extra), R"({"timestamp_original":-5,"timestamp_inferred":true})");
  f = Form(R"({"timestamp":{"seconds":1,"nanos":null}})");
  EXPECT_EQ(Json(f.event.extra),
            R"({"timestamp_original":{"seconds":1},"timestamp_inferred":true})");
  // Keys of the event with these names move aside instead of being overwritten.
  f = Form(R"({"timestamp":"soon","timestamp_original":"mine","timestamp_inferred":"no",)"
           R"("_timestamp_original":"also mine"})");
  ASSERT_TRUE(f.ok) << f.refusal;
  EXPECT_EQ(Json(f.event.extra),
            R"({"_timestamp_original":"also mine","__timestamp_original":"mine",)"
            R"("_timestamp_inferred":"no","timestamp_original":"soon","timestamp_inferred":true})");
  // A readable timestamp leaves such keys alone.
  f = Form(R"({"timestamp":"2023-03-23T14:36:26","timestamp_original":"mine"})");
  EXPECT_EQ(Json(f.event.extra), R"({"timestamp_original":"mine"})");
  EXPECT_FALSE(f.event.timestamp_inferred);
}

TEST(EventFormTest, TimestampTextOutOfRangeIsRefusedNotInferred) {
  EXPECT_EQ(Form(R"({"timestamp":"1969-12-31 23:59:59"})").refusal,
            "timestamp out of range (1970-01-01 to 2099-12-31)");
  EXPECT_EQ(Form(R"({"timestamp":"9999999999999999999"})").refusal,
            "timestamp out of range (1970-01-01 to 2099-12-31)");
  // Zone-less text is UTC, so it can be too far in the future like any other.
  EXPECT_EQ(Form(R"({"timestamp":"2026-11-22T13:00:01"})").refusal,
            "timestamp 2026-11-22 13:00:01.000000+00 is more than 1 hour after the ingest time "
            "2026-11-22 12:00:00.000000+00");
}

TEST(EventFormTest, FarFutureAndOutOfRangeAreRefusedWithAReason) {
  const std::int64_t hour = 3600LL * 1000000;
  const auto at_limit = Form(R"({"timestamp":)" + std::to_string(kNow + hour) + "}");
  ASSERT_TRUE(at_limit.ok) << at_limit.refusal;
  EXPECT_EQ(at_limit.event.timestamp_micros, kNow + hour);

  const auto late = Form(R"({"timestamp":)" + std::to_string(kNow + hour + 1) + "}");
  EXPECT_FALSE(late.ok);
  EXPECT_EQ(late.refusal,
            "timestamp 2026-11-22 13:00:00.000001+00 is more than 1 hour after the ingest time "
            "2026-11-22 12:00:00.000000+00");
  const auto iso = Form(R"({"timestamp":"2030-01-01T00:00:00Z"})");
  EXPECT_FALSE(iso.ok);
  EXPECT_EQ(iso.refusal,
            "timestamp 2030-01-01 00:00:00.000000+00 is more than 1 hour after the ingest time "
            "2026-11-22 12:00:00.000000+00");
  EXPECT_EQ(Form(R"({"timestamp":"1969-12-31T23:59:59Z"})").refusal,
            "timestamp out of range (1970-01-01 to 2099-12-31)");
  EXPECT_EQ(Form(R"({"timestamp":18446744073709551615})").refusal,
            "timestamp out of range (1970-01-01 to 2099-12-31)");
  EXPECT_EQ(Form(R"({"timestamp":1e300})").refusal,
            "timestamp out of range (1970-01-01 to 2099-12-31)");
}

TEST(EventFormTest, TheFutureWindowIsAnOption) {
  EventFormOptions options = FixedOptions();
  options.max_future_micros = 2 * 3600LL * 1000000;
  const auto value =
      boost::json::parse(R"({"timestamp":)" + std::to_string(kNow + 3 * 3600LL * 1000000) + "}");
  FormedEvent event;
  std::string refusal;
  EXPECT_FALSE(FormEvent(value.as_object(), options, &event, &refusal));
  EXPECT_EQ(refusal,
            "timestamp 2026-11-22 15:00:00.000000+00 is more than 2 hours after the ingest time "
            "2026-11-22 12:00:00.000000+00");
  const auto sooner =
      boost::json::parse(R"({"timestamp":)" + std::to_string(kNow + 90 * 60LL * 1000000) + "}");
  EXPECT_TRUE(FormEvent(sooner.as_object(), options, &event, &refusal)) << refusal;
}

TEST(EventFormTest, IdGivenOrGenerated) {
  auto f = Form(R"({"id":"e1"})");
  EXPECT_EQ(f.event.id, "e1");
  EXPECT_TRUE(f.event.id_given);
  f = Form(R"({"id":7})");
  EXPECT_EQ(f.event.id, "7");
  EXPECT_TRUE(f.event.id_given);
  f = Form(R"({"id":""})");
  EXPECT_EQ(f.event.id, "generated-id");
  EXPECT_FALSE(f.event.id_given);
  f = Form(R"({"message":"x"})");
  EXPECT_EQ(f.event.id, "generated-id");
  EXPECT_FALSE(f.event.id_given);
}

TEST(EventFormTest, KeyNormalisation) {
  const std::pair<std::string, std::string> cases[] = {
      {"x-forwarded-for", "_x_forwarded_for"},
      {"cf-ray", "_cf_ray"},
      {"a.b", "_a_b"},
      {"a-b.c", "__a_b_c"},
      {"1x", "_1x"},
      {"1-x", "_1_x"},
      {"a b", "_a_b"},
      {"caf\xc3\xa9", "_caf_"},  // one '_' per character, not per byte
      {"", "_"},
      {"ok_Key9", "ok_Key9"},
      {"_private", "_private"},
      {"_TABLE_x", "__TABLE_x"},
      {"_file_name", "__file_name"},
      {"_PARTITIONTIME", "__PARTITIONTIME"},
      {"_TABLEx", "_TABLEx"},
      {std::string(128, 'k'), std::string(128, 'k')},
      {std::string(129, 'k'), "_" + std::string(128, 'k')},
      {"a-" + std::string(127, 'k'), "_" + ("_a_" + std::string(125, 'k'))},
  };
  for (const auto& [key, expected] : cases) EXPECT_EQ(NormaliseKey(key), expected) << key;
}

TEST(EventFormTest, KeysAreRenamedAtEveryDepth) {
  const auto f =
      Form(R"({"metadata":{"request":{"headers":{"cf-ray":"r1","x-forwarded-for":"10.0.0.1"}},)"
           R"("list":[{"a.b":1}]},"top-level":"t"})");
  ASSERT_TRUE(f.ok) << f.refusal;
  EXPECT_EQ(Json(f.event.metadata),
            R"({"request":{"headers":{"_cf_ray":"r1","_x_forwarded_for":"10.0.0.1"}},)"
            R"("list":[{"_a_b":1}]})");
  EXPECT_EQ(Json(f.event.extra), R"({"_top_level":"t"})");
}

TEST(EventFormTest, EmptyValuesAreCleanedAtEveryDepth) {
  const auto f =
      Form(R"({"metadata":{"referer":"","a":null,"b":[],"c":{},"d":{"e":null,"f":""},)"
           R"("list":[{},{"g":null},1,""],"zero":0,"no":false},"project":"","severity":null})");
  ASSERT_TRUE(f.ok) << f.refusal;
  EXPECT_EQ(Json(f.event.metadata), R"({"list":[{},{},1,""],"zero":0,"no":false})");
  EXPECT_FALSE(f.event.project.has_value());
  EXPECT_EQ(Json(f.event.extra), "{}");
}

TEST(EventFormTest, OtherTopLevelKeysAreKeptInExtra) {
  const auto f = Form(R"({"event_message":"line","project":"default","appname":"supabase-auth",)"
                      R"("severity":"info","level":30,"file":"f.log","metadata":{"x":1}})");
  ASSERT_TRUE(f.ok) << f.refusal;
  EXPECT_EQ(f.event.event_message, "line");
  EXPECT_EQ(f.event.project, "default");
  EXPECT_EQ(Json(f.event.metadata), R"({"x":1})");
  EXPECT_EQ(Json(f.event.extra),
            R"({"appname":"supabase-auth","severity":"info","level":30,"file":"f.log"})");
  // metadata that is not an object is kept too, in extra.
  const auto g = Form(R"({"metadata":"text","project":7})");
  ASSERT_TRUE(g.ok);
  EXPECT_EQ(Json(g.event.metadata), "{}");
  EXPECT_EQ(Json(g.event.extra), R"({"metadata":"text"})");
  EXPECT_EQ(g.event.project, "7");
}

TEST(EventFormTest, NulCharactersAreRefused) {
  const char* reason = "a string contains a NUL character (\\u0000), which PostgreSQL cannot store";
  EXPECT_EQ(Form(R"({"message":"a\u0000b"})").refusal, reason);
  EXPECT_EQ(Form(R"({"metadata":{"list":["\u0000"]}})").refusal, reason);
  // A NUL in a key is just another character outside [A-Za-z0-9_].
  const auto f = Form(R"({"metadata":{"a\u0000":1}})");
  ASSERT_TRUE(f.ok) << f.refusal;
  EXPECT_EQ(Json(f.event.metadata), R"({"_a_":1})");
}

TEST(EventLineTest, RejectionReasons) {
  auto error_of = [](std::string_view line) {
    boost::json::value value;
    FormedEvent event;
    std::string error;
    EXPECT_FALSE(ParseEventLine(line, {}, &value, FixedOptions(), &event, &error)) << line;
    return error;
  };
  EXPECT_EQ(error_of(R"({"event_message":"x")"), "invalid JSON at column 21: incomplete JSON");
  EXPECT_EQ(error_of(R"({"event_message":"x"} junk)"), "invalid JSON at column 23: extra data");
  EXPECT_EQ(error_of("[1,2]"), "not a JSON object, got an array");
  EXPECT_EQ(error_of("42"), "not a JSON object, got a number");
  EXPECT_EQ(error_of("{\"event_message\":\"\xff\"}").substr(0, 12), "invalid JSON");
  EXPECT_EQ(error_of(R"({"timestamp":"2099-01-01T00:00:00Z"})").substr(0, 43),
            "timestamp 2099-01-01 00:00:00.000000+00 is ");
}

TEST(CopyRowTest, EscapesAndNulls) {
  std::string out;
  AppendCopyRow("i\td", 1679582186000001, std::string("a\\b\nc\r"), std::nullopt, R"({"k":"v\"w"})",
                R"({"appname":"a"})", &out);
  EXPECT_EQ(out,
            "i\\td\t2023-03-23 14:36:26.000001+00\ta\\\\b\\nc\\r\t\\N\t{\"k\":\"v\\\\\"w\"}\t"
            "{\"appname\":\"a\"}\n");
  out.clear();
  AppendCopyRow("i", 0, std::nullopt, std::string("p"), "{}", "{}", &out);
  EXPECT_EQ(out, "i\t1970-01-01 00:00:00.000000+00\t\\N\tp\t{}\t{}\n");
}

TEST(CopyRowTest, EscapesAtEveryPositionOfAWord) {
  // Text is checked 8 bytes at a time: each special byte at each offset, among bytes that are
  // not special (other control characters and UTF-8 pass as they are).
  for (const char special : {'\\', '\t', '\n', '\r'}) {
    const std::string escaped = special == '\\'   ? "\\\\"
                                : special == '\t' ? "\\t"
                                : special == '\n' ? "\\n"
                                                  : "\\r";
    for (std::size_t at = 0; at < 19; ++at) {
      std::string value = "abcdefgh\x01ijklmn\xc3\xa9pq";
      value.insert(at, 1, special);
      std::string expected = "abcdefgh\x01ijklmn\xc3\xa9pq";
      expected.insert(at, escaped);
      std::string out = ">";
      AppendCopyEscaped(value, &out);
      EXPECT_EQ(out, ">" + expected) << "at " << at;
    }
  }
  std::string out;
  AppendCopyEscaped("\\\\\t\t\n\n\r\r0123456789", &out);
  EXPECT_EQ(out, "\\\\\\\\\\t\\t\\n\\n\\r\\r0123456789");
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
