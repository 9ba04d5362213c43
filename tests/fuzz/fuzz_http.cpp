// libFuzzer target for HTTP request handling end to end, without sockets or a database: raw
// bytes -> the server's request parser (a Beast basic_parser, with the server's limits) -> the pure
// handlers over a fixed snapshot (the stored endpoints of sql/, the catalogue seed, one API key)
// with a fake query runner -> the finished response. The first byte picks how the fake runner
// behaves. Checks:
//  - never a crash or an escaping exception;
//  - never status 500 unless the fake runner was made to fail;
//  - every status is a real one, and a JSON response (not gzip) is well-formed JSON (UTF-8
//    validity aside, see tests/fuzz/crashes-found/README.md).
// Serve() is the one place that knows the handler interface (HandleFast, then HandlePending).
#include <boost/beast/core/buffers_prefix.hpp>
#include <boost/beast/http.hpp>
#include <boost/json/parse.hpp>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <stdexcept>
#include <string>
#include <string_view>

#include "http/request_parser.h"
#include "lqe/gateway/auth.h"
#include "lqe/gateway/clock.h"
#include "lqe/gateway/errors.h"
#include "lqe/gateway/handler.h"

namespace {

namespace http = boost::beast::http;
using namespace lqe::gateway;  // NOLINT(google-build-using-namespace): one-file fuzz target

constexpr std::string_view kApiKey = "fuzz-key";

void Check(bool ok) {
  if (!ok) __builtin_trap();
}

// The snapshot BuildState would make, minus Postgres: config from a temporary file naming
// sql/ as the endpoints directory and schema/catalogue_seed.tsv as the catalogue.
std::shared_ptr<const GatewayState> MakeState() {
  namespace fs = std::filesystem;
  std::string dir_template = (fs::temp_directory_path() / "lqe-fuzz-http.XXXXXX").string();
  Check(mkdtemp(dir_template.data()) != nullptr);
  const fs::path dir(dir_template);
  const auto digest = Sha256(kApiKey);
  std::ofstream(dir / "gw.yaml") << "listen: 127.0.0.1:0\naccess_log: false\n"
                                 << "database:\n  dsn: host=/nonexistent\n"
                                 << "catalogue_file: " << LQE_SOURCE_DIR
                                 << "/schema/catalogue_seed.tsv\n"
                                 << "api_keys:\n  - name: fuzz\n    sha256: "
                                 << HexEncode(digest.data(), digest.size())
                                 << "\n    endpoints: ['*']\n"
                                 << "endpoints_dir: " << LQE_SOURCE_DIR << "/sql\n";
  ConfigResult loaded = LoadConfig((dir / "gw.yaml").string());
  fs::remove_all(dir);
  Check(std::holds_alternative<Config>(loaded));
  auto state = std::make_shared<GatewayState>();
  state->config = std::move(std::get<Config>(loaded));
  std::string error;
  std::ifstream seed(state->config.catalogue_file);
  const std::string seed_text((std::istreambuf_iterator<char>(seed)), {});
  auto entries = lqe::Catalog::ParseTsv(seed_text, &error);
  Check(!seed_text.empty() && error.empty());
  state->catalog = std::make_shared<lqe::Catalog>(lqe::Catalog::FromEntries(entries, &error));
  Check(error.empty());
  Check(TranslateEndpoints(state->config, *state->catalog).empty());
  IndexState(*state, nullptr);
  Check(state->by_name.size() >= 2);
  return state;
}

enum class Runner : std::uint8_t {
  kEmpty,
  kNullRows,  // NULL is valid for every column type, so any query may return it
  kTimeout,
  kUnavailable,
  kBadQuery,
  kFailed,
  kThrows,
};
constexpr int kRunnerCount = 7;

QueryResult RunFake(Runner runner, int max_rows) {
  QueryResult r;
  switch (runner) {
    case Runner::kEmpty:
      break;
    case Runner::kNullRows: {
      std::size_t rows = 3;  // at most max_rows, as RunQuery returns them
      if (max_rows >= 0 && rows > static_cast<std::size_t>(max_rows)) {
        rows = static_cast<std::size_t>(max_rows);
        r.truncated = true;
      }
      r.rows = ResultRows(std::vector<ResultRows::Row>(rows, ResultRows::Row(64)));
      break;
    }
    case Runner::kTimeout:
      r.status = QueryStatus::kTimeout;
      break;
    case Runner::kUnavailable:
      r.status = QueryStatus::kUnavailable;
      break;
    case Runner::kBadQuery:
      r.status = QueryStatus::kBadQuery;
      r.message = "syntax error at or near \"x\"";
      r.sqlstate = "42601";
      break;
    case Runner::kFailed:
      r.status = QueryStatus::kFailed;
      r.message = "could not write block";
      r.sqlstate = "58030";
      break;
    case Runner::kThrows:
      throw std::runtime_error("fake runner failure");
  }
  return r;
}

// What the server does with a parsed request: HandleFast, and HandlePending on its worker when
// the request needs Postgres (a throw there becomes 500, as on the server's worker), then
// FinishResponse.
Response Serve(const Request& request, Context& context) {
  FastOutcome fast = HandleFast(request, context);
  Response response;
  if (auto* answered = std::get_if<Response>(&fast)) {
    response = std::move(*answered);
  } else {
    try {
      response = HandlePending(request, std::get<PendingRequest>(fast), context);
    } catch (const std::exception&) {
      response = ErrorResponse(500, "internal error");
    }
  }
  FinishResponse(request, response);
  return response;
}

// The server's own request parser over the whole input with the server's limits; nullopt when
// the server would answer with an early error (413, 414, 431, 400) or wait for more bytes.
std::optional<Request> Parse(std::string_view bytes, const Config& config) {
  RequestLimits limits;
  limits.max_url_bytes = config.max_url_bytes;
  limits.max_header_bytes = config.max_header_bytes;
  limits.max_body_bytes = config.max_body_bytes;
  RequestParser parser(limits);
  parser.eager(true);
  boost::system::error_code ec;
  std::size_t used = 0;
  while (!parser.is_done()) {
    const std::size_t n =
        parser.put(boost::asio::buffer(bytes.data() + used, bytes.size() - used), ec);
    used += n;
    if (ec == http::error::need_more) {
      if (n > 0 && used < bytes.size()) continue;
      ec = {};
      parser.put_eof(ec);  // the input is all there is: the peer closed
      if (ec || !parser.is_done()) return std::nullopt;
    } else if (ec || n == 0) {
      return std::nullopt;
    }
  }
  if (parser.GetRejection()) return std::nullopt;
  return std::move(parser.GetRequest());
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  static const std::shared_ptr<const GatewayState> state = MakeState();
  static const SystemClock clock;
  if (size == 0) return 0;
  const auto runner = static_cast<Runner>(data[0] % kRunnerCount);
  auto request =
      Parse(std::string_view(reinterpret_cast<const char*>(data) + 1, size - 1), state->config);
  if (!request) return 0;

  auto cache = MakeInProcessCache(clock, 1 << 20);
  bool ran = false;
  Context context;
  context.state = state;
  context.cache = cache.get();
  context.run_query = [&](const std::string&, const std::vector<std::optional<std::string>>&,
                          int max_rows, int, QueryCancel*) {
    ran = true;
    return RunFake(runner, max_rows);
  };
  context.ready = [] { return true; };
  context.metrics_text = [] { return std::string("lqe_requests_total 1\n"); };

  const Response response = Serve(*request, context);
  Check(response.status >= 200 && response.status <= 599);
  // A query Postgres refuses as malformed (kBadQuery) is a translator bug: 500 by design.
  const bool runner_failed = ran && (runner == Runner::kFailed || runner == Runner::kThrows ||
                                     runner == Runner::kBadQuery);
  if (response.status == 500) Check(runner_failed);
  if (!response.body_is_gzip && response.content_type.starts_with("application/json") &&
      !response.Body().empty()) {
    // Structure only: error messages echo request bytes, which need not be UTF-8 (reported in
    // tests/fuzz/crashes-found/README.md).
    boost::json::parse_options options;
    options.allow_invalid_utf8 = true;
    boost::system::error_code ec;
    boost::json::parse(response.Body(), ec, {}, options);
    Check(!ec);
  }
  return 0;
}
