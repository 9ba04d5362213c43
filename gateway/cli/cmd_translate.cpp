// lqe translate: BigQuery SQL (a file, stdin, or a stored endpoint, optionally sandboxed with a
// consumer's SQL or LQL) to PostgreSQL, printed with its bind parameters and result columns.
// Endpoints come from the gateway's own loader, and are translated with the server's options and
// sandbox rules, so `--config F --endpoint X` prints exactly what `lqe serve` would run.
#include <CLI/CLI.hpp>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <sstream>

#include "commands.h"
#include "lqe/base/ascii.h"
#include "lqe/base/suggest.h"
#include "lqe/format_postgres.h"
#include "lqe/gateway/config.h"
#include "lqe/gateway/handler.h"
#include "lqe/schema/embedded.h"
#include "lqe/translate.h"

namespace lqe::cli {
namespace {

namespace fs = std::filesystem;

struct TranslateArgs {
  std::string input;  // file or "-"
  std::string catalogue;
  std::vector<std::string> params;  // name=TYPE
  std::string config;
  std::string endpoint;
  std::string endpoint_file;
  std::string sql;
  std::string lql;
  std::string dialect = "bigquery";  // of FILE: bigquery | clickhouse
};

// An input problem: printed as "lqe translate: <message>", exit 1.
struct Refusal : std::runtime_error {
  using std::runtime_error::runtime_error;
};
// A command line that cannot work (options that do not go together, a bad --param, an unknown
// endpoint): printed the same way, exit 2.
struct UsageError : Refusal {
  using Refusal::Refusal;
};

bool ReadFile(const fs::path& path, std::string* out) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return false;
  std::ostringstream ss;
  ss << in.rdbuf();
  *out = ss.str();
  return true;
}

// `path`, or the seed catalogue compiled into the binary when none is given.
std::shared_ptr<const Catalog> ReadCatalogue(const std::string& path) {
  std::string tsv;
  if (path.empty()) {
    tsv = schema::EmbeddedCatalogueSeed();
  } else if (!ReadFile(path, &tsv)) {
    throw Refusal("cannot read " + path);
  }
  std::string error;
  auto catalog =
      std::make_shared<const Catalog>(Catalog::FromEntries(Catalog::ParseTsv(tsv, &error), &error));
  if (!error.empty()) throw Refusal(path + ": " + error);
  return catalog;
}

// What is being translated: a stored endpoint (with the catalogue the server would use) or plain
// SQL with --param declarations.
struct Subject {
  std::shared_ptr<const gateway::EndpointDef> endpoint;
  std::shared_ptr<const Catalog> catalog;
  std::shared_ptr<const gateway::GatewayState> state;  // keeps a --config snapshot alive
  std::string query;
  std::map<std::string, TypePtr, std::less<>> params;
};

// "no endpoint named X in F", with the nearest name or the names there are.
std::string UnknownEndpoint(const TranslateArgs& args, const gateway::GatewayState& state) {
  std::vector<std::string> names;
  for (const auto& [name, endpoint] : state.by_name) names.push_back(name);
  std::string message = "no endpoint named " + args.endpoint + " in " + args.config;
  const std::string near = ClosestMatch(args.endpoint, names, SuggestionLimit(args.endpoint));
  if (!near.empty()) return message + "; did you mean '" + near + "'?";
  if (names.empty()) return message + " (it has none)";
  std::string list;
  for (const auto& name : names) list += (list.empty() ? "" : ", ") + name;
  return message + " (endpoints: " + list + ")";
}

Subject FromConfig(const TranslateArgs& args) {
  if (args.endpoint.empty()) throw UsageError("--config needs --endpoint NAME");
  if (!args.catalogue.empty()) {
    throw UsageError("--catalogue does not apply to --config (the server's catalogue is used)");
  }
  // BuildState's warnings (e.g. the built-in catalogue used offline) go to stderr, not into the
  // SQL.
  UseStderrLog("lqe translate");
  std::vector<gateway::ConfigError> problems;
  auto state = gateway::BuildState(args.config, nullptr, &problems,
                                   gateway::BuildOptions{.builtin_catalogue_offline = true});
  if (!state) throw Refusal(gateway::ConfigErrors{std::move(problems)}.ToString());
  std::shared_ptr<const gateway::EndpointDef> endpoint;
  if (auto by_name = state->by_name.find(args.endpoint); by_name != state->by_name.end()) {
    endpoint = by_name->second;
  } else if (auto by_id = state->by_id.find(ascii::Lower(args.endpoint));
             by_id != state->by_id.end()) {
    endpoint = by_id->second;
  } else {
    throw UsageError(UnknownEndpoint(args, *state));
  }
  return {endpoint, state->catalog, state, endpoint->query, {}};
}

Subject FromEndpointFile(const TranslateArgs& args) {
  auto loaded = gateway::LoadEndpointFile(args.endpoint_file);
  if (auto* errors = std::get_if<gateway::ConfigErrors>(&loaded)) throw Refusal(errors->ToString());
  auto endpoint = std::get<std::shared_ptr<gateway::EndpointDef>>(loaded);
  Subject subject{endpoint, ReadCatalogue(args.catalogue), nullptr, endpoint->query, {}};
  // The stored query alone, as the config loader translates it.
  gateway::Config config;
  config.endpoints.push_back(endpoint);
  auto refusals = gateway::TranslateEndpoints(config, *subject.catalog);
  if (!refusals.empty()) throw Refusal(gateway::ConfigErrors{refusals}.ToString());
  return subject;
}

// --param name=TYPE; a bad one is refused with the types there are (and the nearest one).
std::pair<std::string, TypePtr> ParseParam(const std::string& param) {
  const auto eq = param.find('=');
  if (eq == std::string::npos || eq == 0) {
    throw UsageError("--param " + param + ": expected name=TYPE, e.g. project=STRING");
  }
  const std::string type = param.substr(eq + 1);
  const TypeKind kind = ParseScalarTypeName(type);
  if (kind != TypeKind::kUnknown) return {param.substr(0, eq), Type::Scalar(kind)};
  std::vector<std::string> types;
  for (auto k = static_cast<int>(TypeKind::kBool); k <= static_cast<int>(TypeKind::kJson); ++k) {
    types.emplace_back(TypeKindName(static_cast<TypeKind>(k)));
  }
  std::string message = "--param " + param + ": unknown type '" + type + "'";
  if (const std::string near = ClosestMatch(type, types, SuggestionLimit(type)); !near.empty()) {
    message += "; did you mean '" + near + "'?";
  }
  std::string list;
  for (const auto& t : types) list += (list.empty() ? "" : ", ") + t;
  throw UsageError(message + " (types: " + list + ")");
}

Subject FromSql(const TranslateArgs& args) {
  Subject subject;
  if (args.input.empty() || args.input == "-") {
    std::ostringstream ss;
    ss << std::cin.rdbuf();
    subject.query = ss.str();
  } else if (!ReadFile(args.input, &subject.query)) {
    throw Refusal("cannot read " + args.input);
  }
  for (const auto& p : args.params) subject.params.insert(ParseParam(p));
  subject.catalog = ReadCatalogue(args.catalogue);
  return subject;
}

// The consumer query as the server reads it: a non-empty sql (in the endpoint's language) wins
// over lql; empty means none.
std::optional<ConsumerQuery> Consumer(const TranslateArgs& args, const Subject& subject) {
  if (!args.sql.empty()) {
    return ConsumerQuery{subject.endpoint ? gateway::ConsumerSqlLanguage(*subject.endpoint)
                                          : ConsumerQuery::Language::kSql,
                         args.sql};
  }
  if (!args.lql.empty()) return ConsumerQuery{ConsumerQuery::Language::kLql, args.lql};
  return std::nullopt;
}

void Print(const Translation& t) {
  std::cout << FormatPostgres(t.pg_sql) << "\n-- params\n";
  for (std::size_t i = 0; i < t.params.size(); ++i) {
    std::cout << "$" << i + 1 << " " << t.params[i].name << " " << TypeName(*t.params[i].type)
              << (t.params[i].transform == ParamTransform::kRegexPattern ? " regex" : "") << "\n";
  }
  std::cout << "-- columns\n";
  for (const auto& c : t.columns) std::cout << c.name << " " << TypeName(*c.type) << "\n";
}

int Run(const TranslateArgs& args) {
  const bool stored = !args.config.empty() || !args.endpoint_file.empty();
  if (!args.config.empty() && !args.endpoint_file.empty()) {
    throw UsageError("give --config with --endpoint, or --endpoint-file, not both");
  }
  if (!args.endpoint.empty() && args.config.empty()) {
    throw UsageError("--endpoint needs --config");
  }
  if (stored && (!args.input.empty() || !args.params.empty())) {
    throw UsageError("an endpoint declares its own query and parameters (no FILE or --param)");
  }
  if (args.dialect != "bigquery" && args.dialect != "clickhouse") {
    throw UsageError("--dialect " + args.dialect + ": expected bigquery or clickhouse");
  }
  if (stored && args.dialect != "bigquery") {
    throw UsageError("an endpoint declares its own dialect (no --dialect)");
  }
  if (!stored && (!args.sql.empty() || !args.lql.empty())) {
    throw UsageError(
        "--sql and --lql need an endpoint (--config and --endpoint, or --endpoint-file)");
  }
  const Subject subject = !args.config.empty()          ? FromConfig(args)
                          : !args.endpoint_file.empty() ? FromEndpointFile(args)
                                                        : FromSql(args);
  const std::optional<ConsumerQuery> consumer = Consumer(args, subject);
  if (subject.endpoint && !consumer) {
    Print(*subject.endpoint->translation);  // the stored translation the server runs
    return 0;
  }
  TranslateOptions options;
  if (subject.endpoint) {
    const std::string refusal = gateway::SandboxRefusal(*subject.endpoint, consumer->language);
    if (!refusal.empty()) throw Refusal(refusal);
    options = gateway::EndpointTranslateOptions(*subject.endpoint, *subject.catalog, consumer);
  } else {
    options.catalog = subject.catalog.get();
    options.params = subject.params;
    if (args.dialect == "clickhouse") options.dialect = SqlDialect::kClickHouse;
  }
  const TranslateResult result = Translate(subject.query, options);
  if (!result.ok()) {
    const Diagnostic& d = result.error();
    std::string_view text = subject.query;
    if (d.source != DiagSource::kStored) text = consumer ? std::string_view(consumer->text) : "";
    std::cerr << RenderCaret(d, text) << "\n";
    return 1;
  }
  Print(result.value());
  return 0;
}

}  // namespace

void RegisterTranslate(CLI::App& app, int* exit_code) {
  auto args = std::make_shared<TranslateArgs>();
  auto* cmd = app.add_subcommand("translate", "Translate BigQuery SQL to PostgreSQL");
  cmd->add_option("input", args->input, "BigQuery SQL file, or - for stdin");
  cmd->add_option("--catalogue", args->catalogue,
                  "Field catalogue TSV (default: the seed catalogue built into lqe; not with "
                  "--config)");
  // One value per --param, so a FILE after it stays the input.
  cmd->add_option("--param", args->params,
                  "Declare a parameter: name=TYPE (STRING, INT64, ...); repeat for more")
      ->allow_extra_args(false);
  cmd->add_option("--config", args->config,
                  "Gateway config file: translate as `lqe serve --config` would");
  cmd->add_option("--endpoint", args->endpoint, "Endpoint name or id in --config");
  cmd->add_option("--endpoint-file", args->endpoint_file,
                  "Endpoint YAML file, e.g. sql/logs.all.yaml");
  cmd->add_option("--dialect", args->dialect,
                  "SQL dialect of FILE: bigquery (default) or clickhouse (docs/clickhouse.md)");
  cmd->add_option("--sql", args->sql, "Consumer SQL to run in the endpoint's sandbox");
  cmd->add_option("--lql", args->lql, "Consumer LQL to run in the endpoint's sandbox");
  cmd->callback([args, exit_code] {
    try {
      *exit_code = Run(*args);
    } catch (const UsageError& e) {
      std::cerr << "lqe translate: " << e.what() << "\n";
      *exit_code = 2;
    } catch (const std::exception& e) {
      std::cerr << "lqe translate: " << e.what() << "\n";
      *exit_code = 1;
    }
  });
}

}  // namespace lqe::cli
