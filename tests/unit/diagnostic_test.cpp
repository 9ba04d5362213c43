#include "lqe/diagnostic.h"

#include <gtest/gtest.h>

namespace lqe {
namespace {

TEST(DiagnosticTest, LocatesLinesAcrossLineEndingStyles) {
  EXPECT_EQ(LocateOffset("abc", 0).line, 1u);
  EXPECT_EQ(LocateOffset("abc", 2).column, 3u);
  const std::string_view text = "a\nbc\r\nd\re";
  EXPECT_EQ(LocateOffset(text, 3).line, 2u);
  EXPECT_EQ(LocateOffset(text, 3).column, 2u);
  EXPECT_EQ(LocateOffset(text, 6).line, 3u);
  EXPECT_EQ(LocateOffset(text, 6).column, 1u);
  EXPECT_EQ(LocateOffset(text, 8).line, 4u);
}

TEST(DiagnosticTest, ColumnsCountCodePoints) {
  // "é" is two bytes; the error at byte 3 ('x') is column 3.
  EXPECT_EQ(LocateOffset("\xC3\xA9 x", 3).column, 3u);
}

TEST(DiagnosticTest, RendersOneLineAndCaret) {
  const std::string_view text = "select\n  foo(1) from t";
  Diagnostic d{DiagCode::kUnsupported, "unsupported function FOO", "", 9, 3, DiagSource::kStored};
  EXPECT_EQ(RenderOneLine(d, text), "unsupported function FOO at 2:3");
  EXPECT_EQ(RenderCaret(d, text),
            "unsupported function FOO at 2:3\n"
            "    foo(1) from t\n"
            "    ^^^");
  d.hint = "Did you mean FLOOR?";
  EXPECT_EQ(RenderCaret(d, text),
            "unsupported function FOO at 2:3\n"
            "    foo(1) from t\n"
            "    ^^^\n"
            "  hint: Did you mean FLOOR?");
}

TEST(DiagnosticTest, WindowsLongLines) {
  const std::string text = std::string(100, 'a') + "X" + std::string(100, 'b');
  const Diagnostic d{DiagCode::kSyntax, "unexpected X", "", 100, 1, DiagSource::kStored};
  const std::string rendered = RenderCaret(d, text);
  const std::string expected_line =
      "  ..." + std::string(40, 'a') + "X" + std::string(40, 'b') + "...";
  EXPECT_NE(rendered.find(expected_line + "\n"), std::string::npos) << rendered;
  EXPECT_NE(rendered.find("\n  " + std::string(43, ' ') + "^"), std::string::npos) << rendered;
}

TEST(DiagnosticTest, CodeNames) {
  EXPECT_EQ(DiagCodeName(DiagCode::kSandbox), "sandbox_violation");
  EXPECT_EQ(DiagSourceName(DiagSource::kConsumerLql), "lql");
}

}  // namespace
}  // namespace lqe
