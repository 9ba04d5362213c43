#include "drain/http_post.h"

#include <curl/curl.h>

#include <memory>
#include <mutex>

namespace lqe::gateway::drain {
namespace {

constexpr std::size_t kAnswerBytes = 2048;

std::size_t KeepAnswer(char* data, std::size_t size, std::size_t count, void* user) {
  auto* answer = static_cast<std::string*>(user);
  const std::size_t bytes = size * count;
  if (answer->size() < kAnswerBytes) {
    answer->append(data, std::min(bytes, kAnswerBytes - answer->size()));
  }
  return bytes;
}

struct CurlDeleter {
  void operator()(CURL* curl) const { curl_easy_cleanup(curl); }
};
struct ListDeleter {
  void operator()(curl_slist* list) const { curl_slist_free_all(list); }
};

}  // namespace

PostResult Post(const PostRequest& request) {
  static std::once_flag global;
  std::call_once(global, [] { curl_global_init(CURL_GLOBAL_DEFAULT); });
  PostResult result;
  std::unique_ptr<CURL, CurlDeleter> curl(curl_easy_init());
  if (!curl) {
    result.error = "libcurl could not start a request";
    return result;
  }
  std::unique_ptr<curl_slist, ListDeleter> headers;
  auto add = [&headers](const std::string& line) {
    curl_slist* grown = curl_slist_append(headers.get(), line.c_str());
    if (grown == nullptr) return false;
    static_cast<void>(headers.release());  // the same list, one line longer
    headers.reset(grown);
    return true;
  };
  bool added = true;
  for (const auto& [name, value] : request.headers) {
    std::string line = name;
    line += ": ";
    line += value;
    added = added && add(line);
  }
  // "Expect: 100-continue" would add a round trip to every large batch.
  if (!added || !add("Expect:")) {
    result.error = "out of memory for the request's headers";
    return result;
  }
  CURL* c = curl.get();
  char error[CURL_ERROR_SIZE] = {};
  curl_easy_setopt(c, CURLOPT_URL, request.url.c_str());
  curl_easy_setopt(c, CURLOPT_PROTOCOLS_STR, "http,https");
  curl_easy_setopt(c, CURLOPT_FOLLOWLOCATION, 0L);
  curl_easy_setopt(c, CURLOPT_NOSIGNAL, 1L);
  curl_easy_setopt(c, CURLOPT_CONNECTTIMEOUT_MS, request.connect_timeout_ms);
  curl_easy_setopt(c, CURLOPT_TIMEOUT_MS, request.timeout_ms);
  curl_easy_setopt(c, CURLOPT_HTTP_VERSION,
                   request.http2 ? CURL_HTTP_VERSION_2TLS : CURL_HTTP_VERSION_1_1);
  curl_easy_setopt(c, CURLOPT_POST, 1L);
  curl_easy_setopt(c, CURLOPT_POSTFIELDS, request.body.data());
  curl_easy_setopt(c, CURLOPT_POSTFIELDSIZE_LARGE, static_cast<curl_off_t>(request.body.size()));
  curl_easy_setopt(c, CURLOPT_HTTPHEADER, headers.get());
  curl_easy_setopt(c, CURLOPT_USERAGENT, "lqe-drain");
  curl_easy_setopt(c, CURLOPT_WRITEFUNCTION, KeepAnswer);
  curl_easy_setopt(c, CURLOPT_WRITEDATA, &result.answer);
  curl_easy_setopt(c, CURLOPT_ERRORBUFFER, error);
  const CURLcode code = curl_easy_perform(c);
  if (code != CURLE_OK) {
    result.error = error[0] != '\0' ? error : curl_easy_strerror(code);
    return result;
  }
  curl_easy_getinfo(c, CURLINFO_RESPONSE_CODE, &result.status);
  return result;
}

}  // namespace lqe::gateway::drain
