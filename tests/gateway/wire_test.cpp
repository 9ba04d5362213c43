// Response heads as they go on the wire: status lines, framing headers, keep-alive per version,
// and header values that could split a response.
#include "http/wire.h"

#include <gtest/gtest.h>

#include <set>

#include "lqe/gateway/handler.h"
#include "lqe/gateway/result_cache.h"
#include "lqe_build_info.h"

namespace lqe::gateway {
namespace {

Response JsonOk(std::string body) {
  Response response;
  response.body = std::move(body);
  return response;
}

TEST(WireTest, OkHeadOnHttp11KeepAlive) {
  Response response = JsonOk(R"({"result":[]})");
  response.AddHeader("X-Cache", "HIT");
  response.AddHeader("Age", "3");
  EXPECT_EQ(SerializeHead(response, 11, true),
            "HTTP/1.1 200 OK\r\n"
            "Server: lqe/" LQE_VERSION
            "\r\n"
            "Content-Type: application/json; charset=utf-8\r\n"
            "X-Cache: HIT\r\n"
            "Age: 3\r\n"
            "Content-Length: 13\r\n"
            "\r\n");
}

TEST(WireTest, ConnectionHeaderFollowsVersionAndKeepAlive) {
  Response response = JsonOk("{}");
  EXPECT_NE(SerializeHead(response, 11, false).find("\r\nConnection: close\r\n"),
            std::string::npos);
  EXPECT_NE(SerializeHead(response, 10, true).find("\r\nConnection: keep-alive\r\n"),
            std::string::npos);
  EXPECT_EQ(SerializeHead(response, 10, true).rfind("HTTP/1.0 200 OK\r\n", 0), 0u);
  EXPECT_EQ(SerializeHead(response, 10, false).find("Connection"), std::string::npos);
  EXPECT_EQ(SerializeHead(response, 11, true).find("Connection"), std::string::npos);
}

TEST(WireTest, ReasonPhrasesOfTheStatusesLqeSends) {
  const std::pair<int, const char*> cases[] = {
      {204, "HTTP/1.1 204 No Content\r\n"},
      {400, "HTTP/1.1 400 Bad Request\r\n"},
      {401, "HTTP/1.1 401 Unauthorized\r\n"},
      {403, "HTTP/1.1 403 Forbidden\r\n"},
      {404, "HTTP/1.1 404 Not Found\r\n"},
      {413, "HTTP/1.1 413 Payload Too Large\r\n"},
      {414, "HTTP/1.1 414 URI Too Long\r\n"},
      {503, "HTTP/1.1 503 Service Unavailable\r\n"},
      {504, "HTTP/1.1 504 Gateway Timeout\r\n"},
      {500, "HTTP/1.1 500 Internal Server Error\r\n"},
      {431, "HTTP/1.1 431 Request Header Fields Too Large\r\n"},
  };
  for (const auto& [status, line] : cases) {
    Response response = JsonOk("{}");
    response.status = status;
    EXPECT_EQ(SerializeHead(response, 11, true).rfind(line, 0), 0u) << status;
  }
}

TEST(WireTest, NoContentHasNoLengthAndNoType) {
  Response response;
  response.status = 204;
  response.content_type.clear();
  response.AddHeader("Access-Control-Max-Age", "1728000");
  EXPECT_EQ(SerializeHead(response, 11, true),
            "HTTP/1.1 204 No Content\r\n"
            "Server: lqe/" LQE_VERSION
            "\r\n"
            "Access-Control-Max-Age: 1728000\r\n"
            "\r\n");
}

TEST(WireTest, GzipBodyIsLabelled) {
  Response response = JsonOk(std::string(40, 'x'));
  response.body_is_gzip = true;
  std::string head = SerializeHead(response, 11, true);
  EXPECT_NE(head.find("\r\nContent-Encoding: gzip\r\n"), std::string::npos);
  EXPECT_NE(head.find("\r\nContent-Length: 40\r\n"), std::string::npos);
}

TEST(WireTest, LineBreaksCannotSplitTheResponse) {
  Response response = JsonOk("{}");
  response.AddHeader("X-Note", "a\r\nSet-Cookie: evil=1");
  response.AddHeader("Bad\r\nName", "v");
  response.AddHeader("Bad: Name", "v");
  std::string head = SerializeHead(response, 11, true);
  EXPECT_NE(head.find("\r\nX-Note: aSet-Cookie: evil=1\r\n"), std::string::npos);
  EXPECT_EQ(head.find("\r\nSet-Cookie"), std::string::npos);
  EXPECT_EQ(head.find("Bad"), std::string::npos);
  // Exactly one blank line, at the end.
  EXPECT_EQ(head.find("\r\n\r\n"), head.size() - 4);
}

// A cached result's forms: the exact bytes after the status line, in buffers of exactly their size.
TEST(WireTest, CachedResultFormsAreTheExactBytes) {
  ResultPtr result = MakeCachedResult(R"({"result":[]})", "GZ", true);
  const std::string common =
      "Access-Control-Allow-Origin: *\r\n"
      "Access-Control-Expose-Headers: X-Cache, Age, X-Result-Truncated, Retry-After\r\n";
  EXPECT_EQ(result->plain.bytes, "Server: lqe/" LQE_VERSION
                                 "\r\n"
                                 "Content-Type: application/json; charset=utf-8\r\n"
                                 "Vary: Accept-Encoding\r\n"
                                 "X-Result-Truncated: true\r\n" +
                                     common +
                                     "Content-Length: 13\r\n"
                                     "\r\n"
                                     R"({"result":[]})");
  EXPECT_EQ(result->gzip.bytes, "Server: lqe/" LQE_VERSION
                                "\r\n"
                                "Content-Type: application/json; charset=utf-8\r\n"
                                "Content-Encoding: gzip\r\n"
                                "Vary: Accept-Encoding\r\n"
                                "X-Result-Truncated: true\r\n" +
                                    common +
                                    "Content-Length: 2\r\n"
                                    "\r\n"
                                    "GZ");
  EXPECT_EQ(result->body(), R"({"result":[]})");
  EXPECT_EQ(result->gzip_body(), "GZ");
  EXPECT_FALSE(result->plain.gzip);
  EXPECT_TRUE(result->gzip.gzip);
  EXPECT_EQ(result->plain.bytes.capacity(), result->plain.bytes.size());
  EXPECT_EQ(result->gzip.bytes.capacity(), result->gzip.bytes.size());
  EXPECT_EQ(result->Bytes(), HeapFootprint(sizeof(CachedResult) + 16) +
                                 HeapFootprint(result->plain.bytes.size() + 1) +
                                 HeapFootprint(result->gzip.bytes.size() + 1));

  ResultPtr plain_only = MakeCachedResult("{}", "", false);
  EXPECT_FALSE(plain_only->HasGzip());
  EXPECT_EQ(plain_only->gzip_body(), "");
  EXPECT_EQ(plain_only->plain.bytes, "Server: lqe/" LQE_VERSION
                                     "\r\nContent-Type: application/json; charset=utf-8\r\n" +
                                         common + "Content-Length: 2\r\n\r\n{}");
}

// A hit's head: the status line and the per-request lines, then the shared buffer; together the
// same lines and body as the response SerializeHead would have written for it.
TEST(WireTest, HitHeadHasOnlyThePerRequestLines) {
  ResultPtr result = MakeCachedResult(R"({"result":[1]})", "", false);
  Response hit;
  hit.wire = std::shared_ptr<const WireForm>(result, &result->plain);
  hit.AddHeader("X-Cache", "HIT");
  hit.AddHeader("Age", "7");
  EXPECT_EQ(SerializeHead(hit, 11, true), "HTTP/1.1 200 OK\r\nX-Cache: HIT\r\nAge: 7\r\n");
  EXPECT_EQ(SerializeHead(hit, 11, false),
            "HTTP/1.1 200 OK\r\nX-Cache: HIT\r\nAge: 7\r\nConnection: close\r\n");
  EXPECT_EQ(SerializeHead(hit, 10, true),
            "HTTP/1.0 200 OK\r\nX-Cache: HIT\r\nAge: 7\r\nConnection: keep-alive\r\n");
  std::string head = "x";
  AppendHead(hit, 11, true, head);  // appends to what the connection's buffer holds
  EXPECT_EQ(head, "xHTTP/1.1 200 OK\r\nX-Cache: HIT\r\nAge: 7\r\n");

  Response classic = JsonOk(R"({"result":[1]})");
  classic.AddHeader("X-Cache", "HIT");
  classic.AddHeader("Age", "7");
  AddCommonHeaders(classic);
  auto lines = [](std::string_view text) {
    std::multiset<std::string> out;
    for (std::size_t at = 0; at < text.size();) {
      std::size_t end = std::min(text.find("\r\n", at), text.size());
      out.emplace(text.substr(at, end - at));
      at = end + 2;
    }
    return out;
  };
  std::string wire_bytes = SerializeHead(hit, 11, false) + result->plain.bytes;
  std::string classic_bytes = SerializeHead(classic, 11, false) + classic.body;
  EXPECT_EQ(lines(wire_bytes), lines(classic_bytes));
  EXPECT_EQ(wire_bytes.size(), classic_bytes.size());
  EXPECT_EQ(wire_bytes.rfind("HTTP/1.1 200 OK\r\n", 0), 0u);
}

TEST(WireTest, HeapFootprints) {
  EXPECT_EQ(HeapFootprint(1), 32u);
  EXPECT_EQ(HeapFootprint(24), 32u);
  EXPECT_EQ(HeapFootprint(25), 48u);
  EXPECT_EQ(HeapFootprint(1000), 1008u);
  EXPECT_EQ(HeapFootprint(200000), 200704u);  // a block of its own, in whole pages
  EXPECT_EQ(StringFootprint(std::string("short")), 0u);
  std::string long_text(100, 'x');
  EXPECT_EQ(StringFootprint(long_text), HeapFootprint(long_text.capacity() + 1));
}

}  // namespace
}  // namespace lqe::gateway
