// The golden file format: cases separated by "==" lines; each case is optional "# comment"
// lines, optional "[option]" lines, the input, a "--" line, then the expected output.
#pragma once

#include <map>
#include <string>
#include <vector>

namespace lqe::testing {

struct GoldenCase {
  std::vector<std::string> comments;           // "# ..." lines, kept on rewrite
  std::vector<std::string> option_lines;       // "[a=b] [c]" lines as written
  std::map<std::string, std::string> options;  // parsed: "params" -> "a:STRING", "consumer" -> ""
  std::string input;
  std::string expected;
  int line = 0;  // where the case starts, for failure messages
};

std::vector<GoldenCase> ParseGoldenFile(const std::string& text);
std::string FormatGoldenFile(const std::vector<GoldenCase>& cases);

}  // namespace lqe::testing
