#include "golden_file.h"

#include <sstream>

namespace lqe::testing {
namespace {

std::string Trim(const std::string& s) {
  const auto b = s.find_first_not_of(" \t\r");
  const auto e = s.find_last_not_of(" \t\r");
  return b == std::string::npos ? "" : s.substr(b, e - b + 1);
}

void ParseOptions(const std::string& line, std::map<std::string, std::string>& out) {
  std::size_t i = 0;
  while ((i = line.find('[', i)) != std::string::npos) {
    const auto end = line.find(']', i);
    if (end == std::string::npos) break;
    const std::string body = line.substr(i + 1, end - i - 1);
    const auto eq = body.find('=');
    out[body.substr(0, eq)] = eq == std::string::npos ? "" : body.substr(eq + 1);
    i = end + 1;
  }
}

std::string JoinLines(const std::vector<std::string>& lines) {
  std::string out;
  for (std::size_t i = 0; i < lines.size(); ++i) out += (i ? "\n" : "") + lines[i];
  return out;
}

}  // namespace

std::vector<GoldenCase> ParseGoldenFile(const std::string& text) {
  std::vector<GoldenCase> cases;
  std::istringstream in(text);
  std::string line;
  std::vector<std::string> input, expected;
  GoldenCase current;
  bool in_expected = false;
  bool header = true;
  int line_no = 0;
  auto flush = [&] {
    current.input = JoinLines(input);
    while (!expected.empty() && Trim(expected.back()).empty()) expected.pop_back();
    current.expected = JoinLines(expected);
    if (!current.input.empty() || !current.expected.empty()) cases.push_back(current);
    current = GoldenCase{};
    input.clear();
    expected.clear();
    in_expected = false;
    header = true;
  };
  while (std::getline(in, line)) {
    ++line_no;
    if (Trim(line) == "==") {
      flush();
      continue;
    }
    if (current.line == 0) current.line = line_no;
    if (in_expected) {
      expected.push_back(line);
    } else if (line == "--") {
      in_expected = true;
    } else if (header && line.rfind("#", 0) == 0) {
      current.comments.push_back(line);
    } else if (header && line.rfind("[", 0) == 0) {
      current.option_lines.push_back(line);
      ParseOptions(line, current.options);
    } else {
      header = false;
      input.push_back(line);
    }
  }
  flush();
  return cases;
}

std::string FormatGoldenFile(const std::vector<GoldenCase>& cases) {
  std::string out;
  for (std::size_t i = 0; i < cases.size(); ++i) {
    const auto& c = cases[i];
    if (i) out += "==\n";
    for (const auto& l : c.comments) out += l + "\n";
    for (const auto& l : c.option_lines) out += l + "\n";
    out += c.input + "\n--\n" + c.expected + "\n";
  }
  return out;
}

}  // namespace lqe::testing
