// The web console over a real socket: keep-alive across 200 and 304 answers, gzip, and HEAD,
// whose head announces the GET's length and sends no body (the next request on the connection
// gets its own answer).
#include <gtest/gtest.h>

#include <fstream>
#include <sstream>

#include "server_fixture.h"
#include "support/test_database.h"

namespace lqe::gateway {
namespace {

using namespace testing;  // NOLINT(google-build-using-namespace): test helpers only

// A console file as the source tree holds it (the binary embeds these bytes).
std::string AssetText(const std::string& name) {
  std::ifstream in(std::string(LQE_GATEWAY_TEST_DIR) + "/../../gateway/assets/console/" + name,
                   std::ios::binary);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

class ConsoleHttpTest : public ::testing::Test {
 protected:
  void SetUp() override { CreateLogs(db_.dsn()); }
  lqe::testing::TestDatabase db_{"console"};
  std::shared_ptr<Metrics> metrics_ = std::make_shared<Metrics>();
};

TEST_F(ConsoleHttpTest, ServesRevalidatesAndKeepsTheConnection) {
  RunningServer s(TestState(db_.dsn(), metrics_.get()), metrics_);
  HttpConnection c(s.port());
  HttpResult index = c.Send("GET", "/", {{"Accept-Encoding", "gzip"}});
  ASSERT_EQ(index.status, 200) << index.error;
  EXPECT_EQ(index.Header("content-encoding"), "gzip");
  EXPECT_LT(index.body.size(), AssetText("index.html").size());
  HttpResult again =
      c.Send("GET", "/", {{"Accept-Encoding", "gzip"}, {"If-None-Match", index.Header("etag")}});
  EXPECT_EQ(again.status, 304) << again.error;
  EXPECT_TRUE(again.body.empty());
  HttpResult script = c.Send("GET", "/console/app.js");
  ASSERT_EQ(script.status, 200) << script.error;
  EXPECT_EQ(script.body, AssetText("app.js"));
  EXPECT_EQ(script.Header("content-type"), "text/javascript; charset=utf-8");
  EXPECT_EQ(c.Send("GET", "/console/missing.js").status, 404);
  EXPECT_EQ(c.Send("GET", "/health").status, 200);  // the same connection, still in step
}

TEST_F(ConsoleHttpTest, HeadSendsNoBody) {
  RunningServer s(TestState(db_.dsn(), metrics_.get()), metrics_);
  RawConnection c(s.port());
  ASSERT_TRUE(c.Connected());
  c.Send(
      "HEAD / HTTP/1.1\r\nHost: x\r\n\r\n"
      "GET /health HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n");
  std::string bytes = c.ReadAll();
  std::size_t blank = bytes.find("\r\n\r\n");
  ASSERT_NE(blank, std::string::npos) << bytes;
  std::string head = bytes.substr(0, blank);
  EXPECT_EQ(StatusOf(head), 200) << head;
  EXPECT_NE(head.find("\r\nContent-Length: " + std::to_string(AssetText("index.html").size())),
            std::string::npos)
      << head;
  std::string next = bytes.substr(blank + 4);
  EXPECT_EQ(StatusOf(next), 200) << next;
  EXPECT_EQ(BodyOf(next), R"({"status":"ok"})");
}

}  // namespace
}  // namespace lqe::gateway
