// Redaction of long values runs in bounded stack: std::regex recursed once per character and a
// 40 KB e-mail-like run or a 50 KB fe80::%zone token overflowed the gateway's stack. Each case
// runs on a thread with a 256 KiB stack, so unbounded recursion would crash the test.
#include <gtest/gtest.h>
#include <pthread.h>

#include <functional>
#include <string>

#include "lqe/gateway/redact.h"

namespace lqe::gateway {
namespace {

constexpr std::size_t kSmallStack = 256 * 1024;

// Runs `work` to completion on a new thread whose stack is `stack_bytes`.
void RunOnSmallStack(const std::function<void()>& work, std::size_t stack_bytes = kSmallStack) {
  pthread_attr_t attr;
  ASSERT_EQ(pthread_attr_init(&attr), 0);
  ASSERT_EQ(pthread_attr_setstacksize(&attr, stack_bytes), 0);
  auto body = [](void* arg) -> void* {
    (*static_cast<const std::function<void()>*>(arg))();
    return nullptr;
  };
  pthread_t thread;
  auto* arg = const_cast<std::function<void()>*>(&work);
  ASSERT_EQ(pthread_create(&thread, &attr, body, arg), 0);
  ASSERT_EQ(pthread_join(thread, nullptr), 0);
  pthread_attr_destroy(&attr);
}

std::string RedactOnSmallStack(const std::string& text) {
  std::string out;
  RunOnSmallStack([&] { out = RedactString(text); });
  return out;
}

std::string Repeat(std::string_view piece, std::size_t times) {
  std::string out;
  out.reserve(piece.size() * times);
  for (std::size_t i = 0; i < times; ++i) out.append(piece);
  return out;
}

TEST(RedactLongTest, FortyKilobyteEmailLocalPart) {
  std::string text = "to " + std::string(40'000, 'a') + "@example.com ok";
  EXPECT_EQ(RedactOnSmallStack(text), "to REDACTED ok");
}

TEST(RedactLongTest, FortyKilobyteEmailDomain) {
  std::string text = "x@" + Repeat("b.", 20'000) + "io";
  EXPECT_EQ(RedactOnSmallStack(text), "REDACTED");
}

TEST(RedactLongTest, FortyKilobyteEmailRunThatNeverMatches) {
  // Every character is a local-part character and there are dots, but no '@'.
  std::string text = Repeat("a.b-c_d+", 5'000);
  EXPECT_EQ(RedactOnSmallStack(text), text);
  // '@'s everywhere and a dot after them, but the top-level domain is one letter long.
  std::string ats = Repeat("a@b", 14'000) + ".c";
  EXPECT_EQ(RedactOnSmallStack(ats), ats);
}

TEST(RedactLongTest, FiftyKilobyteFe80Zone) {
  std::string token = "fe80::1%" + std::string(50'000, 'z');
  EXPECT_EQ(RedactOnSmallStack("link " + token + " up"), "link REDACTED up");
  // The same token followed by a comma is not surrounded by whitespace: kept.
  EXPECT_EQ(RedactOnSmallStack(token + ","), token + ",");
}

TEST(RedactLongTest, LongHexColonTokenThatIsNoAddress) {
  std::string token = Repeat("dead:beef:", 5'000);
  EXPECT_EQ(RedactOnSmallStack(token), token);
}

TEST(RedactLongTest, TenMegabyteValueOfMixedAddresses) {
  const std::string_view line = "user 10.0.0.1 mail ann@example.org from ::1 at 12:30 v1.2.3.4\n";
  const std::string_view redacted = "user REDACTED mail REDACTED from REDACTED at 12:30 v1.2.3.4\n";
  const std::size_t times = 10'000'000 / line.size() + 1;
  EXPECT_EQ(RedactOnSmallStack(Repeat(line, times)), Repeat(redacted, times));
}

TEST(RedactLongTest, TenMegabyteRunsWithoutSeparators) {
  // One e-mail-like run, one '@'-dense run (the e-mail pre-check once searched for a dot after
  // every '@'), one run of four-digit groups and one hex-and-colon token, each 10 MB.
  std::string local = std::string(10'000'000, 'a') + "@b.co";
  EXPECT_EQ(RedactOnSmallStack(local), "REDACTED");
  std::string ats = Repeat("@", 10'000'000) + ".";
  EXPECT_EQ(RedactOnSmallStack(ats), ats);
  std::string digits = Repeat("1234.", 2'000'000);
  EXPECT_EQ(RedactOnSmallStack(digits), digits);
  std::string hex = Repeat("ab:", 3'400'000);
  EXPECT_EQ(RedactOnSmallStack(hex), hex);
}

}  // namespace
}  // namespace lqe::gateway
