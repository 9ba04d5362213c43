// Config loading: a valid file with every key, and each kind of mistake reported as file:line.
#include "lqe/gateway/config.h"

#include <gtest/gtest.h>

#include <filesystem>

#include "lqe/gateway/handler.h"
#include "support.h"
#include "support/test_database.h"

namespace lqe::gateway {
namespace {

using testing::TempDir;

const char* const kHash = "2c26b46b68ffc68ff99b453c1d30413413422d706483bfa0f98a5e886266e7ae";

std::string Minimal(const std::string& extra_endpoint_lines = "") {
  return std::string(
             "database:\n  dsn: host=127.0.0.1\nendpoints:\n  - name: a\n    query: select 1\n") +
         extra_endpoint_lines;
}

// Every problem the loader reports for `text`.
std::vector<ConfigError> ExpectErrors(const TempDir& dir, const std::string& text) {
  std::string path = dir.Write("gw.yaml", text);
  ConfigResult result = LoadConfig(path);
  EXPECT_TRUE(std::holds_alternative<ConfigErrors>(result)) << text;
  if (!std::holds_alternative<ConfigErrors>(result)) return {};
  return std::get<ConfigErrors>(result).list;
}

// The single problem the loader reports for `text`.
ConfigError ExpectError(const TempDir& dir, const std::string& text) {
  std::vector<ConfigError> errors = ExpectErrors(dir, text);
  EXPECT_EQ(errors.size(), 1u) << text;
  return errors.empty() ? ConfigError{} : errors.front();
}

TEST(ConfigTest, LoadsEveryKey) {
  TempDir dir;
  dir.Write("keys/api.sha256", std::string(kHash) + "\n");
  dir.Write("eps/one.yaml",
            "id: 6F1F5A2E-2B5D-4A47-9C36-0F2A8D7B1C01\nname: one\nquery_file: one.sql\n"
            "max_rows: 50\ncache_seconds: 900\ncache_warming_seconds: 300\n"
            "cache_warming_timeout_ms: 45000\nsandbox: true\n"
            "redact_pii: true\nparams:\n  project: {type: string, required: true}\n"
            "  interval: {type: enum, values: [hourly, daily], default: daily, description: d}\n"
            "  since: {type: timestamp}\n  n: {type: integer, default: '+7'}\n"
            "  f: {type: float}\n  b: {type: boolean, default: 'TRUE'}\n");
  dir.Write("eps/one.sql", "select @project\n");
  std::string path = dir.Write(
      "gw.yaml",
      "listen: 0.0.0.0:4100\nio_threads: 3\nworker_threads: 5\n"
      "database:\n  dsn: host=127.0.0.1 dbname=lqe\n  pool_size: 4\n  statement_timeout_ms: 700\n"
      "  warming_timeout_ms: 90000\n  max_queries_per_key: 3\n"
      "  connect_timeout_ms: 1500\ncatalogue_file: cat.tsv\ncache_max_bytes: 1048576\n"
      "http:\n  max_header_bytes: 8192\n  max_url_bytes: 4096\n  max_body_bytes: 65536\n"
      "  read_timeout_ms: 1000\n  write_timeout_ms: 2000\n  shutdown_grace_ms: 3000\n"
      "  max_connections: 500\n"
      "log_level: warn\naccess_log: false\n"
      "api_keys:\n  - name: a\n    sha256: " +
          std::string(kHash) +
          "\n    endpoints: ['*']\n"
          "  - name: b\n    sha256_file: keys/api.sha256\n    endpoints: [one]\n"
          "endpoints_dir: eps\nendpoints:\n  - name: two\n    query: |\n      select 2\n");
  ConfigResult result = LoadConfig(path);
  ASSERT_TRUE(std::holds_alternative<Config>(result)) << std::get<ConfigErrors>(result).ToString();
  const Config& c = std::get<Config>(result);
  EXPECT_EQ(c.listen_host, "0.0.0.0");
  EXPECT_EQ(c.listen_port, 4100);
  EXPECT_EQ(c.io_threads, 3);
  EXPECT_EQ(c.worker_threads, 5);
  EXPECT_EQ(c.pool_size, 4);
  EXPECT_EQ(c.statement_timeout_ms, 700);
  EXPECT_EQ(c.warming_timeout_ms, 90000);
  EXPECT_EQ(c.connect_timeout_ms, 1500);
  EXPECT_EQ(c.catalogue_file, (dir.path() / "cat.tsv").string());
  EXPECT_EQ(c.cache_max_bytes, 1048576u);
  EXPECT_EQ(c.max_header_bytes, 8192u);
  EXPECT_EQ(c.max_url_bytes, 4096u);
  EXPECT_EQ(c.max_body_bytes, 65536u);
  EXPECT_EQ(c.read_timeout_ms, 1000);
  EXPECT_EQ(c.write_timeout_ms, 2000);
  EXPECT_EQ(c.shutdown_grace_ms, 3000);
  EXPECT_EQ(c.max_connections, 500);
  EXPECT_EQ(c.max_queries_per_key, 3);
  EXPECT_EQ(c.log_level, "warn");
  EXPECT_FALSE(c.access_log);
  ASSERT_EQ(c.api_keys.size(), 2u);
  EXPECT_TRUE(c.api_keys[0].all_endpoints);
  EXPECT_EQ(c.api_keys[1].sha256, c.api_keys[0].sha256);
  EXPECT_EQ(c.api_keys[1].endpoints, std::vector<std::string>{"one"});
  ASSERT_EQ(c.endpoints.size(), 2u);
  const EndpointDef& one = *c.endpoints[0];
  EXPECT_EQ(one.id, "6f1f5a2e-2b5d-4a47-9c36-0f2a8d7b1c01");
  EXPECT_EQ(one.query, "select @project\n");
  EXPECT_EQ(one.max_rows, 50);
  EXPECT_EQ(one.cache_seconds, 900);
  EXPECT_EQ(one.cache_warming_seconds, 300);
  EXPECT_EQ(one.cache_warming_timeout_ms, 45000);
  EXPECT_TRUE(one.sandbox);
  EXPECT_TRUE(one.redact_pii);
  EXPECT_TRUE(one.params.at("project").required);
  EXPECT_EQ(one.params.at("interval").default_value, "daily");
  EXPECT_EQ(one.params.at("interval").description, "d");
  EXPECT_EQ(one.params.at("n").default_value, "7");
  EXPECT_EQ(one.params.at("b").default_value, "true");
  const EndpointDef& two = *c.endpoints[1];
  EXPECT_EQ(two.query, "select 2\n");
  EXPECT_EQ(two.id.size(), 36u);  // derived from the name
  EXPECT_EQ(two.max_rows, 1000);
  EXPECT_EQ(two.cache_seconds, 0);
  EXPECT_FALSE(two.cache_warming_seconds.has_value());
  EXPECT_FALSE(two.cache_warming_timeout_ms.has_value());
}

TEST(ConfigTest, ReplicasAndShards) {
  TempDir dir;
  std::string path =
      dir.Write("gw.yaml",
                "database:\n  dsn: host=p\n  replicas: [host=r1, 'postgresql://u@r2:5433/db']\n"
                "  max_replica_lag_ms: 250\n  replica_check_interval_ms: 100\n"
                "shards:\n  hot_days: 3\n  nodes:\n    - {name: shard_a, dsn: host=s1}\n"
                "    - {name: shard_b, dsn: host=s2}\n"
                "endpoints:\n  - name: a\n    query: select 1\n");
  ConfigResult result = LoadConfig(path);
  ASSERT_TRUE(std::holds_alternative<Config>(result)) << std::get<ConfigErrors>(result).ToString();
  const Config& c = std::get<Config>(result);
  EXPECT_EQ(c.replicas, (std::vector<std::string>{"host=r1", "postgresql://u@r2:5433/db"}));
  EXPECT_EQ(c.max_replica_lag_ms, 250);
  EXPECT_EQ(c.replica_check_interval_ms, 100);
  EXPECT_EQ(c.shards.hot_days, 3);
  EXPECT_FALSE(c.shards.by_project);
  EXPECT_EQ(c.shards.fetch_size, 100);
  ASSERT_EQ(c.shards.nodes.size(), 2u);
  EXPECT_EQ(c.shards.nodes[1].name, "shard_b");
  EXPECT_EQ(c.shards.nodes[1].dsn, "host=s2");
  EXPECT_EQ(DsnHostLabel("postgresql://u:secret@r2:5433/db"), "r2:5433");
  EXPECT_EQ(DsnHostLabel("host=r1"), "r1:5432");
}

TEST(ConfigTest, ShardsByProject) {
  TempDir dir;
  std::string path = dir.Write("gw.yaml",
                               "database:\n  dsn: host=p\nshards:\n  by: project\n"
                               "  fetch_size: 2000\n  nodes:\n"
                               "    - {name: shard_a, dsn: host=s1}\n"
                               "endpoints:\n  - name: a\n    query: select 1\n");
  ConfigResult result = LoadConfig(path);
  ASSERT_TRUE(std::holds_alternative<Config>(result)) << std::get<ConfigErrors>(result).ToString();
  EXPECT_TRUE(std::get<Config>(result).shards.by_project);
  EXPECT_EQ(std::get<Config>(result).shards.fetch_size, 2000);
  path = dir.Write("day.yaml",
                   "database:\n  dsn: host=p\nshards:\n  by: day\n  nodes:\n"
                   "    - {name: shard_a, dsn: host=s1}\n"
                   "endpoints:\n  - name: a\n    query: select 1\n");
  result = LoadConfig(path);
  ASSERT_TRUE(std::holds_alternative<Config>(result)) << std::get<ConfigErrors>(result).ToString();
  EXPECT_FALSE(std::get<Config>(result).shards.by_project);
}

TEST(ConfigTest, ShardMistakesNameTheLine) {
  TempDir dir;
  const std::string head =
      "database:\n  dsn: host=p\nendpoints:\n  - name: a\n    query: select 1\n";
  ConfigError e = ExpectError(dir, head + "shards:\n  nodes:\n    - {name: Shard-A, dsn: x}\n");
  EXPECT_EQ(e.line, 8);
  EXPECT_EQ(e.message, "a shard name must be a lower-case identifier: Shard-A");
  e = ExpectError(dir,
                  head + "shards:\n  nodes:\n    - {name: a, dsn: x}\n    - {name: a, dsn: y}\n");
  EXPECT_EQ(e.line, 9);
  EXPECT_EQ(e.message, "duplicate shard name a");
  e = ExpectError(dir, head + "shards:\n  hot_days: 2\n");
  EXPECT_EQ(e.line, 7);
  EXPECT_EQ(e.message, "shards.nodes must list at least one {name, dsn}");
  e = ExpectError(dir, head + "shards:\n  nodes:\n    - {name: a}\n");
  EXPECT_EQ(e.message, "a shard node needs name and dsn");
  e = ExpectError(dir, head + "shards:\n  by: tenant\n  nodes:\n    - {name: a, dsn: x}\n");
  EXPECT_EQ(e.line, 7);
  EXPECT_EQ(e.message, "shards.by must be day or project, not tenant");
  e = ExpectError(dir,
                  "database:\n  dsn: host=p\n  replicas: host=r\nendpoints:\n  - name: a\n"
                  "    query: select 1\n");
  EXPECT_EQ(e.line, 3);
  EXPECT_EQ(e.message, "replicas must be a list of DSNs");
}

TEST(ConfigTest, DefaultsWhenKeysAreAbsent) {
  TempDir dir;
  ConfigResult result = LoadConfig(dir.Write("gw.yaml", Minimal()));
  ASSERT_TRUE(std::holds_alternative<Config>(result));
  const Config& c = std::get<Config>(result);
  EXPECT_EQ(c.listen_host, "127.0.0.1");
  EXPECT_EQ(c.listen_port, 4000);
  EXPECT_EQ(c.pool_size, 8);
  EXPECT_EQ(c.statement_timeout_ms, 15000);
  EXPECT_EQ(c.warming_timeout_ms, 60000);
  EXPECT_EQ(c.max_connections, 4096);
  EXPECT_EQ(c.max_queries_per_key, 0);  // half the pool
  EXPECT_EQ(c.cache_max_bytes, 256u << 20);
  EXPECT_EQ(c.max_header_bytes, 65536u);
  EXPECT_EQ(c.max_url_bytes, 65536u);
  // HTTP ingest: the writer DSN falls back to database.dsn; Vector's 10 MB batches fit.
  EXPECT_EQ(c.ingest.dsn, "");
  EXPECT_EQ(c.ingest.pool_size, 2);
  EXPECT_EQ(c.ingest.writers_per_table, 2);
  EXPECT_EQ(c.ingest.max_body_bytes, 16u << 20);
  EXPECT_EQ(c.ingest.max_decompressed_bytes, 128u << 20);
  EXPECT_EQ(c.ingest.queue_max_events, 200000u);
  EXPECT_EQ(c.ingest.batch_max_events, 20000u);
  ASSERT_EQ(c.sources.size(), 13u);
  std::string sources;
  for (const auto& s : c.sources) sources += s.name + "=" + s.table + " ";
  EXPECT_EQ(sources,
            "cloudflare.logs.prod=edge postgres.logs=postgres deno-relay-logs=function_edge "
            "deno-subhosting-events=function_events gotrue.logs.prod=auth "
            "realtime.logs.prod=realtime storage.logs.prod.2=storage postgREST.logs.prod=restapi "
            "pgbouncer.logs.prod=pooler supavisor.logs.prod=supavisor "
            "pg_upgrade.logs.prod=pg_upgrade etl_replication.logs.prod=etl_replication "
            "gotrue.audit_logs.prod=auth_audit ");
}

TEST(ConfigTest, IngestSectionSourcesAndKeyPermissions) {
  TempDir dir;
  ConfigResult result = LoadConfig(dir.Write(
      "gw.yaml",
      "database:\n  dsn: host=q\ningest:\n  dsn: host=w\n  pool_size: 3\n  writers_per_table: 1\n"
      "  max_body_bytes: 2048\n  max_decompressed_bytes: 4096\n  queue_max_events: 5\n  "
      "queue_max_bytes: 8192\n"
      "  batch_max_events: 7\n  retry_after_seconds: 9\nsources:\n"
      "  - {name: My.Source, id: 3F1F0C33-8A4B-4C1D-9E2F-0A1B2C3D4E5F, table: edge}\n"
      "api_keys:\n  - {name: a, sha256: " +
          std::string(kHash) +
          ", endpoints: [], ingest: ['*']}\n"
          "  - {name: b, sha256: " +
          std::string(kHash) +
          ", endpoints: ['*'], ingest: [My.Source]}\n"
          "  - {name: c, sha256: " +
          std::string(kHash) + ", endpoints: ['*']}\nendpoints: [{name: e, query: q}]\n"));
  ASSERT_TRUE(std::holds_alternative<Config>(result)) << std::get<ConfigErrors>(result).ToString();
  const Config& c = std::get<Config>(result);
  EXPECT_EQ(c.ingest.dsn, "host=w");
  EXPECT_EQ(c.ingest.pool_size, 3);
  EXPECT_EQ(c.ingest.writers_per_table, 1);
  EXPECT_EQ(c.ingest.max_body_bytes, 2048u);
  EXPECT_EQ(c.ingest.max_decompressed_bytes, 4096u);
  EXPECT_EQ(c.ingest.queue_max_events, 5u);
  EXPECT_EQ(c.ingest.queue_max_bytes, 8192u);
  EXPECT_EQ(c.ingest.batch_max_events, 7u);
  EXPECT_EQ(c.ingest.retry_after_seconds, 9);
  ASSERT_EQ(c.sources.size(), 1u);
  EXPECT_EQ(c.sources[0].name, "My.Source");
  EXPECT_EQ(c.sources[0].id, "3f1f0c33-8a4b-4c1d-9e2f-0a1b2c3d4e5f");
  EXPECT_EQ(c.sources[0].table, "edge");
  ASSERT_EQ(c.api_keys.size(), 3u);
  EXPECT_TRUE(c.api_keys[0].all_sources);
  EXPECT_FALSE(c.api_keys[0].all_endpoints);
  EXPECT_FALSE(c.api_keys[1].all_sources);
  EXPECT_EQ(c.api_keys[1].ingest, std::vector<std::string>{"My.Source"});
  EXPECT_FALSE(c.api_keys[2].all_sources);
  EXPECT_TRUE(c.api_keys[2].ingest.empty());
}

struct BadCase {
  std::string text;
  int line;
  const char* message;
};

TEST(ConfigTest, ErrorsNameFileAndLine) {
  const std::string h(kHash);
  const std::vector<BadCase> cases = {
      {"database:\n  dsn: x\nlisten: nohostport\nendpoints: [{name: a, query: q}]\n", 3,
       "listen must be host:port"},
      {"database:\n  dsn: x\nbogus: 1\nendpoints: [{name: a, query: q}]\n", 3,
       "unknown key 'bogus' in the config"},
      {"endpoints: [{name: a, query: q}]\n", 1, "the database section is required"},
      {"database:\n  dsn: x\n  pool_size: 0\nendpoints: [{name: a, query: q}]\n", 3,
       "pool_size must be between 1 and 1000"},
      {"database:\n  dsn: x\n", 1, "no endpoints defined"},
      {"database:\n  dsn: x\nendpoints:\n  - name: a\n    query: q\n    max_rows: many\n", 6,
       "max_rows must be an integer"},
      {"database:\n  dsn: x\nendpoints:\n  - name: a\n", 4,
       "endpoint a has neither query nor query_file"},
      {"database:\n  dsn: x\nendpoints:\n  - query: q\n", 4, "endpoint has no name"},
      {"database:\n  dsn: x\nendpoints:\n  - name: a\n    query: q\n    params:\n      p: {type: "
       "date}\n",
       7, "unknown parameter type 'date'"},
      {"database:\n  dsn: x\nendpoints:\n  - name: a\n    query: q\n    params:\n      p: {type: "
       "enum}\n",
       7, "enum parameter p needs a non-empty 'values' list"},
      {"database:\n  dsn: x\nendpoints:\n  - name: a\n    query: q\n    params:\n      p: {type: "
       "integer, default: x}\n",
       7, "bad default: invalid value for parameter p: expected an integer"},
      {"database:\n  dsn: x\nendpoints:\n  - name: a\n    query: q\n    params:\n      sql: {type: "
       "string}\n",
       7, "parameter name 'sql' is reserved"},
      {"database:\n  dsn: x\nendpoints:\n  - name: a\n    query: q\n    id: nope\n", 6,
       "id must be a UUID"},
      {"database:\n  dsn: x\nendpoints:\n  - name: a\n    query: q\n  - name: a\n    query: r\n", 7,
       "duplicate endpoint name a"},
      {"database:\n  dsn: x\nendpoints:\n  - name: a\n    query_file: missing.sql\n", 5,
       "cannot read query_file"},
      {"database:\n  dsn: x\napi_keys:\n  - name: k\n    sha256: abc\n    endpoints: ['*']\n"
       "endpoints: [{name: a, query: q}]\n",
       4, "api key k: sha256 must be 64 hex digits"},
      {"database:\n  dsn: x\napi_keys:\n  - name: k\n    sha256: " + h +
           "\n"
           "endpoints: [{name: a, query: q}]\n",
       4, "api key k needs an endpoints list"},
      {"database:\n  dsn: x\napi_keys:\n  - name: k\n    sha256_file: nope.txt\n    endpoints: "
       "['*']\n"
       "endpoints: [{name: a, query: q}]\n",
       5, "cannot read sha256_file"},
      {"database:\n  dsn: [unclosed\n", 3, ""},
      {"database:\n  dsn: x\nsources:\n  - {name: s, table: Edge}\nendpoints: [{name: a, query: "
       "q}]\n",
       4, "source s: table must be a log table name"},
      {"database:\n  dsn: x\nsources:\n  - {name: s}\nendpoints: [{name: a, query: q}]\n", 4,
       "source s needs a table (edge, auth, ...)"},
      {"database:\n  dsn: x\nsources:\n  - {name: s, table: edge, id: x}\nendpoints: [{name: a, "
       "query: q}]\n",
       4, "source s: id must be a UUID"},
      {"database:\n  dsn: x\nsources:\n  - {name: s, table: edge}\n  - {name: s, table: auth}\n"
       "endpoints: [{name: a, query: q}]\n",
       5, "duplicate source name s"},
      {"database:\n  dsn: x\ningest:\n  max_body_bytes: 10\nendpoints: [{name: a, query: q}]\n", 4,
       "max_body_bytes must be between 1024 and 1073741824"},
      {"database:\n  dsn: x\ningest:\n  pool: 2\nendpoints: [{name: a, query: q}]\n", 4,
       "unknown key 'pool' in ingest"},
      {"database:\n  dsn: x\napi_keys:\n  - name: k\n    sha256: " + h +
           "\n    endpoints: []\n    ingest: [nope]\nendpoints: [{name: a, query: q}]\n",
       4, "api key k: ingest names unknown source nope"},
      {"database:\n  dsn: x\napi_keys:\n  - name: k\n    sha256: " + h +
           "\n    endpoints: []\n    ingest: all\nendpoints: [{name: a, query: q}]\n",
       7, "api key k: ingest must be a list of source names or \"*\""},
  };
  for (const BadCase& c : cases) {
    TempDir dir;
    ConfigError e = ExpectError(dir, c.text);
    EXPECT_EQ(e.file, (dir.path() / "gw.yaml").string()) << c.text;
    EXPECT_EQ(e.line, c.line) << c.text << "\n" << e.ToString();
    EXPECT_NE(e.message.find(c.message), std::string::npos) << e.ToString();
    EXPECT_EQ(e.ToString().rfind(e.file + ":" + std::to_string(c.line) + ": ", 0), 0u);
  }
}

TEST(ConfigTest, ErrorsInEndpointFilesNameThatFile) {
  TempDir dir;
  dir.Write("eps/a.yaml", "name: a\nquery: q\nmax_rows: -1\n");
  ConfigError e = ExpectError(dir, "database:\n  dsn: x\nendpoints_dir: eps\n");
  EXPECT_EQ(e.file, (dir.path() / "eps/a.yaml").string());
  EXPECT_EQ(e.line, 3);
  EXPECT_EQ(e.message, "max_rows must be between 1 and 1000000");
}

TEST(ConfigTest, MissingFile) {
  ConfigResult result = LoadConfig("/nonexistent/gw.yaml");
  ASSERT_TRUE(std::holds_alternative<ConfigErrors>(result));
  EXPECT_EQ(std::get<ConfigErrors>(result).ToString(),
            "/nonexistent/gw.yaml:0: cannot read the config file");
}

TEST(ConfigTest, ParamSqlTypes) {
  EXPECT_EQ(ParamSqlType(ParamType::kString)->kind, TypeKind::kString);
  EXPECT_EQ(ParamSqlType(ParamType::kEnum)->kind, TypeKind::kString);
  EXPECT_EQ(ParamSqlType(ParamType::kTimestamp)->kind, TypeKind::kString);
  EXPECT_EQ(ParamSqlType(ParamType::kInteger)->kind, TypeKind::kInt64);
  EXPECT_EQ(ParamSqlType(ParamType::kFloat)->kind, TypeKind::kFloat64);
  EXPECT_EQ(ParamSqlType(ParamType::kBoolean)->kind, TypeKind::kBool);
}

// Unknown keys are refused at every level, each with the nearest allowed key when one is close.
TEST(ConfigTest, UnknownKeysAreRefusedEverywhereWithSuggestions) {
  const std::string h(kHash);
  const std::vector<BadCase> cases = {
      {"database:\n  dsn: x\nlisen: 1.2.3.4:5\nendpoints: [{name: a, query: q}]\n", 3,
       "unknown key 'lisen' in the config; did you mean 'listen'? (allowed: listen, io_threads,"},
      {"database:\n  dsn: x\n  pool_sise: 2\nendpoints: [{name: a, query: q}]\n", 3,
       "unknown key 'pool_sise' in database; did you mean 'pool_size'?"},
      {"database:\n  dsn: x\nhttp:\n  max_body: 5\nendpoints: [{name: a, query: q}]\n", 4,
       "unknown key 'max_body' in http (allowed: max_header_bytes,"},
      {"database:\n  dsn: x\napi_keys:\n  - name: k\n    sha256: " + h +
           "\n    endpoints: ['*']\n    endpiont: [a]\nendpoints: [{name: a, query: q}]\n",
       7, "unknown key 'endpiont' in api key; did you mean 'endpoints'?"},
      {"database:\n  dsn: x\nendpoints:\n  - name: a\n    query: q\n    cache_second: 5\n", 6,
       "unknown key 'cache_second' in endpoint; did you mean 'cache_seconds'?"},
      {"database:\n  dsn: x\nendpoints:\n  - name: a\n    query: q\n    params:\n      p: "
       "{type: string, requird: true}\n",
       7, "unknown key 'requird' in parameter p; did you mean 'required'?"},
  };
  for (const BadCase& c : cases) {
    TempDir dir;
    ConfigError e = ExpectError(dir, c.text);
    EXPECT_EQ(e.line, c.line) << c.text << "\n" << e.ToString();
    EXPECT_EQ(e.message.rfind(c.message, 0), 0u) << e.ToString();
  }
}

// One load reports every broken part: keys, API keys, endpoints and endpoint files.
TEST(ConfigTest, EveryProblemIsReported) {
  TempDir dir;
  dir.Write("eps/a.yaml", "name: a\nquery: q\nmax_rows: -1\n");
  dir.Write("eps/b.yaml", "name: b\nquery: [unclosed\n");
  dir.Write("eps/c.yaml", "name: c\nquery: q\n");
  const std::vector<ConfigError> errors =
      ExpectErrors(dir,
                   "database:\n  dsn: x\n  pool_size: 0\nlog_level: loud\nendpoints_dir: eps\n"
                   "api_keys:\n  - name: k\n    sha256: abc\n    endpoints: ['*']\n"
                   "endpoints:\n  - name: d\n  - name: e\n    query: q\n    bogus: 1\n  - name: c\n"
                   "    query: q\n");
  const std::string gw = (dir.path() / "gw.yaml").string();
  const std::vector<std::string> expected = {
      gw + ":3: pool_size must be between 1 and 1000",
      gw + ":4: log_level must be one of trace, debug, info, warn, error, off",
      gw + ":7: api key k: sha256 must be 64 hex digits",
      (dir.path() / "eps/a.yaml").string() + ":3: max_rows must be between 1 and 1000000",
      (dir.path() / "eps/b.yaml").string() + ":3: ",
      gw + ":11: endpoint d has neither query nor query_file",
      gw + ":14: unknown key 'bogus' in endpoint",
      gw + ":16: duplicate endpoint name c",
  };
  ASSERT_EQ(errors.size(), expected.size()) << ConfigErrors{errors}.ToString();
  for (std::size_t i = 0; i < expected.size(); ++i) {
    EXPECT_EQ(errors[i].ToString().rfind(expected[i], 0), 0u) << errors[i].ToString();
  }
}

TEST(ConfigTest, EmptyEndpointsDirIsAnError) {
  TempDir dir;
  std::filesystem::create_directories(dir.path() / "eps");
  ConfigError e = ExpectError(dir, "database:\n  dsn: x\nendpoints_dir: eps\n");
  EXPECT_EQ(e.line, 1);
  EXPECT_EQ(e.message, "no endpoints defined (endpoints_dir or endpoints)");
}

TEST(ConfigTest, OneEndpointFileLoadsOnItsOwn) {
  TempDir dir;
  dir.Write("q.sql", "select @project as p\n");
  const std::string good = dir.Write(
      "good.yaml",
      "name: one\nquery_file: q.sql\nsandbox: true\nparams:\n  project: {type: string}\n");
  auto loaded = LoadEndpointFile(good);
  ASSERT_TRUE(std::holds_alternative<std::shared_ptr<EndpointDef>>(loaded));
  const EndpointDef& e = *std::get<std::shared_ptr<EndpointDef>>(loaded);
  EXPECT_EQ(e.name, "one");
  EXPECT_EQ(e.query, "select @project as p\n");
  EXPECT_TRUE(e.sandbox);
  EXPECT_EQ(e.params.at("project").type, ParamType::kString);

  const std::string bad = dir.Write("bad.yaml", "name: two\nquery: q\nsandbx: true\nmax_rows: x\n");
  auto refused = LoadEndpointFile(bad);
  ASSERT_TRUE(std::holds_alternative<ConfigErrors>(refused));
  EXPECT_EQ(std::get<ConfigErrors>(refused).ToString(),
            bad +
                ":3: unknown key 'sandbx' in endpoint; did you mean 'sandbox'? (allowed: id, "
                "name, description, query, query_file, max_rows, cache_seconds, "
                "cache_warming_seconds, cache_warming_timeout_ms, sandbox, redact_pii, params, "
                "language)\n" +
                bad + ":4: max_rows must be an integer");
  auto missing = LoadEndpointFile((dir.path() / "none.yaml").string());
  ASSERT_TRUE(std::holds_alternative<ConfigErrors>(missing));
  EXPECT_EQ(std::get<ConfigErrors>(missing).ToString(),
            (dir.path() / "none.yaml").string() + ":0: cannot read the endpoint file");
}

// The server and `lqe translate` share these: parameter types and the sandbox refusal.
TEST(ConfigTest, EndpointTranslateOptionsAndSandboxRefusal) {
  EndpointDef e;
  e.name = "ep";
  e.params["n"].type = ParamType::kInteger;
  e.params["t"].type = ParamType::kTimestamp;
  std::string error;
  const Catalog catalog = Catalog::FromEntries({{"edge", "id", "STRING", "NULLABLE"}}, &error);
  const auto now = std::chrono::system_clock::time_point(std::chrono::seconds(1700000000));
  TranslateOptions options = EndpointTranslateOptions(
      e, catalog, ConsumerQuery{ConsumerQuery::Language::kLql, "error"}, now);
  EXPECT_EQ(options.catalog, &catalog);
  EXPECT_EQ(options.params.at("n")->kind, TypeKind::kInt64);
  EXPECT_EQ(options.params.at("t")->kind, TypeKind::kString);
  ASSERT_TRUE(options.consumer.has_value());
  EXPECT_EQ(options.consumer->text, "error");
  EXPECT_EQ(options.now, now);
  EXPECT_FALSE(EndpointTranslateOptions(e, catalog).consumer.has_value());
  EXPECT_EQ(SandboxRefusal(e, ConsumerQuery::Language::kSql),
            "endpoint ep does not accept a sql parameter (sandboxing is off)");
  EXPECT_EQ(SandboxRefusal(e, ConsumerQuery::Language::kLql),
            "endpoint ep does not accept a lql parameter (sandboxing is off)");
  e.sandbox = true;
  EXPECT_EQ(SandboxRefusal(e, ConsumerQuery::Language::kSql), "");
}

}  // namespace
}  // namespace lqe::gateway

namespace lqe::gateway {
namespace {

// The snapshot builder (serve, reload, check, translate) reports loading and translation
// problems of one config together.
TEST(ConfigTest, BuildStateReportsEveryProblem) {
  TempDir dir;
  const std::string path = dir.Write(
      "gw.yaml", "database:\n  dsn: host=127.0.0.1 port=1\ncatalogue_file: " +
                     lqe::testing::SourcePath("schema/catalogue_seed.tsv") +
                     "\nendpoints:\n  - name: good\n    query: select 1 as one\n"
                     "  - name: typo\n    query: select 1 as one\n    sandbox: yes please\n"
                     "  - name: bad\n    query: select nope from `logs.edge`\n");
  std::vector<ConfigError> problems;
  EXPECT_EQ(BuildState(path, nullptr, &problems), nullptr);
  ASSERT_EQ(problems.size(), 2u) << ConfigErrors{problems}.ToString();
  EXPECT_EQ(problems[0].ToString(), path + ":9: sandbox must be true or false");
  EXPECT_EQ(problems[1].line, 11);
  EXPECT_EQ(problems[1].message.rfind("endpoint bad: ", 0), 0u) << problems[1].message;
  std::string error;
  EXPECT_EQ(BuildState(path, nullptr, &error), nullptr);
  EXPECT_EQ(error, ConfigErrors{problems}.ToString());
  EXPECT_NE(error.find('\n'), std::string::npos);
}

// A stored query the translator refuses is a config error at the line of the offending token.
TEST(ConfigTest, TranslatorRefusalNamesTheQueryLine) {
  TempDir dir;
  std::string path =
      dir.Write("gw.yaml",
                "database:\n  dsn: x\nendpoints:\n  - name: good\n    query: select 1 as one\n"
                "  - name: bad\n    query: |\n      select 1 as one\n      from ) oops\n");
  ConfigResult loaded = LoadConfig(path);
  ASSERT_TRUE(std::holds_alternative<Config>(loaded));
  Config& config = std::get<Config>(loaded);
  std::string error;
  Catalog catalog = Catalog::FromEntries({{"edge", "id", "STRING", "NULLABLE"}}, &error);
  std::vector<ConfigError> refusals = TranslateEndpoints(config, catalog);
  ASSERT_EQ(refusals.size(), 1u);
  const ConfigError* refusal = &refusals.front();
  EXPECT_EQ(refusal->file, path);
  EXPECT_EQ(refusal->line, 9);
  EXPECT_EQ(refusal->message.rfind("endpoint bad: ", 0), 0u) << refusal->message;
  ASSERT_NE(config.endpoints[0]->translation, nullptr);
  EXPECT_EQ(config.endpoints[0]->translation->columns.at(0).name, "one");
}

}  // namespace
}  // namespace lqe::gateway
