// A streaming client for the live tail in tests: sends one GET over a plain socket (optionally
// with a tiny receive buffer, to play a slow reader), reads the head, then decodes the chunked
// body into messages, Server-Sent Events or NDJSON lines.
#pragma once

#include <arpa/inet.h>
#include <netinet/in.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <boost/json/parse.hpp>
#include <boost/json/serialize.hpp>
#include <chrono>
#include <optional>
#include <string>

namespace lqe::gateway::testing {

struct TailMessage {
  std::string type;  // event, dropped, end, replay_error, heartbeat
  std::string data;  // the JSON text
};

class TailClient {
 public:
  // `receive_buffer` > 0: SO_RCVBUF before connecting (the kernel then advertises a small window).
  TailClient(unsigned short port, const std::string& target, const std::string& headers,
             int receive_buffer = 0) {
    fd_ = ::socket(AF_INET, SOCK_STREAM, 0);
    if (receive_buffer > 0) {
      ::setsockopt(fd_, SOL_SOCKET, SO_RCVBUF, &receive_buffer, sizeof(receive_buffer));
    }
    sockaddr_in address{};
    address.sin_family = AF_INET;
    address.sin_port = htons(port);
    ::inet_pton(AF_INET, "127.0.0.1", &address.sin_addr);
    if (::connect(fd_, reinterpret_cast<sockaddr*>(&address), sizeof(address)) != 0) {
      ::close(fd_);
      fd_ = -1;
      return;
    }
    std::string request = "GET " + target + " HTTP/1.1\r\nHost: 127.0.0.1\r\n" + headers + "\r\n";
    ::send(fd_, request.data(), request.size(), MSG_NOSIGNAL);
  }
  ~TailClient() { Close(); }
  TailClient(const TailClient&) = delete;
  TailClient& operator=(const TailClient&) = delete;

  void Close() {
    if (fd_ >= 0) ::close(fd_);
    fd_ = -1;
  }

  // The status of the response (0: none within the timeout); the head is kept in head().
  int Status(int timeout_ms = 5000) {
    while (head_.empty()) {
      auto end = raw_.find("\r\n\r\n");
      if (end != std::string::npos) {
        head_ = raw_.substr(0, end + 4);
        raw_.erase(0, end + 4);
        chunked_ = head_.find("Transfer-Encoding: chunked") != std::string::npos;
        break;
      }
      if (!Fill(timeout_ms)) return 0;
    }
    return std::stoi(head_.substr(9, 3));
  }
  const std::string& head() const { return head_; }
  // The rest of a non-streamed (error) response.
  std::string Rest(int timeout_ms = 2000) {
    while (Fill(timeout_ms)) {
    }
    return raw_;
  }

  // The next message, or nullopt when none came within `timeout_ms` or the stream ended.
  std::optional<TailMessage> Next(int timeout_ms = 5000) {
    auto deadline = std::chrono::steady_clock::now() + std::chrono::milliseconds(timeout_ms);
    for (;;) {
      Decode();
      if (auto message = Split()) return message;
      if (ended_) return std::nullopt;
      auto left = std::chrono::duration_cast<std::chrono::milliseconds>(
                      deadline - std::chrono::steady_clock::now())
                      .count();
      if (left <= 0 || !Fill(static_cast<int>(left))) return std::nullopt;
    }
  }
  // The last chunk (or the end of the connection) was read.
  bool Ended() const { return ended_; }
  bool LastChunkSeen() const { return last_chunk_; }

 private:
  bool Fill(int timeout_ms) {
    if (fd_ < 0 || eof_) return false;
    pollfd p{fd_, POLLIN, 0};
    if (::poll(&p, 1, timeout_ms) <= 0) return false;
    char buffer[65536];
    ssize_t n = ::recv(fd_, buffer, sizeof(buffer), 0);
    if (n <= 0) {
      eof_ = true;
      if (!chunked_) ended_ = true;
      return false;
    }
    raw_.append(buffer, static_cast<std::size_t>(n));
    return true;
  }

  // Moves complete chunks from raw_ into body_.
  void Decode() {
    if (head_.empty()) Status(0);
    if (!chunked_) {
      body_ += raw_;
      raw_.clear();
      if (eof_) ended_ = true;
      return;
    }
    for (;;) {
      auto line_end = raw_.find("\r\n");
      if (line_end == std::string::npos) break;
      std::size_t size = std::stoul(raw_.substr(0, line_end), nullptr, 16);
      if (raw_.size() < line_end + 2 + size + 2) break;
      if (size == 0) {
        last_chunk_ = true;
        ended_ = true;
        raw_.clear();
        break;
      }
      body_ += raw_.substr(line_end + 2, size);
      raw_.erase(0, line_end + 2 + size + 2);
    }
    if (eof_) ended_ = true;
  }

  std::optional<TailMessage> Split() {
    bool ndjson = head_.find("application/x-ndjson") != std::string::npos;
    if (ndjson) {
      auto nl = body_.find('\n');
      if (nl == std::string::npos) return std::nullopt;
      std::string line = body_.substr(0, nl);
      body_.erase(0, nl + 1);
      auto value = boost::json::parse(line).as_object();
      TailMessage m;
      m.type = value.at("type").as_string().c_str();
      if (auto* data = value.if_contains("data")) m.data = boost::json::serialize(*data);
      return m;
    }
    auto end = body_.find("\n\n");
    if (end == std::string::npos) return std::nullopt;
    std::string block = body_.substr(0, end);
    body_.erase(0, end + 2);
    TailMessage m;
    if (block.starts_with(":")) {
      m.type = "heartbeat";
      return m;
    }
    auto nl = block.find('\n');
    m.type = block.substr(7, nl - 7);  // "event: "
    m.data = block.substr(nl + 7);     // "data: "
    return m;
  }

  int fd_ = -1;
  std::string raw_, head_, body_;
  bool chunked_ = false, eof_ = false, ended_ = false, last_chunk_ = false;
};

}  // namespace lqe::gateway::testing
