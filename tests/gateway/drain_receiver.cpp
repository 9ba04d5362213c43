#include "drain_receiver.h"

#include <boost/asio.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>

#include "ingest/decode.h"
#include "lqe/base/ascii.h"
#include "lqe_child.h"

namespace lqe::gateway::testing {
namespace {

namespace asio = boost::asio;
namespace http = boost::beast::http;
using tcp = asio::ip::tcp;

}  // namespace

DrainReceiver::DrainReceiver() : port_(FreePort()) {
  Start();
}

DrainReceiver::~DrainReceiver() {
  Stop();
}

std::string DrainReceiver::Url(const std::string& path) const {
  return "http://127.0.0.1:" + std::to_string(port_) + path;
}

void DrainReceiver::Start() {
  Stop();
  stopping_.store(false);
  // Bound before Start returns, so a request sent right after it is not refused.
  auto ioc = std::make_shared<asio::io_context>();
  auto acceptor = std::make_shared<tcp::acceptor>(*ioc);
  const tcp::endpoint at(asio::ip::make_address("127.0.0.1"), port_);
  acceptor->open(at.protocol());
  acceptor->set_option(asio::socket_base::reuse_address(true));
  acceptor->bind(at);
  acceptor->listen();
  acceptor->non_blocking(true);
  thread_ = std::thread([this, ioc, acceptor] {
    while (!stopping_.load()) {
      boost::system::error_code ec;
      tcp::socket socket(*ioc);
      acceptor->accept(socket, ec);
      if (ec == asio::error::would_block || ec == asio::error::try_again) {
        std::this_thread::sleep_for(std::chrono::milliseconds(5));
        continue;
      }
      if (ec) continue;
      socket.non_blocking(false);
      boost::beast::flat_buffer buffer;
      for (;;) {  // the requests of one kept-alive connection
        http::request_parser<http::string_body> parser;
        parser.body_limit(256U << 20);
        http::read(socket, buffer, parser, ec);
        if (ec) break;
        const auto& req = parser.get();
        Received r;
        r.target = std::string(req.target());
        for (const auto& f : req) {
          std::string name(f.name_string());
          for (char& c : name) c = ascii::ToLower(c);
          r.headers[name] = std::string(f.value());
        }
        r.body = req.body();
        auto encoding = r.headers.find("content-encoding");
        if (encoding != r.headers.end() && encoding->second == "gzip") {
          std::string plain;
          if (ingest::Decompress("gzip", r.body, 256U << 20, &plain) == ingest::DecodeStatus::kOk) {
            r.body = std::move(plain);
          }
        }
        {
          std::lock_guard lock(mutex_);
          requests_.push_back(std::move(r));
        }
        std::this_thread::sleep_for(std::chrono::milliseconds(delay_ms_.load()));
        const int status = status_.load();
        http::response<http::string_body> res{static_cast<http::status>(status), 11};
        res.body() = status < 300 ? "{}" : R"({"error":"refused by the test receiver"})";
        res.prepare_payload();
        res.keep_alive(req.keep_alive());
        http::write(socket, res, ec);
        if (ec || !req.keep_alive() || stopping_.load()) break;
      }
    }
  });
}

void DrainReceiver::Stop() {
  stopping_.store(true);
  if (thread_.joinable()) thread_.join();
}

std::vector<Received> DrainReceiver::Requests() const {
  std::lock_guard lock(mutex_);
  return requests_;
}

bool DrainReceiver::WaitFor(const std::function<bool(const std::vector<Received>&)>& done,
                            std::chrono::milliseconds timeout) const {
  const auto deadline = std::chrono::steady_clock::now() + timeout;
  for (;;) {
    if (done(Requests())) return true;
    if (std::chrono::steady_clock::now() >= deadline) return false;
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
  }
}

}  // namespace lqe::gateway::testing
