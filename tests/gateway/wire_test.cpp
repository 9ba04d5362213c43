// Response heads as they go on the wire: status lines, framing headers, keep-alive per version,
// and header values that could split a response.
#include "http/wire.h"

#include <gtest/gtest.h>

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
            "Server: lqe\r\n"
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
            "Server: lqe\r\n"
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

}  // namespace
}  // namespace lqe::gateway
