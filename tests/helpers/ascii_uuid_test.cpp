// Locale-free ASCII helpers and the UUID text check.
#include <gtest/gtest.h>

#include "lqe/base/ascii.h"
#include "lqe/base/uuid.h"

namespace lqe {
namespace {

TEST(AsciiTest, ClassesAndCase) {
  EXPECT_TRUE(ascii::IsDigit('7'));
  EXPECT_FALSE(ascii::IsDigit('a'));
  EXPECT_EQ(ascii::HexValue('F'), 15);
  EXPECT_EQ(ascii::HexValue('g'), -1);
  EXPECT_TRUE(ascii::IsAlpha('Z'));
  EXPECT_FALSE(ascii::IsAlpha('\xC3'));  // a UTF-8 lead byte is not a letter
  EXPECT_TRUE(ascii::IsSpace('\t'));
  EXPECT_FALSE(ascii::IsSpace('_'));
  EXPECT_EQ(ascii::ToLower('Q'), 'q');
  EXPECT_EQ(ascii::ToUpper('q'), 'Q');
  EXPECT_EQ(ascii::ToLower('\xC9'), '\xC9');
  EXPECT_EQ(ascii::Lower("Logs.ALL-1"), "logs.all-1");
  EXPECT_EQ(ascii::Upper("select"), "SELECT");
  EXPECT_TRUE(ascii::EqualsIgnoreCase("Edge_Logs", "EDGE_logs"));
  EXPECT_FALSE(ascii::EqualsIgnoreCase("edge", "edges"));
  EXPECT_FALSE(ascii::EqualsIgnoreCase("\xC9", "\xE9"));  // ASCII only
}

TEST(UuidTest, TextForm) {
  EXPECT_TRUE(IsUuid("6f1f5a2e-2b5d-4a47-9c36-0f2a8d7b1c01"));
  EXPECT_TRUE(IsUuid("6F1F5A2E-2B5D-4A47-9C36-0F2A8D7B1C01"));
  EXPECT_FALSE(IsUuid("6f1f5a2e2b5d4a479c360f2a8d7b1c01"));
  EXPECT_FALSE(IsUuid("6f1f5a2e-2b5d-4a47-9c36-0f2a8d7b1c0"));
  EXPECT_FALSE(IsUuid("6f1f5a2e-2b5d-4a47-9c36-0f2a8d7b1c0g"));
  EXPECT_FALSE(IsUuid("6f1f5a2e+2b5d-4a47-9c36-0f2a8d7b1c01"));
  EXPECT_FALSE(IsUuid("logs.all"));
}

}  // namespace
}  // namespace lqe
