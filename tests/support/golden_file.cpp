#include "support/golden_file.h"

#include <fstream>
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

std::vector<GoldenCase> ParseGoldenText(const std::string& text, GoldenHeader header_mode) {
  std::vector<GoldenCase> cases;
  std::istringstream in(text);
  std::vector<std::string> input, expected;
  GoldenCase current;
  bool in_expected = false;
  bool in_header = header_mode == GoldenHeader::kCommentsAndOptions;
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
    in_header = header_mode == GoldenHeader::kCommentsAndOptions;
  };
  for (std::string line; std::getline(in, line);) {
    ++line_no;
    if (Trim(line) == "==") {
      flush();
    } else if (in_expected) {
      expected.push_back(line);
    } else if (line == "--") {
      in_expected = true;
    } else if (in_header && (line.starts_with("#") || line.starts_with("[") || line.empty())) {
      if (!line.empty()) current.header.push_back(line);
      if (line.starts_with("[")) ParseOptions(line, current.options);
    } else {
      in_header = false;
      if (input.empty()) current.line = line_no;
      input.push_back(line);
    }
  }
  flush();
  return cases;
}

std::string FormatGoldenText(const std::vector<GoldenCase>& cases) {
  std::string out;
  for (std::size_t i = 0; i < cases.size(); ++i) {
    const GoldenCase& c = cases[i];
    if (i) out += "==\n";
    for (const auto& h : c.header) out += h + "\n";
    out += c.input + "\n--\n" + c.expected + "\n";
  }
  return out;
}

std::vector<GoldenCase> ReadGoldenFile(const std::string& path, GoldenHeader header) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream text;
  text << in.rdbuf();
  return ParseGoldenText(text.str(), header);
}

void WriteGoldenFile(const std::string& path, const std::vector<GoldenCase>& cases) {
  std::ofstream(path, std::ios::binary) << FormatGoldenText(cases);
}

}  // namespace lqe::testing
