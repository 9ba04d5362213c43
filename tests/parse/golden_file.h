// Golden test files: cases separated by a line `==`; each case is the input, a line `--`, then
// the expected output. Shared by the parser's golden runner.
#pragma once

#include <string>
#include <vector>

namespace lqe::testing {

struct GoldenCase {
  std::string input;
  std::string expected;
  int line = 0;  // 1-based line of the case's first input line, for failure messages
};

std::vector<GoldenCase> ReadGoldenFile(const std::string& path);
void WriteGoldenFile(const std::string& path, const std::vector<GoldenCase>& cases);

}  // namespace lqe::testing
