// OTLP ingest's pure parts: AnyValue and attribute lists as JSON, OTLP/JSON decoding (hex ids,
// 64-bit integers as text, camelCase names, clear errors), one record as the posted event, and
// the source a service.name names.
#include "ingest/otlp_values.h"

#include <gtest/gtest.h>

#include <boost/json/parse.hpp>
#include <boost/json/serialize.hpp>

#include "ingest/otlp_json.h"
#include "ingest/otlp_logs.h"
#include "ingest/otlp_source.h"

namespace lqe::gateway::ingest::otlp {
namespace {

namespace json = boost::json;
namespace pb = opentelemetry::proto;

pb::common::v1::AnyValue Str(const std::string& s) {
  pb::common::v1::AnyValue v;
  v.set_string_value(s);
  return v;
}

void Add(KeyValues* to, const std::string& key, const pb::common::v1::AnyValue& value) {
  auto* kv = to->Add();
  kv->set_key(key);
  *kv->mutable_value() = value;
}

TEST(OtlpValuesTest, EveryAnyValueKindMapsToJson) {
  pb::common::v1::AnyValue v;
  EXPECT_EQ(json::serialize(ToJson(v)), "null");
  v.set_bool_value(true);
  EXPECT_EQ(json::serialize(ToJson(v)), "true");
  v.set_int_value(-9007199254740993);  // beyond a double's exact integers
  EXPECT_EQ(json::serialize(ToJson(v)), "-9007199254740993");
  v.set_double_value(2.5);
  EXPECT_EQ(json::serialize(ToJson(v)), "2.5E0");
  v.set_bytes_value(std::string("\x00\xff\x10", 3));
  EXPECT_EQ(json::serialize(ToJson(v)), R"("AP8Q")");
  v.set_string_value("héllo");
  EXPECT_EQ(json::serialize(ToJson(v)), R"("héllo")");

  pb::common::v1::AnyValue list;
  auto* array = list.mutable_array_value();
  array->add_values()->set_int_value(1);
  *array->add_values() = Str("two");
  array->add_values();  // empty: null
  auto* inner = array->add_values()->mutable_kvlist_value();
  Add(inner->mutable_values(), "a.b", Str("kvlist keys stay whole"));
  Add(inner->mutable_values(), "n", list.array_value().values(0));
  EXPECT_EQ(json::serialize(ToJson(list)),
            R"([1,"two",null,{"a.b":"kvlist keys stay whole","n":1}])");
}

TEST(OtlpValuesTest, DottedAttributeKeysNestAndConflictsKeepTheKeyWhole) {
  KeyValues attributes;
  Add(&attributes, "http.request.method", Str("GET"));
  Add(&attributes, "http.response.status_code", Str("200"));
  Add(&attributes, "user", Str("u1"));
  Add(&attributes, "user.id", Str("kept whole: user is a string"));
  Add(&attributes, "a.b", Str("1"));
  Add(&attributes, "a.b.c", Str("kept whole: a.b is a string"));
  Add(&attributes, "x..y", Str("an empty step"));
  EXPECT_EQ(json::serialize(AttributesToJson(attributes)),
            R"({"user":"u1","http":{"request":{"method":"GET"},"response":{"status_code":"200"}},)"
            R"("user.id":"kept whole: user is a string","a":{"b":"1"},)"
            R"("a.b.c":"kept whole: a.b is a string","x..y":"an empty step"})");
}

TEST(OtlpValuesTest, HexAndBase64) {
  EXPECT_EQ(Hex(std::string("\x00\x01\xab\xff", 4)), "0001abff");
  EXPECT_EQ(Hex(""), "");
  EXPECT_EQ(Base64("hello"), "aGVsbG8=");
  EXPECT_EQ(Base64(""), "");
}

TEST(OtlpJsonTest, ReadsOtlpJsonWithHexIdsAndIntegersAsText) {
  const std::string text = R"({"resourceLogs":[{
    "resource":{"attributes":[{"key":"service.name","value":{"stringValue":"auth"}}]},
    "scopeLogs":[{"scope":{"name":"lib","version":"1.2"},"logRecords":[{
      "timeUnixNano":"1700000000123456789","observedTimeUnixNano":1700000000200000000,
      "severityNumber":17,"severityText":"Error","traceId":"5B8EFFF798038103D269B633813FC60C",
      "spanId":"eee19b7ec3c1b174","flags":1,"body":{"stringValue":"boom"},
      "attributes":[{"key":"n","value":{"intValue":"-42"}},
                    {"key":"b","value":{"bytesValue":"AP8Q"}},
                    {"key":"d","value":{"doubleValue":1.5}},
                    {"key":"l","value":{"arrayValue":{"values":[{"boolValue":false}]}}},
                    {"key":"m","value":{"kvlistValue":{"values":[{"key":"k","value":{}}]}}}],
      "unknownField":{"ignored":true}}]}]}]})";
  pb::collector::logs::v1::ExportLogsServiceRequest request;
  std::string error;
  ASSERT_TRUE(ParseOtlpJson(text, &request, &error)) << error;
  const auto& record = request.resource_logs(0).scope_logs(0).log_records(0);
  EXPECT_EQ(record.time_unix_nano(), 1700000000123456789u);
  EXPECT_EQ(record.observed_time_unix_nano(), 1700000000200000000u);
  EXPECT_EQ(record.severity_number(), pb::logs::v1::SEVERITY_NUMBER_ERROR);
  EXPECT_EQ(Hex(record.trace_id()), "5b8efff798038103d269b633813fc60c");
  EXPECT_EQ(Hex(record.span_id()), "eee19b7ec3c1b174");
  EXPECT_EQ(record.flags(), 1u);
  EXPECT_EQ(record.attributes(0).value().int_value(), -42);
  EXPECT_EQ(record.attributes(1).value().bytes_value(), std::string("\x00\xff\x10", 3));
  EXPECT_EQ(json::serialize(AttributesToJson(record.attributes())),
            R"({"n":-42,"b":"AP8Q","d":1.5E0,"l":[false],"m":{"k":null}})");
  EXPECT_EQ(request.resource_logs(0).scope_logs(0).scope().version(), "1.2");
}

TEST(OtlpJsonTest, TakesProtoFieldNamesAndSeverityNames) {
  pb::collector::logs::v1::ExportLogsServiceRequest request;
  std::string error;
  ASSERT_TRUE(ParseOtlpJson(
      R"({"resource_logs":[{"scope_logs":[{"log_records":[{"time_unix_nano":5,"severity_number":"SEVERITY_NUMBER_WARN"}]}]}]})",
      &request, &error))
      << error;
  const auto& record = request.resource_logs(0).scope_logs(0).log_records(0);
  EXPECT_EQ(record.time_unix_nano(), 5u);
  EXPECT_EQ(record.severity_number(), pb::logs::v1::SEVERITY_NUMBER_WARN);
  ASSERT_TRUE(ParseOtlpJson("{}", &request, &error)) << error;
}

TEST(OtlpJsonTest, BadBodiesNameTheField) {
  auto error_of = [](const std::string& text) {
    pb::collector::logs::v1::ExportLogsServiceRequest request;
    std::string error;
    EXPECT_FALSE(ParseOtlpJson(text, &request, &error)) << text;
    return error;
  };
  const std::string prefix = R"({"resourceLogs":[{"scopeLogs":[{"logRecords":[)";
  EXPECT_EQ(error_of(prefix + R"({"traceId":"xyz"}]}]}]})"),
            "resourceLogs[0].scopeLogs[0].logRecords[0].traceId: not 32 hexadecimal digits");
  EXPECT_EQ(error_of(prefix + R"({},{"spanId":"zzzzzzzzzzzzzzzz"}]}]}]})"),
            "resourceLogs[0].scopeLogs[0].logRecords[1].spanId: not 16 hexadecimal digits");
  EXPECT_EQ(error_of(prefix + R"({"timeUnixNano":"soon"}]}]}]})"),
            "resourceLogs[0].scopeLogs[0].logRecords[0].timeUnixNano: not an integer in range");
  EXPECT_EQ(error_of(prefix + R"({"timeUnixNano":-1}]}]}]})"),
            "resourceLogs[0].scopeLogs[0].logRecords[0].timeUnixNano: not an integer in range");
  EXPECT_EQ(error_of(prefix + R"({"severityNumber":99}]}]}]})"),
            "resourceLogs[0].scopeLogs[0].logRecords[0].severityNumber: not a severity number "
            "(0-24)");
  EXPECT_EQ(error_of(prefix + R"({"body":{"intValue":1.5}}]}]}]})"),
            "resourceLogs[0].scopeLogs[0].logRecords[0].body.intValue: not an integer in range");
  EXPECT_EQ(error_of(R"({"resourceLogs":{}})"), "resourceLogs: not a JSON array");
  EXPECT_EQ(error_of("[]"), "the body: not a JSON object");
  EXPECT_EQ(error_of(R"({"resourceLogs":[)"), "malformed JSON at byte 18: incomplete JSON");
  // Deep nesting is refused by the parser, never walked.
  std::string deep;
  for (int i = 0; i < 400; ++i) deep += R"({"arrayValue":{"values":[)";
  EXPECT_NE(error_of(prefix + R"({"body":)" + deep).find("malformed JSON"), std::string::npos);
}

TEST(OtlpRecordTest, ARecordBecomesAnEventWithEveryFieldKept) {
  pb::logs::v1::ResourceLogs resource;
  Add(resource.mutable_resource()->mutable_attributes(), "service.name", Str("gotrue"));
  Add(resource.mutable_resource()->mutable_attributes(), "project", Str("default"));
  pb::logs::v1::ScopeLogs scope;
  scope.mutable_scope()->set_name("auth.handler");
  pb::logs::v1::LogRecord record;
  record.set_time_unix_nano(1700000000123456789u);
  record.set_observed_time_unix_nano(1700000001000000000u);
  record.set_severity_number(pb::logs::v1::SEVERITY_NUMBER_WARN);
  record.set_trace_id(std::string(16, '\x01'));
  record.set_span_id(std::string(8, '\x02'));
  auto* body = record.mutable_body()->mutable_kvlist_value();
  Add(body->mutable_values(), "msg", Str("structured"));
  Add(record.mutable_attributes(), "http.method", Str("GET"));
  Add(record.mutable_attributes(), "level", Str("an attribute named level"));
  json::object event = RecordToEvent(resource, scope, record);
  EXPECT_EQ(
      json::serialize(event),
      R"({"timestamp":"2023-11-14T22:13:20.123456Z","event_message":"{\"msg\":\"structured\"}",)"
      R"("project":"default","service_name":"gotrue","metadata":{"level":"warn",)"
      R"("http":{"method":"GET"},"body":{"msg":"structured"},)"
      R"("resource":{"project":"default","service":{"name":"gotrue"}},"scope":{"name":"auth.handler"},)"
      R"("severity_number":13,"otel_trace_id":"01010101010101010101010101010101",)"
      R"("otel_span_id":"0202020202020202","time_unix_nano":"1700000000123456789",)"
      R"("observed_time_unix_nano":"1700000001000000000",)"
      R"("attributes":{"level":"an attribute named level"}}})");
  // Only the observed time: it is the timestamp. Severity text kept as sent, level lower-cased.
  record.set_time_unix_nano(0);
  record.set_severity_text("ERROR");
  record.clear_body();
  record.clear_attributes();
  event = RecordToEvent(resource, scope, record);
  EXPECT_EQ(json::serialize(event.at("timestamp")), R"("2023-11-14T22:13:21.000000Z")");
  EXPECT_FALSE(event.contains("event_message"));
  EXPECT_EQ(json::serialize(event.at("metadata").at("level")), R"("error")");
  EXPECT_EQ(json::serialize(event.at("metadata").at("severity_text")), R"("ERROR")");
  EXPECT_FALSE(event.at("metadata").as_object().contains("observed_time_unix_nano"));
}

TEST(OtlpSourceTest, ServiceNamesFindTheirSource) {
  const auto sources = DefaultIngestSources();
  auto source_of = [&](std::string_view service) {
    const IngestSource* s = SourceForService(sources, service);
    return s == nullptr ? std::string("<none>") : s->name;
  };
  EXPECT_EQ(source_of("gotrue.logs.prod"), "gotrue.logs.prod");  // a source's name
  EXPECT_EQ(source_of("auth"), "gotrue.logs.prod");              // a table's name
  EXPECT_EQ(source_of("edge"), "cloudflare.logs.prod");
  EXPECT_EQ(source_of("pooler"), "pgbouncer.logs.prod");
  EXPECT_EQ(source_of("postgres"), "postgres.logs");  // Supabase's service names
  EXPECT_EQ(source_of("gotrue"), "gotrue.logs.prod");
  EXPECT_EQ(source_of("postgrest"), "postgREST.logs.prod");
  EXPECT_EQ(source_of("rest"), "postgREST.logs.prod");
  EXPECT_EQ(source_of("realtime"), "realtime.logs.prod");
  EXPECT_EQ(source_of("storage"), "storage.logs.prod.2");
  EXPECT_EQ(source_of("edge-runtime"), "deno-relay-logs");
  EXPECT_EQ(source_of("functions"), "deno-relay-logs");
  EXPECT_EQ(source_of("kong"), "cloudflare.logs.prod");
  EXPECT_EQ(source_of("supavisor"), "supavisor.logs.prod");
  EXPECT_EQ(source_of("pgbouncer"), "pgbouncer.logs.prod");
  EXPECT_EQ(source_of("my-app"), "<none>");
  EXPECT_EQ(source_of(""), "<none>");
  EXPECT_EQ(source_of("Postgres"), "<none>");  // names are exact
  // A service whose source is not configured finds none.
  std::vector<IngestSource> only_edge{{"cloudflare.logs.prod", "", "edge"}};
  EXPECT_EQ(SourceForService(only_edge, "gotrue"), nullptr);
}

}  // namespace
}  // namespace lqe::gateway::ingest::otlp
