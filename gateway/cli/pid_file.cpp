#include "pid_file.h"

#include <signal.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>

namespace lqe::cli {
namespace {

// Whether process `pid` runs `lqe serve` (its command line has the word serve after the
// binary), so a pid reused by another program is never signalled.
bool IsServe(pid_t pid) {
  std::ifstream in("/proc/" + std::to_string(pid) + "/cmdline", std::ios::binary);
  std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  std::stringstream words(text);
  std::string word;
  bool first = true;
  while (std::getline(words, word, '\0')) {
    if (!first && word == "serve") return true;
    first = false;
  }
  return false;
}

}  // namespace

pid_t ReadServePid(const std::string& path, std::string* error) {
  std::ifstream in(path);
  if (!in) {
    *error = "cannot read the pid file " + path + " (is lqe serve running with --pid-file " + path +
             "?)";
    return -1;
  }
  std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  while (!text.empty() && (text.back() == '\n' || text.back() == ' ')) text.pop_back();
  long value = 0;
  std::size_t used = 0;
  try {
    value = std::stol(text, &used);
  } catch (const std::exception&) {
    used = 0;
  }
  if (used == 0 || used != text.size() || value <= 1 || value > 1 << 30) {
    *error = "the pid file " + path + " does not hold a process id";
    return -1;
  }
  auto pid = static_cast<pid_t>(value);
  if (kill(pid, 0) != 0 && errno == ESRCH) {
    *error = "stale pid file " + path + ": process " + std::to_string(pid) + " is not running";
    return -1;
  }
  if (!IsServe(pid)) {
    *error = "stale pid file " + path + ": process " + std::to_string(pid) + " is not lqe serve";
    return -1;
  }
  return pid;
}

std::string WritePidFile(const std::string& path) {
  std::string ignored;
  pid_t running = ReadServePid(path, &ignored);
  if (running > 0 && running != getpid()) {
    return "the pid file " + path + " names a running lqe serve (pid " + std::to_string(running) +
           "); stop it or use another --pid-file";
  }
  std::string temporary = path + ".tmp" + std::to_string(getpid());
  {
    std::ofstream out(temporary, std::ios::trunc);
    out << getpid() << "\n";
    if (!out.flush()) return "cannot write the pid file " + temporary;
  }
  std::error_code ec;
  std::filesystem::rename(temporary, path, ec);
  if (ec) {
    std::filesystem::remove(temporary, ec);
    return "cannot write the pid file " + path + ": " + ec.message();
  }
  return {};
}

void RemovePidFile(const std::string& path) {
  std::ifstream in(path);
  long value = 0;
  if (in >> value && value == getpid()) {
    std::error_code ec;
    std::filesystem::remove(path, ec);
  }
}

}  // namespace lqe::cli
