#include "lqe_child.h"

#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <cstdio>
#include <fstream>
#include <iterator>
#include <random>
#include <sstream>
#include <stdexcept>
#include <thread>
#include <utility>

#include "http_client.h"
#include "support/test_database.h"

extern char** environ;  // NOLINT(readability-redundant-declaration): POSIX, for execve

namespace lqe::gateway::testing {

namespace {

// The low end of the kernel's ephemeral range (from which outgoing connections take their ports).
int EphemeralLow() {
  std::ifstream range("/proc/sys/net/ipv4/ip_local_port_range");
  int low = 0;
  if (!(range >> low) || low <= 12000) return 32768;
  return low;
}

}  // namespace

// Below the ephemeral range: a port the kernel handed out (port 0) can be given again, between this
// check and the child's bind, as the local end of an outgoing connection, the child's own to
// PostgreSQL included, and the child then fails to listen.
unsigned short FreePort() {
  static std::mt19937 pick(std::random_device{}());
  std::uniform_int_distribution<int> ports(10000, EphemeralLow() - 1);
  boost::asio::io_context ioc;
  for (int attempt = 0; attempt < 200; ++attempt) {
    boost::asio::ip::tcp::acceptor a(ioc);
    boost::system::error_code ec;
    const boost::asio::ip::tcp::endpoint at(boost::asio::ip::make_address("127.0.0.1"),
                                            static_cast<unsigned short>(ports(pick)));
    a.open(at.protocol(), ec);
    if (!ec) a.bind(at, ec);
    if (!ec) return at.port();
  }
  throw std::runtime_error("no free TCP port below the ephemeral range");
}

LqeChild::LqeChild(ChildOptions options) : log_path_(std::move(options.log_path)) {
  // Everything the child needs is built before fork: only async-signal-safe calls after it.
  std::vector<std::string> env_strings;
  for (char** e = environ; *e != nullptr; ++e) {
    std::string entry(*e);
    if (!options.env.contains(entry.substr(0, entry.find('=')))) env_strings.push_back(entry);
  }
  for (const auto& [name, value] : options.env) {
    std::string entry = name;
    entry += '=';
    entry += value;
    env_strings.push_back(std::move(entry));
  }
  std::vector<char*> envp;
  envp.reserve(env_strings.size() + 1);
  for (auto& s : env_strings) envp.push_back(s.data());
  envp.push_back(nullptr);
  std::string binary = lqe::testing::LqeBinary();
  options.args.insert(options.args.begin(), binary);
  std::vector<char*> argv;
  argv.reserve(options.args.size() + 1);
  for (auto& a : options.args) argv.push_back(a.data());
  argv.push_back(nullptr);
  rlimit limit{options.max_files, options.max_files};

  pid_ = fork();
  if (pid_ == 0) {
    if (options.max_files > 0) setrlimit(RLIMIT_NOFILE, &limit);
    FILE* out = std::freopen(log_path_.c_str(), "w", stdout);
    if (out != nullptr) dup2(fileno(stdout), STDERR_FILENO);
    execve(binary.c_str(), argv.data(), envp.data());
    _exit(127);
  }
}

LqeChild::~LqeChild() {
  Kill();
}

void LqeChild::Reap(int status) {
  pid_ = -1;
  exit_status_ = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

bool LqeChild::Alive() {
  if (pid_ <= 0) return false;
  int status = 0;
  if (waitpid(pid_, &status, WNOHANG) != pid_) return true;
  Reap(status);
  return false;
}

bool LqeChild::WaitHealthy(unsigned short port, std::chrono::milliseconds limit) {
  auto deadline = std::chrono::steady_clock::now() + limit;
  while (Alive() && std::chrono::steady_clock::now() < deadline) {
    try {
      if (Fetch(port, "/health").status == 200) return true;
    } catch (const std::exception&) {
      // not listening yet
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
  }
  return false;
}

int LqeChild::Wait(std::chrono::milliseconds limit) {
  auto deadline = std::chrono::steady_clock::now() + limit;
  while (Alive()) {
    if (std::chrono::steady_clock::now() >= deadline) return -1;
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
  }
  return exit_status_;
}

int LqeChild::Terminate() {
  if (pid_ <= 0) return exit_status_;
  kill(pid_, SIGTERM);
  int status = 0;
  waitpid(pid_, &status, 0);
  Reap(status);
  return exit_status_;
}

void LqeChild::Kill() {
  if (pid_ <= 0) return;
  kill(pid_, SIGKILL);
  int status = 0;
  waitpid(pid_, &status, 0);
  Reap(status);
}

std::string LqeChild::Log() const {
  std::ifstream in(log_path_);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

double LqeChild::CpuSeconds() const {
  std::ifstream in("/proc/" + std::to_string(pid_) + "/stat");
  std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  // Fields after the command name (which may hold spaces): state is field 3, utime 14, stime 15.
  std::istringstream fields(text.substr(text.rfind(')') + 2));
  std::string field;
  double ticks = 0;
  for (int i = 3; i <= 15 && fields >> field; ++i) {
    if (i == 14 || i == 15) ticks += std::stod(field);
  }
  return ticks / static_cast<double>(sysconf(_SC_CLK_TCK));
}

}  // namespace lqe::gateway::testing
