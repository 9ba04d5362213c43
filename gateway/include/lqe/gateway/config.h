// The gateway's YAML configuration: listener, database, API keys and endpoints, and the one
// loader that `lqe serve`, reload, `lqe check`, `lqe translate` and the tests all use. Loading
// validates everything and reports every problem it finds with file:line; nothing is served from
// a bad config.
#pragma once

#include <array>
#include <chrono>
#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <variant>
#include <vector>

#include "lqe/catalog.h"
#include "lqe/schema/rollups.h"
#include "lqe/translate.h"

namespace lqe::gateway {

enum class ParamType : std::uint8_t { kString, kInteger, kFloat, kBoolean, kTimestamp, kEnum };

struct ParamDef {
  std::string name;
  ParamType type = ParamType::kString;
  std::vector<std::string> values;  // kEnum only
  bool required = false;
  std::optional<std::string> default_value;  // already validated and normalised
  std::string description;
};

struct EndpointDef {
  std::string id;    // UUID, lower case
  std::string name;  // e.g. "logs.all"
  std::string query;
  std::string file;  // where it was defined, for messages
  int line = 0;
  int max_rows = 1000;
  int cache_seconds = 0;                     // 0: no cache
  std::optional<int> cache_warming_seconds;  // absent: no warming
  // Statement timeout of this endpoint's cache warming; absent: database.warming_timeout_ms.
  std::optional<int> cache_warming_timeout_ms;
  bool sandbox = false;
  bool redact_pii = false;
  // `language:` of the stored query (and of callers' sandboxed `sql`); a ClickHouse endpoint's
  // results are also rendered as ClickHouse's JSON output writes them (docs/clickhouse.md).
  SqlDialect language = SqlDialect::kBigQuery;
  std::map<std::string, ParamDef, std::less<>> params;
  std::string version;  // digest of everything that affects results; part of cache keys
  std::shared_ptr<const Translation> translation;  // the stored query, translated at load
  bool from_api = false;  // created through /api/endpoints (lqe_admin.endpoints), not a file
};

struct ApiKey {
  std::string name;
  std::array<unsigned char, 32> sha256{};
  bool all_endpoints = false;
  std::vector<std::string> endpoints;  // names or ids
  // Sources this key may send logs to (HTTP ingest), by source name; separate from endpoints.
  bool all_sources = false;
  std::vector<std::string> ingest;
  // The `private` scope: the management API (/api/backends, /api/sources, /api/rules).
  bool private_api = false;
};

// A log source HTTP ingest accepts: the name shippers send (`source_name`), an optional UUID
// (`source`, `x-source`) and the lqe table it feeds.
struct IngestSource {
  std::string name;   // exact, case-sensitive: "cloudflare.logs.prod"
  std::string id;     // lower-case UUID, or empty
  std::string table;  // "edge"
};

// The nine source names a self-hosted Supabase stack ships to, mapped to lqe's tables.
std::vector<IngestSource> DefaultIngestSources();

struct IngestConfig {
  std::string dsn;            // a role that may write the log tables; empty: database.dsn
  int pool_size = 2;          // writer connections, one group-commit writer thread each
  int writers_per_table = 2;  // of those, how many may write one table at once
  std::size_t max_body_bytes = 16u << 20;           // on the wire; Vector drops a batch on 413
  std::size_t max_decompressed_bytes = 128u << 20;  // after gzip/deflate
  std::size_t queue_max_events = 200000;            // over it: 429 + Retry-After
  std::size_t queue_max_bytes = 512u << 20;         // formed events' bytes waiting to be written
  std::size_t batch_max_events = 20000;             // events per group commit
  int retry_after_seconds = 3;
  // Background folding of the edge rollup's delta (rollup_compactor.h): every this many ms (0:
  // never), and sooner after this many events ingested since the last run.
  int compact_interval_ms = 5000;
  std::size_t compact_after_events = 100000;
};

// `tail:`: the live tail (GET /api/logs/tail): caps on open tails (429 beyond), each tail's
// buffer for a client that reads slower than events arrive (the overflow is counted as dropped),
// the heartbeat interval and the replay of `since`.
struct TailConfig {
  int max_open = 64;                     // tails open at once on this gateway
  int max_per_key = 4;                   // tails open at once per API key
  std::size_t buffer_events = 1000;      // per tail, not yet written to its client
  std::size_t buffer_bytes = 4u << 20;   // per tail
  int heartbeat_ms = 15000;              // an SSE comment (NDJSON: a heartbeat line) when idle
  std::size_t replay_max_events = 1000;  // newest events of `since` read from the table
  int replay_max_seconds = 7 * 86400;    // the longest `since`
  // Announce committed batches (NOTIFY) and follow other gateways' announcements (LISTEN), so a
  // tail here shows events ingested on any gateway of the database. Off: one NOTIFY less per
  // batch and no listening connection, for a single gateway.
  bool across_gateways = true;
};

// A shard node of the sharded layout: a Postgres that holds older days' partitions, reached from
// the coordinator through postgres_fdw. `dsn` is an owner login on that node (migrate and
// retention create and drop tables with it; the coordinator's foreign server copies its host,
// port, database, user and password).
struct ShardNode {
  std::string name;  // the foreign server's name on the coordinator; errors name it
  std::string dsn;
};

// `shards:`: days older than `hot_days` before today move from the coordinator to the nodes
// when `lqe migrate` or `lqe retention` runs: `by: day` (default) round robin by day, `by:
// project` each day split over every node by a hash of the project.
struct ShardLayout {
  std::vector<ShardNode> nodes;
  int hot_days = 7;
  bool by_project = false;
  int fetch_size = 100;  // postgres_fdw rows per round trip (schema::ShardPlan::fetch_size)
};

// `listen.tls`: the API listener speaks HTTPS with this certificate chain and key (PEM), read
// again on every reload. Empty: plain HTTP.
struct TlsConfig {
  std::string cert_file;
  std::string key_file;
  bool enabled() const { return !cert_file.empty(); }
};

// `admin:`: /metrics, /health and /ready on a listener of their own (listen_port 0 and an empty
// host: the API listener serves them), and a key /metrics requires (none: open).
struct AdminConfig {
  std::string listen_host;
  std::uint16_t listen_port = 0;
  bool separate() const { return !listen_host.empty(); }
  std::optional<std::array<unsigned char, 32>> metrics_key_sha256;
};

// `retention:`: `lqe serve` drops old day partitions itself every interval_seconds, as the
// login in `dsn` (an owner of the log tables: the role that runs `lqe migrate`). No dsn: no
// schedule, and the usage metrics are measured with database.dsn.
struct RetentionConfig {
  std::string dsn;
  int days = 7;                                     // every log table, unless listed below
  std::map<std::string, int, std::less<>> sources;  // log table -> days kept
  std::uint64_t max_disk_bytes = 0;                 // 0: no size cap
  int interval_seconds = 3600;
  int ahead_days = 3;  // partitions created ahead, as `lqe retention --ahead`
  bool enabled() const { return !dsn.empty(); }
  int DaysFor(std::string_view table) const {
    auto it = sources.find(table);
    return it == sources.end() ? days : it->second;
  }
};

struct Config {
  std::string path;  // the file it came from
  std::string listen_host = "127.0.0.1";
  std::uint16_t listen_port = 4000;
  int io_threads = 0;      // 0: hardware concurrency
  int worker_threads = 0;  // 0: 2 x pool_size
  std::string dsn;
  int pool_size = 8;
  int statement_timeout_ms = 15000;
  // Statement timeout of cache warming: no caller waits for it, and while it runs callers get
  // the previous result, so it may run longer than a caller's query.
  int warming_timeout_ms = 60000;
  int connect_timeout_ms = 2000;
  int max_queries_per_key = 0;  // uncached queries one API key runs at once; 0: pool_size / 2
  // Streaming replicas of `dsn`: endpoint queries go to them (least busy first), everything
  // else to the primary. A replica down or lagging more than max_replica_lag_ms is skipped.
  std::vector<std::string> replicas;
  int max_replica_lag_ms = 5000;
  int replica_check_interval_ms = 1000;
  ShardLayout shards;          // no nodes: a single node
  std::string catalogue_file;  // absolute after loading; empty: catalogue from Postgres only
  std::size_t cache_max_bytes = 256u << 20;
  std::size_t max_header_bytes = 64u << 10;
  std::size_t max_url_bytes = 64u << 10;
  std::size_t max_body_bytes = 1u << 20;
  int read_timeout_ms = 30000;
  int write_timeout_ms = 30000;
  int shutdown_grace_ms = 10000;
  int max_connections = 4096;  // open client connections; also kept below RLIMIT_NOFILE
  std::string log_level = "info";
  bool log_json = false;  // `log.format: json`: one JSON object per line
  bool access_log = true;
  TlsConfig tls;
  AdminConfig admin;
  RetentionConfig retention;
  std::vector<ApiKey> api_keys;
  std::vector<std::shared_ptr<EndpointDef>> endpoints;
  IngestConfig ingest;
  TailConfig tail;
  std::vector<IngestSource> sources = DefaultIngestSources();
  // `rollups:`: aggregates `lqe migrate --config` keeps in logs.rollup_<name>.
  std::vector<schema::RollupDef> rollups;
};

// One problem, where it is.
struct ConfigError {
  std::string file;
  int line = 0;
  std::string message;
  std::string ToString() const;  // "file:line: message"
};

// Every problem found, in the order found (at least one).
struct ConfigErrors {
  std::vector<ConfigError> list;
  std::string ToString() const;  // one "file:line: message" per line
};

using ConfigResult = std::variant<Config, ConfigErrors>;

// Parses and validates the file and every endpoint file it names. Queries are not translated yet.
ConfigResult LoadConfig(const std::string& path);
// The same, but keeps what did load: the endpoints that parsed, with every problem appended to
// *errors, so that a later step (translation) can report the rest of the broken endpoints too.
Config LoadConfigCollecting(const std::string& path, std::vector<ConfigError>* errors);
// One endpoint file on its own (an endpoints_dir entry), with the same rules.
std::variant<std::shared_ptr<EndpointDef>, ConfigErrors> LoadEndpointFile(const std::string& path);
// One endpoint given as a JSON object with an endpoint file's keys (the management API's), with
// the same rules, except that the query must be given itself (no query_file). `origin` names it
// in messages.
std::variant<std::shared_ptr<EndpointDef>, ConfigErrors> ParseEndpointJson(
    const std::string& json_text, const std::string& origin);
// Translates one endpoint's stored query; the refusal, positioned, when it does not translate.
std::optional<ConfigError> TranslateEndpoint(EndpointDef& endpoint, const Catalog& catalog);

// Translates every endpoint's stored query against `catalog`; a refusal names the endpoint's
// file and the line inside its query. Returns every refusal (empty: all translated).
std::vector<ConfigError> TranslateEndpoints(Config& config, const Catalog& catalog);
// The options the server translates an endpoint with: the catalogue, the declared parameters'
// SQL types, and for a request's sql/lql the consumer query and the request's time.
TranslateOptions EndpointTranslateOptions(
    const EndpointDef& endpoint, const Catalog& catalog,
    std::optional<ConsumerQuery> consumer = std::nullopt,
    std::chrono::system_clock::time_point now = std::chrono::system_clock::now());
// The language of a caller's `sql` on this endpoint: the endpoint's own.
ConsumerQuery::Language ConsumerSqlLanguage(const EndpointDef& endpoint);
// Why the server refuses a request's sql/lql for this endpoint ("" when it is sandboxed).
std::string SandboxRefusal(const EndpointDef& endpoint, ConsumerQuery::Language language);
// The SQL type the translator sees for a parameter type.
TypePtr ParamSqlType(ParamType type);
std::string_view ParamTypeName(ParamType type);

}  // namespace lqe::gateway
