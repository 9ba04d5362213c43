// POST /v1/logs over a real socket into real PostgreSQL: OTLP/HTTP protobuf and JSON bodies,
// gzip, the source from the request or from service.name, records read back from the log tables
// and through logs.all and logs.all.otel, retries that store nothing twice, partial success, and
// the 4xx answers for bodies and resources that cannot be taken.
#include <gtest/gtest.h>
#include <libdeflate.h>

#include <boost/json/parse.hpp>
#include <boost/json/serialize.hpp>
#include <chrono>

#include "config_server.h"
#include "lqe/otlp/logs_service.pb.h"
#include "server_fixture.h"

namespace lqe::gateway {
namespace {

using namespace testing;  // NOLINT(google-build-using-namespace): test helpers only
namespace json = boost::json;
namespace pb = opentelemetry::proto;

constexpr const char* kKey = "otlp-key";
constexpr const char* kEdgeOnlyKey = "edge-only-key";

std::string Gzip(const std::string& data) {
  libdeflate_compressor* c = libdeflate_alloc_compressor(6);
  std::string out(libdeflate_gzip_compress_bound(c, data.size()), '\0');
  out.resize(libdeflate_gzip_compress(c, data.data(), data.size(), out.data(), out.size()));
  libdeflate_free_compressor(c);
  return out;
}

std::uint64_t NanosAgo(int seconds) {
  const auto t = std::chrono::system_clock::now() - std::chrono::seconds(seconds);
  return static_cast<std::uint64_t>(
      std::chrono::duration_cast<std::chrono::nanoseconds>(t.time_since_epoch()).count());
}

void Attribute(google::protobuf::RepeatedPtrField<pb::common::v1::KeyValue>* to,
               const std::string& key, const std::string& value) {
  auto* kv = to->Add();
  kv->set_key(key);
  kv->mutable_value()->set_string_value(value);
}

pb::logs::v1::ResourceLogs* AddResource(pb::collector::logs::v1::ExportLogsServiceRequest* request,
                                        const std::string& service) {
  auto* resource = request->add_resource_logs();
  Attribute(resource->mutable_resource()->mutable_attributes(), "service.name", service);
  Attribute(resource->mutable_resource()->mutable_attributes(), "project", "default");
  resource->add_scope_logs()->mutable_scope()->set_name("otel-test");
  return resource;
}

pb::logs::v1::LogRecord* AddRecord(pb::logs::v1::ResourceLogs* resource, const std::string& body,
                                   std::uint64_t nanos) {
  auto* record = resource->mutable_scope_logs(0)->add_log_records();
  record->set_time_unix_nano(nanos);
  record->mutable_body()->set_string_value(body);
  return record;
}

class OtlpIngestTest : public ConfigServerTest {
 protected:
  OtlpIngestTest() : ConfigServerTest("otlp_ingest", kKey) {}

  std::string Config() const override {
    return ServerYaml(QueryDsn()) + CatalogueYaml() + "ingest:\n  dsn: " + WriterDsn() +
           "\n  max_body_bytes: 65536\n  max_decompressed_bytes: 1048576\n" + IngestSourcesYaml() +
           "api_keys:\n" + ApiKeyYaml("shipper", kKey, "['*']", "['*']") +
           ApiKeyYaml("edge-only", kEdgeOnlyKey, "[]", "[cloudflare.logs.prod]") +
           ShippedEndpointsYaml();
  }

  HttpResult Post(const std::string& body, const std::string& type,
                  std::map<std::string, std::string> headers = {},
                  const std::string& target = "/v1/logs") {
    if (!headers.contains("x-api-key")) headers["x-api-key"] = kKey;
    if (!type.empty()) headers["Content-Type"] = type;
    return Fetch(Port(), target, headers, "POST", body);
  }

  HttpResult PostProto(const pb::collector::logs::v1::ExportLogsServiceRequest& request,
                       std::map<std::string, std::string> headers = {}) {
    return Post(request.SerializeAsString(), "application/x-protobuf", std::move(headers));
  }

  json::array Query(const std::string& endpoint, const std::string& sql) {
    return SqlRows(endpoint, "default", sql);
  }
};

TEST_F(OtlpIngestTest, ProtobufRecordsAreStoredAndReadBackThroughLogsAllAndOtel) {
  pb::collector::logs::v1::ExportLogsServiceRequest request;
  auto* auth = AddResource(&request, "gotrue");
  const std::uint64_t at = NanosAgo(5) / 1000 * 1000 + 789;  // sub-microsecond digits too
  auto* record = AddRecord(auth, "token refreshed", at);
  record->set_severity_text("Warn");
  record->set_severity_number(pb::logs::v1::SEVERITY_NUMBER_WARN);
  record->set_trace_id(
      std::string("\x5b\x8e\xff\xf7\x98\x03\x81\x03\xd2\x69\xb6\x33\x81\x3f\xc6\x0c", 16));
  record->set_span_id(std::string("\xee\xe1\x9b\x7e\xc3\xc1\xb1\x74", 8));
  Attribute(record->mutable_attributes(), "http.request.method", "POST");
  auto* count = record->add_attributes();
  count->set_key("retries");
  count->mutable_value()->set_int_value(3);
  // Only an observed time, and a structured body.
  auto* observed = auth->mutable_scope_logs(0)->add_log_records();
  observed->set_observed_time_unix_nano(NanosAgo(7));
  observed->mutable_body()->mutable_kvlist_value()->add_values()->set_key("empty");
  auto* kv = observed->mutable_body()->mutable_kvlist_value()->add_values();
  kv->set_key("user");
  kv->mutable_value()->set_string_value("u1");
  observed->set_severity_number(pb::logs::v1::SEVERITY_NUMBER_ERROR);
  AddRecord(AddResource(&request, "postgres"), "checkpoint complete", NanosAgo(6));

  HttpResult r = PostProto(request);
  ASSERT_EQ(r.status, 200) << r.body;
  EXPECT_EQ(r.Header("content-type"), "application/x-protobuf");
  pb::collector::logs::v1::ExportLogsServiceResponse answer;
  ASSERT_TRUE(answer.ParseFromString(r.body));
  EXPECT_FALSE(answer.has_partial_success());
  EXPECT_EQ(Count("auth"), 2);
  EXPECT_EQ(Count("postgres"), 1);

  const std::string row = "FROM logs.auth WHERE event_message = 'token refreshed'";
  EXPECT_EQ(One("SELECT project " + row), "default");
  EXPECT_EQ(One("SELECT (extract(epoch FROM timestamp) * 1000000)::bigint " + row),
            std::to_string(at / 1000));
  EXPECT_EQ(One("SELECT metadata::text " + row),
            R"({"http": {"request": {"method": "POST"}}, "level": "warn", "scope": {"name": )"
            R"("otel-test"}, "retries": 3, "resource": {"project": "default", "service": )"
            R"({"name": "gotrue"}}, "otel_span_id": "eee19b7ec3c1b174", )"
            R"("otel_trace_id": "5b8efff798038103d269b633813fc60c", "severity_text": "Warn", )"
            R"("time_unix_nano": ")" +
                std::to_string(at) + R"(", "severity_number": 13})");
  EXPECT_EQ(One("SELECT extra::text " + row), R"({"service_name": "gotrue"})");
  const std::string structured = "FROM logs.auth WHERE metadata->'body'->>'user' = 'u1'";
  EXPECT_EQ(One("SELECT event_message " + structured), R"({"empty":null,"user":"u1"})");
  EXPECT_EQ(One("SELECT metadata->>'level' " + structured), "error");
  EXPECT_EQ(One("SELECT (extract(epoch FROM timestamp) * 1000000)::bigint " + structured),
            std::to_string(observed->observed_time_unix_nano() / 1000));

  json::array all = Query("logs.all",
                          "select a.event_message, m.level from auth_logs as a cross join "
                          "unnest(a.metadata) as m order by a.timestamp desc");
  ASSERT_EQ(all.size(), 2u);
  EXPECT_EQ(json::serialize(all[0]), R"({"event_message":"token refreshed","level":"warn"})");
  all = Query("logs.all", "select event_message from postgres_logs");
  ASSERT_EQ(all.size(), 1u);
  EXPECT_EQ(json::serialize(all[0]), R"({"event_message":"checkpoint complete"})");

  json::array otel = Query(
      "logs.all.otel",
      "SELECT source, severity_text, severity_number, service_name, trace_id, span_id, "
      "log_attributes['http.request.method'] AS method, log_attributes['retries'] AS retries, "
      "log_attributes['resource.service.name'] AS resource_service FROM logs "
      "WHERE event_message = 'token refreshed'");
  ASSERT_EQ(otel.size(), 1u);
  EXPECT_EQ(json::serialize(otel[0]),
            R"({"method":"POST","resource_service":"gotrue","retries":"3",)"
            R"("service_name":"gotrue","severity_number":13,"severity_text":"WARN",)"
            R"("source":"auth_logs","span_id":"eee19b7ec3c1b174",)"
            R"("trace_id":"5b8efff798038103d269b633813fc60c"})");
}

TEST_F(OtlpIngestTest, JsonAndGzipBodiesAndTheRequestsSourceWins) {
  const std::string body = R"({"resourceLogs":[{"resource":{"attributes":[
      {"key":"service.name","value":{"stringValue":"an-unknown-service"}},
      {"key":"project","value":{"stringValue":"default"}}]},
    "scopeLogs":[{"logRecords":[{"timeUnixNano":")" +
                           std::to_string(NanosAgo(3)) +
                           R"(","severityText":"INFO","traceId":"0102030405060708090a0b0c0d0e0f10",
      "spanId":"0102030405060708","body":{"stringValue":"GET /rest/v1/t 200"},
      "attributes":[{"key":"status","value":{"intValue":"200"}}]}]}]}]})";
  HttpResult r = Post(body, "application/json", {{"x-source", "cloudflare.logs.prod"}},
                      "/v1/logs?source_name=cloudflare.logs.prod");
  ASSERT_EQ(r.status, 200) << r.body;
  EXPECT_EQ(r.Header("content-type"), "application/json; charset=utf-8");
  EXPECT_EQ(r.body, "{}");
  r = Post(Gzip(body), "application/json; charset=utf-8", {{"Content-Encoding", "gzip"}},
           "/v1/logs?source_name=postgres.logs");
  ASSERT_EQ(r.status, 200) << r.body;
  EXPECT_EQ(Count("edge"), 1);
  EXPECT_EQ(Count("postgres"), 1);
  EXPECT_EQ(One("SELECT metadata->>'otel_trace_id' FROM logs.edge"),
            "0102030405060708090a0b0c0d0e0f10");
  EXPECT_EQ(One("SELECT metadata->'status' FROM logs.postgres"), "200");
  // Protobuf, gzip'd.
  pb::collector::logs::v1::ExportLogsServiceRequest request;
  AddRecord(AddResource(&request, "kong"), "proto gzip", NanosAgo(2));
  r = Post(Gzip(request.SerializeAsString()), "application/x-protobuf",
           {{"Content-Encoding", "gzip"}});
  ASSERT_EQ(r.status, 200) << r.body;
  EXPECT_EQ(Count("edge"), 2);
}

TEST_F(OtlpIngestTest, ARetriedBodyStoresNothingTwice) {
  pb::collector::logs::v1::ExportLogsServiceRequest request;
  auto* resource = AddResource(&request, "auth");
  const std::uint64_t at = NanosAgo(4);
  AddRecord(resource, "same", at);
  AddRecord(resource, "same", at);  // two identical records are two events
  AddRecord(AddResource(&request, "edge"), "other table", at);
  for (int i = 0; i < 3; ++i) {
    HttpResult r = PostProto(request);
    ASSERT_EQ(r.status, 200) << r.body;
  }
  EXPECT_EQ(Count("auth"), 2);
  EXPECT_EQ(Count("edge"), 1);
  const std::string json_body =
      R"({"resourceLogs":[{"resource":{"attributes":[{"key":"service.name","value":{"stringValue":"auth"}}]},"scopeLogs":[{"logRecords":[{"timeUnixNano":")" +
      std::to_string(at) + R"(","body":{"stringValue":"json"}}]}]}]})";
  for (int i = 0; i < 2; ++i) ASSERT_EQ(Post(json_body, "application/json").status, 200);
  EXPECT_EQ(Count("auth"), 3);
}

TEST_F(OtlpIngestTest, RecordsThatCannotBeStoredArePartialSuccess) {
  pb::collector::logs::v1::ExportLogsServiceRequest request;
  auto* resource = AddResource(&request, "auth");
  AddRecord(resource, "fine", NanosAgo(1));
  AddRecord(resource, "far future", 7258118400000000000u);  // 2200-01-01
  AddRecord(resource, std::string("nul \0 inside", 12), NanosAgo(1));
  HttpResult r = PostProto(request);
  ASSERT_EQ(r.status, 200) << r.body;
  pb::collector::logs::v1::ExportLogsServiceResponse answer;
  ASSERT_TRUE(answer.ParseFromString(r.body));
  EXPECT_EQ(answer.partial_success().rejected_log_records(), 2);
  EXPECT_NE(
      answer.partial_success().error_message().find("resourceLogs[0].scopeLogs[0].logRecords[1]: "),
      std::string::npos)
      << answer.partial_success().error_message();
  EXPECT_EQ(Count("auth"), 1);
  // The same in JSON: the answer is OTLP/JSON.
  const std::string body =
      R"({"resourceLogs":[{"resource":{"attributes":[{"key":"service.name","value":{"stringValue":"auth"}}]},"scopeLogs":[{"logRecords":[{"timeUnixNano":"7258118400000000000"}]}]}]})";
  r = Post(body, "application/json");
  ASSERT_EQ(r.status, 200) << r.body;
  json::value parsed = json::parse(r.body);
  EXPECT_EQ(parsed.at("partialSuccess").at("rejectedLogRecords"), "1") << r.body;
}

TEST_F(OtlpIngestTest, BadRequestsGetAClear4xxAndStoreNothing) {
  auto expect = [](const HttpResult& r, int status, const std::string& reason,
                   const std::string& in_message) {
    EXPECT_EQ(r.status, status) << r.body;
    EXPECT_EQ(ErrorReason(r), reason) << r.body;
    EXPECT_NE(ErrorMessage(r).find(in_message), std::string::npos) << r.body;
  };
  expect(Post("\x0a\xff\xff\xff", "application/x-protobuf"), 400, "bad_protobuf",
         "not an OTLP ExportLogsServiceRequest in protobuf");
  expect(Post(R"({"resourceLogs":[{"scopeLogs":[{"logRecords":[{"spanId":"12"}]}]}]})",
              "application/json"),
         400, "bad_json", "resourceLogs[0].scopeLogs[0].logRecords[0].spanId: not 16 hexadecimal");
  expect(Post("{", "application/json"), 400, "bad_json", "malformed JSON");
  expect(Post("{}", "text/plain"), 415, "unsupported_media_type",
         "send application/x-protobuf or application/json");
  expect(Post("{}", ""), 415, "unsupported_media_type", "(none)");
  expect(Post("not gzip", "application/json", {{"Content-Encoding", "gzip"}}), 400, "bad_encoding",
         "not valid gzip");
  expect(Post("{}", "application/json", {{"Content-Encoding", "br"}}), 400, "unsupported_encoding",
         "br");
  expect(Post(Gzip(std::string(2 << 20, ' ')), "application/json", {{"Content-Encoding", "gzip"}}),
         413, "body_too_large", "1048576 bytes");
  EXPECT_EQ(Post(std::string(70000, ' '), "application/json").status, 413);

  // A service.name that names no source makes one only for a key that may send anywhere, and
  // only a name a source can have; a known source beside it stores nothing either.
  pb::collector::logs::v1::ExportLogsServiceRequest request;
  AddRecord(AddResource(&request, "billing-worker"), "unknown", NanosAgo(1));
  expect(PostProto(request, {{"x-api-key", kEdgeOnlyKey}}), 401, "source_not_allowed",
         "billing-worker");
  pb::collector::logs::v1::ExportLogsServiceRequest too_long;
  AddRecord(AddResource(&too_long, "gotrue"), "known", NanosAgo(1));
  AddRecord(AddResource(&too_long, std::string(300, 'w')), "unknown", NanosAgo(1));
  expect(PostProto(too_long), 400, "unknown_source", "a source name must be 1 to 256 bytes");
  EXPECT_EQ(One("SELECT count(*) FROM lqe_admin.sources WHERE NOT read_only"), "0");
  pb::collector::logs::v1::ExportLogsServiceRequest nameless;
  auto* no_service = nameless.add_resource_logs();
  no_service->add_scope_logs();
  AddRecord(no_service, "x", NanosAgo(1));
  expect(PostProto(nameless), 400, "unknown_source",
         "resourceLogs[0] has no service.name resource attribute");

  // Keys: none, and one that may not write the source its service names.
  pb::collector::logs::v1::ExportLogsServiceRequest auth_only;
  AddRecord(AddResource(&auth_only, "gotrue"), "x", NanosAgo(1));
  EXPECT_EQ(PostProto(auth_only, {{"x-api-key", "wrong"}}).status, 401);
  expect(PostProto(auth_only, {{"x-api-key", kEdgeOnlyKey}}), 401, "source_not_allowed",
         "gotrue.logs.prod");
  EXPECT_EQ(Fetch(Port(), "/v1/logs", {{"x-api-key", kKey}}).status, 405);
  EXPECT_EQ(Count("auth"), 0);
  EXPECT_EQ(Count("edge"), 0);
  // A request without records is a success that stores nothing.
  HttpResult r = Post("{}", "application/json");
  EXPECT_EQ(r.status, 200) << r.body;
  EXPECT_EQ(r.body, "{}");
}

// A service.name that names no source gets a source of its own, with a log table the ingest
// role may write: listed by /api/sources, written to the audit log under the key, taken again by
// later requests, and capped by lqe.max_created_sources.
TEST_F(OtlpIngestTest, AnUnknownServiceGetsASourceOfItsOwn) {
  pb::collector::logs::v1::ExportLogsServiceRequest request;
  AddRecord(AddResource(&request, "billing-worker"), "invoice sent", NanosAgo(2));
  AddRecord(AddResource(&request, "gotrue"), "known", NanosAgo(2));
  HttpResult r = PostProto(request);
  ASSERT_EQ(r.status, 200) << r.body;
  const std::string table =
      One("SELECT log_table FROM lqe_admin.sources WHERE name = 'billing-worker'");
  ASSERT_EQ(table.rfind("source_", 0), 0u) << table;
  EXPECT_EQ(One("SELECT event_message FROM logs." + table), "invoice sent");
  EXPECT_EQ(One("SELECT extra->>'service_name' FROM logs." + table), "billing-worker");
  EXPECT_EQ(Count("auth"), 1);
  EXPECT_EQ(One("SELECT key_name || ' ' || action FROM lqe_admin.audit_log "
                "WHERE object_type = 'source'"),
            "shipper create");
  // Again, once the gateway lists it and before: one source, every record kept.
  for (int i = 0; i < 3; ++i) {
    pb::collector::logs::v1::ExportLogsServiceRequest again;
    AddRecord(AddResource(&again, "billing-worker"), "again " + std::to_string(i), NanosAgo(1));
    ASSERT_EQ(PostProto(again).status, 200);
    std::this_thread::sleep_for(std::chrono::milliseconds(700));
  }
  EXPECT_EQ(Count(table), 4);
  EXPECT_EQ(One("SELECT count(*) FROM lqe_admin.sources WHERE NOT read_only"), "1");

  // The cap: one more service is refused with its reason, and stores nothing.
  {
    pqxx::connection conn(db_.dsn());
    pqxx::nontransaction tx(conn);
    tx.exec("ALTER DATABASE " + tx.quote_name(db_.name()) + " SET lqe.max_created_sources = 1");
  }
  pb::collector::logs::v1::ExportLogsServiceRequest capped;
  AddRecord(AddResource(&capped, "mailer"), "x", NanosAgo(1));
  r = PostProto(capped);
  EXPECT_EQ(r.status, 422) << r.body;
  EXPECT_EQ(ErrorReason(r), "source_limit") << r.body;
  EXPECT_NE(ErrorMessage(r).find("at most 1 sources may be created"), std::string::npos) << r.body;
  EXPECT_EQ(One("SELECT count(*) FROM lqe_admin.sources WHERE NOT read_only"), "1");
}

}  // namespace
}  // namespace lqe::gateway
