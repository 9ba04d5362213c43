// lqe health [--url URL]: GET the service's /health and exit 0 on 200, 1 otherwise; the image's
// HEALTHCHECK and compose's healthcheck use it, so the image needs no curl.
#include <CLI/CLI.hpp>
#include <boost/asio/connect.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/beast/core/flat_buffer.hpp>
#include <boost/beast/core/tcp_stream.hpp>
#include <boost/beast/http.hpp>
#include <boost/url/parse.hpp>
#include <chrono>
#include <iostream>

#include "commands.h"
#include "lqe/gateway/env_config.h"

namespace lqe::cli {
namespace {

namespace beast = boost::beast;
namespace http = beast::http;
using tcp = boost::asio::ip::tcp;

// The service's own address: LQE_LISTEN with a wildcard host replaced by loopback.
std::string DefaultUrl() {
  std::string listen = gateway::ProcessEnvironment()("LQE_LISTEN").value_or("");
  std::string host = "127.0.0.1";
  std::string port = "4000";
  if (const auto colon = listen.rfind(':'); colon != std::string::npos) {
    const std::string h = listen.substr(0, colon);
    if (!h.empty() && h != "0.0.0.0" && h != "[::]" && h != "::") host = h;
    port = listen.substr(colon + 1);
  }
  return "http://" + host + ":" + port + "/health";
}

// The status of GET url, or an error message in *error.
int Probe(const std::string& url, int timeout_ms, std::string* error) {
  auto parsed = boost::urls::parse_uri(url);
  if (!parsed || parsed->scheme() != "http") {
    *error = "not an http:// URL: " + url;
    return 0;
  }
  std::string host = parsed->host();
  if (host.size() >= 2 && host.front() == '[') host = host.substr(1, host.size() - 2);
  const std::string port = parsed->has_port() ? std::string(parsed->port()) : "80";
  const std::string target =
      parsed->encoded_path().empty() ? "/" : std::string(parsed->encoded_resource());
  boost::asio::io_context ioc;
  tcp::resolver resolver(ioc);
  beast::tcp_stream stream(ioc);
  beast::flat_buffer buffer;
  http::request<http::empty_body> request{http::verb::get, target, 11};
  request.set(http::field::host, parsed->encoded_host_and_port());
  http::response<http::string_body> response;
  stream.expires_after(std::chrono::milliseconds(timeout_ms));
  beast::error_code failure;
  resolver.async_resolve(
      host, port, [&](beast::error_code ec, const tcp::resolver::results_type& r) {
        if (ec) {
          failure = ec;
          return;
        }
        stream.async_connect(r, [&](beast::error_code ec2, const tcp::endpoint&) {
          if (ec2) {
            failure = ec2;
            return;
          }
          http::async_write(stream, request, [&](beast::error_code ec3, std::size_t) {
            if (ec3) {
              failure = ec3;
              return;
            }
            http::async_read(stream, buffer, response,
                             [&](beast::error_code ec4, std::size_t) { failure = ec4; });
          });
        });
      });
  ioc.run_for(std::chrono::milliseconds(timeout_ms + 100));
  if (!ioc.stopped()) {
    *error = "no answer within " + std::to_string(timeout_ms) + " ms";
    return 0;
  }
  if (failure) {
    *error = failure.message();
    return 0;
  }
  return static_cast<int>(response.result_int());
}

}  // namespace

void RegisterHealth(CLI::App& app, int* exit_code) {
  auto* cmd = app.add_subcommand("health", "Exit 0 when the service's /health answers 200");
  auto url = std::make_shared<std::string>();
  auto timeout_ms = std::make_shared<int>(5000);
  cmd->add_option("--url", *url,
                  "URL to GET (default: /health on LQE_LISTEN, else 127.0.0.1:4000)");
  cmd->add_option("--timeout-ms", *timeout_ms, "Give up after this long")
      ->check(CLI::Range(1, 600000));
  cmd->callback([url, timeout_ms, exit_code] {
    const std::string target = url->empty() ? DefaultUrl() : *url;
    std::string error;
    const int status = Probe(target, *timeout_ms, &error);
    if (status == 200) {
      *exit_code = 0;
      return;
    }
    std::cerr << "lqe health: " << target << ": "
              << (error.empty() ? "HTTP " + std::to_string(status) : error) << "\n";
    *exit_code = 1;
  });
}

}  // namespace lqe::cli
