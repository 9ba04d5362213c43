#include "golden_file.h"

#include <fstream>
#include <sstream>

namespace lqe::testing {
namespace {

std::string Join(const std::vector<std::string>& lines) {
  std::string out;
  for (std::size_t i = 0; i < lines.size(); ++i) out += (i ? "\n" : "") + lines[i];
  return out;
}

}  // namespace

std::vector<GoldenCase> ReadGoldenFile(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::vector<GoldenCase> cases;
  std::vector<std::string> input;
  std::vector<std::string> expected;
  bool in_expected = false;
  int line_no = 0;
  int case_line = 1;
  auto flush = [&] {
    if (!input.empty() || !expected.empty()) {
      cases.push_back({Join(input), Join(expected), case_line});
    }
    input.clear();
    expected.clear();
    in_expected = false;
  };
  for (std::string line; std::getline(in, line);) {
    ++line_no;
    if (line == "==") {
      flush();
      case_line = line_no + 1;
    } else if (line == "--" && !in_expected) {
      in_expected = true;
    } else {
      (in_expected ? expected : input).push_back(line);
    }
  }
  flush();
  return cases;
}

void WriteGoldenFile(const std::string& path, const std::vector<GoldenCase>& cases) {
  std::ostringstream out;
  for (std::size_t i = 0; i < cases.size(); ++i) {
    if (i > 0) out << "==\n";
    out << cases[i].input << "\n--\n" << cases[i].expected << "\n";
  }
  std::ofstream(path, std::ios::binary) << out.str();
}

}  // namespace lqe::testing
