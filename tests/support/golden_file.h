// The one golden-file format of the parser, translator and LQL suites: cases separated by "=="
// lines; each case is optional header lines ("# comment", "[option]" or "[a=b] [c]"), the input,
// a "--" line, then the expected output. UPDATE_GOLDEN=1 runners rewrite files with
// FormatGoldenText, which keeps the header lines as written.
#pragma once

#include <map>
#include <string>
#include <vector>

namespace lqe::testing {

enum class GoldenHeader {
  kNone,                // every line before "--" is input (parser cases may start with anything)
  kCommentsAndOptions,  // leading "#", "[" and blank lines are the case's header
};

struct GoldenCase {
  std::vector<std::string> header;             // "#" and "[" lines, verbatim and in order
  std::map<std::string, std::string> options;  // "[a=b] [c]" -> a: b, c: ""
  std::string input;
  std::string expected;  // trailing blank lines dropped
  int line = 0;          // 1-based line of the input's first line, for failure messages
};

std::vector<GoldenCase> ParseGoldenText(const std::string& text,
                                        GoldenHeader header = GoldenHeader::kCommentsAndOptions);
std::string FormatGoldenText(const std::vector<GoldenCase>& cases);

// The same on files; reading a missing file gives no cases.
std::vector<GoldenCase> ReadGoldenFile(const std::string& path,
                                       GoldenHeader header = GoldenHeader::kCommentsAndOptions);
void WriteGoldenFile(const std::string& path, const std::vector<GoldenCase>& cases);

}  // namespace lqe::testing
