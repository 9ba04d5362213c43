// The web console's files: served at / and /console/<file> from the binary, gzip-compressed when
// accepted, revalidated by strong ETag, with security headers; HEAD, 405 and 404.
#include <gtest/gtest.h>
#include <libdeflate.h>

#include <regex>
#include <set>

#include "console/embedded_assets.h"
#include "lqe/gateway/handler.h"
#include "support.h"

namespace lqe::gateway {
namespace {

using namespace testing;  // NOLINT(google-build-using-namespace): test helpers only

std::string Gunzip(std::string_view data, std::size_t size) {
  std::string out(size, '\0');
  libdeflate_decompressor* d = libdeflate_alloc_decompressor();
  std::size_t got = 0;
  auto result =
      libdeflate_gzip_decompress(d, data.data(), data.size(), out.data(), out.size(), &got);
  libdeflate_free_decompressor(d);
  if (result != LIBDEFLATE_SUCCESS) return "<not gzip>";
  out.resize(got);
  return out;
}

std::string_view AssetText(std::string_view name) {
  for (const auto& a : console::EmbeddedAssets()) {
    if (a.name == name) return a.data;
  }
  return {};
}

class ConsoleTest : public ::testing::Test {
 protected:
  void SetUp() override { context_.state = MakeState({}); }
  Response Send(const std::string& method, const std::string& target,
                std::map<std::string, std::string, std::less<>> headers = {}) {
    Request r;
    r.method = method;
    r.target = target;
    r.headers = std::move(headers);
    return Handle(r, context_);
  }
  Context context_;
};

TEST_F(ConsoleTest, RootServesTheIndexWithSecurityHeaders) {
  Response r = Send("GET", "/");
  ASSERT_EQ(r.status, 200);
  EXPECT_EQ(r.Body(), AssetText("index.html"));
  EXPECT_NE(r.Body().find("<title>lqe console</title>"), std::string_view::npos);
  EXPECT_EQ(Header(r, "Content-Type"), "text/html; charset=utf-8");
  std::string csp = Header(r, "Content-Security-Policy");
  EXPECT_NE(csp.find("script-src 'self'"), std::string::npos) << csp;
  EXPECT_EQ(csp.find("unsafe-inline"), std::string::npos) << csp;
  EXPECT_EQ(csp.find("unsafe-eval"), std::string::npos) << csp;
  EXPECT_EQ(Header(r, "X-Content-Type-Options"), "nosniff");
  EXPECT_EQ(Header(r, "Referrer-Policy"), "no-referrer");
  EXPECT_EQ(Header(r, "Cache-Control"), "no-cache");
  EXPECT_EQ(Header(r, "Vary"), "Accept-Encoding");
  EXPECT_TRUE(std::regex_match(Header(r, "ETag"), std::regex(R"("[0-9a-f]{32}")")))
      << Header(r, "ETag");
  EXPECT_EQ(Header(r, "Content-Length"), std::to_string(r.Body().size()));
  // /console and /console/ are the same page.
  EXPECT_EQ(Send("GET", "/console").Body(), r.Body());
  EXPECT_EQ(Send("GET", "/console/?x=1").Body(), r.Body());
}

TEST_F(ConsoleTest, EveryFileHasItsTypeAndGzipWhenAccepted) {
  for (const auto& asset : console::EmbeddedAssets()) {
    std::string target = "/console/" + std::string(asset.name);
    Response plain = Send("GET", target);
    ASSERT_EQ(plain.status, 200) << target;
    EXPECT_EQ(plain.Body(), asset.data) << target;
    EXPECT_EQ(Header(plain, "Content-Type"), asset.content_type) << target;
    EXPECT_EQ(Header(plain, "Content-Encoding"), "<absent>") << target;
    Response zipped = Send("GET", target, {{"accept-encoding", "gzip, deflate"}});
    ASSERT_EQ(zipped.status, 200);
    EXPECT_EQ(Header(zipped, "Content-Encoding"), "gzip") << target;
    EXPECT_LT(zipped.Body().size(), asset.data.size()) << target;
    EXPECT_EQ(Gunzip(zipped.Body(), asset.data.size()), asset.data) << target;
    // Different bytes, different strong ETags.
    EXPECT_NE(Header(zipped, "ETag"), Header(plain, "ETag"));
  }
  EXPECT_EQ(Header(Send("GET", "/console/app.js"), "Content-Type"),
            "text/javascript; charset=utf-8");
  EXPECT_EQ(Header(Send("GET", "/console/console.css"), "Content-Type"), "text/css; charset=utf-8");
}

TEST_F(ConsoleTest, IfNoneMatchRevalidatesWithoutABody) {
  for (const std::string encoding : {"", "gzip"}) {
    Response first = Send("GET", "/", {{"accept-encoding", encoding}});
    std::string etag = Header(first, "ETag");
    Response again =
        Send("GET", "/", {{"accept-encoding", encoding}, {"if-none-match", "\"x\", " + etag}});
    EXPECT_EQ(again.status, 304) << encoding;
    EXPECT_TRUE(again.Body().empty());
    EXPECT_EQ(Header(again, "ETag"), etag);
    EXPECT_EQ(Header(again, "Content-Security-Policy"), Header(first, "Content-Security-Policy"));
    EXPECT_EQ(
        Send("GET", "/", {{"accept-encoding", encoding}, {"if-none-match", "W/" + etag}}).status,
        304);
    EXPECT_EQ(
        Send("GET", "/", {{"accept-encoding", encoding}, {"if-none-match", "\"other\""}}).status,
        200);
  }
  // The ETag of one encoding does not revalidate the other.
  std::string plain_etag = Header(Send("GET", "/"), "ETag");
  EXPECT_EQ(Send("GET", "/", {{"accept-encoding", "gzip"}, {"if-none-match", plain_etag}}).status,
            200);
}

TEST_F(ConsoleTest, HeadHasTheHeadersAndNoBody) {
  Response get = Send("GET", "/console/logs.js", {{"accept-encoding", "gzip"}});
  Response head = Send("HEAD", "/console/logs.js", {{"accept-encoding", "gzip"}});
  ASSERT_EQ(head.status, 200);
  EXPECT_TRUE(head.Body().empty());
  ASSERT_TRUE(head.wire);
  EXPECT_EQ(head.wire->bytes.size(), head.wire->body_offset);  // nothing after the blank line
  EXPECT_EQ(Header(head, "Content-Length"), std::to_string(get.Body().size()));
  EXPECT_EQ(Header(head, "ETag"), Header(get, "ETag"));
  Response missing = Send("HEAD", "/console/nope.js");
  EXPECT_EQ(missing.status, 404);
  EXPECT_TRUE(missing.Body().empty());
  EXPECT_NE(Header(missing, "Content-Length"), "0");
}

TEST_F(ConsoleTest, OtherMethodsAndUnknownFilesAreRefused) {
  for (const char* method : {"POST", "PUT", "DELETE", "OPTIONS"}) {
    Response r = Send(method, "/");
    EXPECT_EQ(r.status, 405) << method;
    EXPECT_EQ(Header(r, "Allow"), "GET, HEAD") << method;
  }
  EXPECT_EQ(Send("POST", "/console/app.js").status, 405);
  for (const char* target : {"/console/nope.js", "/console/../index.html", "/console/sub/app.js",
                             "/console/index.html/"}) {
    Response r = Send("GET", target);
    EXPECT_EQ(r.status, 404) << target;
    EXPECT_NE(r.Body().find("\"not_found\""), std::string_view::npos) << r.Body();
  }
  EXPECT_EQ(Send("GET", "/index.html").status, 404);  // only / and /console/ are the console's
  context_.admin_listener = true;                     // the admin listener serves no console
  EXPECT_EQ(Send("GET", "/").status, 404);
}

// The budget, and an index that references only files the binary holds, with no inline script.
TEST(ConsoleAssetsTest, SmallSelfContainedAndComplete) {
  std::size_t total = 0;
  for (const auto& asset : console::EmbeddedAssets()) total += asset.data.size();
  EXPECT_LT(total, 200U * 1024U);
  std::string index(AssetText("index.html"));
  ASSERT_FALSE(index.empty());
  std::set<std::string> names;
  for (const auto& asset : console::EmbeddedAssets()) names.emplace(asset.name);
  std::regex reference(R"re((?:src|href)="/console/([^"]+)")re");
  int references = 0;
  for (std::sregex_iterator it(index.begin(), index.end(), reference), end; it != end; ++it) {
    EXPECT_TRUE(names.contains((*it)[1].str())) << (*it)[1].str();
    ++references;
  }
  EXPECT_GE(references, 2);
  EXPECT_FALSE(std::regex_search(index, std::regex(R"(<script(?![^>]*\bsrc=)[^>]*>)")));
  EXPECT_EQ(index.find(" style="), std::string::npos);
  EXPECT_EQ(index.find("http://"), std::string::npos);  // no CDN, no external font
  EXPECT_EQ(index.find("https://"), std::string::npos);
  // Modules import each other by relative name: every one is embedded.
  std::regex import(R"re(from '\./([^']+)')re");
  for (const auto& asset : console::EmbeddedAssets()) {
    std::string text(asset.data);
    for (std::sregex_iterator it(text.begin(), text.end(), import), end; it != end; ++it) {
      EXPECT_TRUE(names.contains((*it)[1].str())) << asset.name << " imports " << (*it)[1].str();
    }
  }
}

}  // namespace
}  // namespace lqe::gateway
