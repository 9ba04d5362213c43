// lqe translate: BigQuery SQL (a file, stdin, or a stored endpoint, optionally sandboxed with a
// consumer's SQL or LQL) to PostgreSQL, printed with its bind parameters and result columns.
#include <yaml-cpp/yaml.h>

#include <CLI/CLI.hpp>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <sstream>

#include "commands.h"
#include "lqe/format_postgres.h"
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
};

struct Endpoint {
  std::string query;
  std::map<std::string, TypePtr, std::less<>> params;
};

bool ReadFile(const fs::path& path, std::string* out) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return false;
  std::ostringstream ss;
  ss << in.rdbuf();
  *out = ss.str();
  return true;
}

// Endpoint YAML param types to BigQuery types (timestamps and enums arrive as strings).
TypePtr EndpointParamType(const std::string& type) {
  if (type == "integer") return Type::Scalar(TypeKind::kInt64);
  if (type == "float") return Type::Scalar(TypeKind::kFloat64);
  if (type == "boolean") return Type::Scalar(TypeKind::kBool);
  return Type::Scalar(TypeKind::kString);
}

Endpoint LoadEndpointFile(const fs::path& file) {
  const YAML::Node root = YAML::LoadFile(file.string());
  Endpoint ep;
  if (root["query"]) {
    ep.query = root["query"].as<std::string>();
  } else if (root["query_file"]) {
    const fs::path q = file.parent_path() / root["query_file"].as<std::string>();
    if (!ReadFile(q, &ep.query)) throw std::runtime_error("cannot read " + q.string());
  } else {
    throw std::runtime_error(file.string() + ": no query or query_file");
  }
  for (const auto& p : root["params"]) {
    const std::string type = p.second["type"] ? p.second["type"].as<std::string>() : "string";
    ep.params[p.first.as<std::string>()] = EndpointParamType(type);
  }
  return ep;
}

// Finds endpoint `name` in the config's endpoints_dir; also picks up its catalogue_file.
fs::path FindEndpointFile(const fs::path& config, const std::string& name, std::string* catalogue) {
  const YAML::Node root = YAML::LoadFile(config.string());
  if (root["catalogue_file"] && catalogue->empty()) {
    *catalogue = (config.parent_path() / root["catalogue_file"].as<std::string>()).string();
  }
  if (!root["endpoints_dir"]) throw std::runtime_error(config.string() + ": no endpoints_dir");
  const fs::path dir = config.parent_path() / root["endpoints_dir"].as<std::string>();
  for (const auto& entry : fs::directory_iterator(dir)) {
    if (entry.path().extension() != ".yaml") continue;
    const YAML::Node ep = YAML::LoadFile(entry.path().string());
    if (ep["name"] && ep["name"].as<std::string>() == name) return entry.path();
  }
  throw std::runtime_error("endpoint " + name + " not found in " + dir.string());
}

std::string DefaultCatalogue() {
  // The working directory, then the source tree the binary was built in (build dirs live in it).
  std::error_code ec;
  const fs::path exe_dir = fs::read_symlink("/proc/self/exe", ec).parent_path();
  const fs::path source_dir = fs::path(__FILE__).parent_path().parent_path().parent_path();
  for (const fs::path& p :
       {fs::path("schema/catalogue_seed.tsv"), exe_dir.parent_path() / "schema/catalogue_seed.tsv",
        source_dir / "schema/catalogue_seed.tsv"}) {
    if (fs::exists(p, ec)) return p.string();
  }
  return "schema/catalogue_seed.tsv";
}

int Run(TranslateArgs& args) {
  Endpoint ep;
  if (!args.config.empty()) {
    if (args.endpoint.empty()) throw std::runtime_error("--config needs --endpoint");
    args.endpoint_file = FindEndpointFile(args.config, args.endpoint, &args.catalogue).string();
  }
  if (!args.endpoint_file.empty()) {
    ep = LoadEndpointFile(args.endpoint_file);
  } else if (args.input.empty() || args.input == "-") {
    std::ostringstream ss;
    ss << std::cin.rdbuf();
    ep.query = ss.str();
  } else if (!ReadFile(args.input, &ep.query)) {
    throw std::runtime_error("cannot read " + args.input);
  }
  for (const auto& p : args.params) {
    const auto eq = p.find('=');
    const TypeKind kind = ParseScalarTypeName(eq == std::string::npos ? "" : p.substr(eq + 1));
    if (eq == std::string::npos || kind == TypeKind::kUnknown) {
      throw std::runtime_error("--param " + p + ": expected name=TYPE, e.g. project=STRING");
    }
    ep.params[p.substr(0, eq)] = Type::Scalar(kind);
  }
  if (args.catalogue.empty()) args.catalogue = DefaultCatalogue();
  std::string tsv;
  if (!ReadFile(args.catalogue, &tsv)) throw std::runtime_error("cannot read " + args.catalogue);
  std::string error;
  const Catalog catalog = Catalog::FromEntries(Catalog::ParseTsv(tsv, &error), &error);
  if (!error.empty()) throw std::runtime_error(args.catalogue + ": " + error);

  TranslateOptions options;
  options.catalog = &catalog;
  options.params = ep.params;
  if (!args.sql.empty()) options.consumer = ConsumerQuery{ConsumerQuery::Language::kSql, args.sql};
  if (!args.lql.empty()) options.consumer = ConsumerQuery{ConsumerQuery::Language::kLql, args.lql};
  const TranslateResult result = Translate(ep.query, options);
  if (!result.ok()) {
    const Diagnostic& d = result.error();
    const std::string_view text = d.source == DiagSource::kStored ? std::string_view(ep.query)
                                  : d.source == DiagSource::kConsumerSql ? args.sql
                                                                         : args.lql;
    std::cerr << RenderCaret(d, text) << "\n";
    return 1;
  }
  const Translation& t = result.value();
  std::cout << FormatPostgres(t.pg_sql) << "\n-- params\n";
  for (std::size_t i = 0; i < t.params.size(); ++i) {
    std::cout << "$" << i + 1 << " " << t.params[i].name << " " << TypeName(*t.params[i].type)
              << (t.params[i].transform == ParamTransform::kRegexPattern ? " regex" : "") << "\n";
  }
  std::cout << "-- columns\n";
  for (const auto& c : t.columns) std::cout << c.name << " " << TypeName(*c.type) << "\n";
  return 0;
}

}  // namespace

void RegisterTranslate(CLI::App& app, int* exit_code) {
  auto args = std::make_shared<TranslateArgs>();
  auto* cmd = app.add_subcommand("translate", "Translate BigQuery SQL to PostgreSQL");
  cmd->add_option("input", args->input, "BigQuery SQL file, or - for stdin");
  cmd->add_option("--catalogue", args->catalogue,
                  "Field catalogue TSV (default schema/catalogue_seed.tsv)");
  cmd->add_option("--param", args->params, "Declare a parameter: name=TYPE (STRING, INT64, ...)");
  cmd->add_option("--config", args->config,
                  "Gateway config file (reads endpoints_dir, catalogue_file)");
  cmd->add_option("--endpoint", args->endpoint, "Endpoint name in --config");
  cmd->add_option("--endpoint-file", args->endpoint_file,
                  "Endpoint YAML file, e.g. sql/logs.all.yaml");
  cmd->add_option("--sql", args->sql, "Consumer SQL to run in the endpoint's sandbox");
  cmd->add_option("--lql", args->lql, "Consumer LQL to run in the endpoint's sandbox");
  cmd->callback([args, exit_code] {
    try {
      *exit_code = Run(*args);
    } catch (const std::exception& e) {
      std::cerr << "lqe translate: " << e.what() << "\n";
      *exit_code = 1;
    }
  });
}

}  // namespace lqe::cli
