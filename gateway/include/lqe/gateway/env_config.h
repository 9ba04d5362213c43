// Configuration from environment variables, so that `lqe serve` runs in self-hosted Supabase's
// compose stack on the variables that stack already passes to its analytics service (Logflare),
// with no YAML file; with a file, a variable that is set overrides (or adds to) what the file
// says. The variables and their precedence are listed in docs/deploy.md.
#pragma once

#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "lqe/gateway/config.h"

namespace lqe::gateway {

// Reads one variable; nullopt when unset. Tests pass a map instead of the process environment.
using EnvLookup = std::function<std::optional<std::string>(const std::string& name)>;
EnvLookup ProcessEnvironment();

// What errors found in the environment name as their "file".
inline constexpr const char* kEnvironmentSource = "environment";

// The names of the keys made from Logflare's access tokens (for logs and reload messages).
inline constexpr const char* kPublicTokenKeyName = "logflare-public";
inline constexpr const char* kPrivateTokenKeyName = "logflare-private";

// What the environment supplies, so that a file may leave those sections out.
struct EnvSupplies {
  bool database = false;   // a DSN (LQE_DATABASE_URL, POSTGRES_BACKEND_URL or DB_HOSTNAME)
  bool endpoints = false;  // LQE_ENDPOINTS_DIR
};
EnvSupplies WhatEnvironmentSupplies(const EnvLookup& env);

// The DSN the environment names: LQE_DATABASE_URL, else POSTGRES_BACKEND_URL, else a URL built
// from DB_HOSTNAME, DB_PORT, DB_USERNAME, DB_PASSWORD and DB_DATABASE (user name and password
// percent-encoded). Empty when none is set.
std::string DsnFromEnvironment(const EnvLookup& env);

// Applies the environment over `c` (from a file, or defaults when `without_file`). Without a
// file the stored endpoints and catalogue seed installed with lqe are used (InstalledDataDir),
// unless LQE_ENDPOINTS_DIR / LQE_CATALOGUE_FILE say otherwise. Problems are appended to *errors.
void ApplyEnvironment(const EnvLookup& env, bool without_file, Config& c,
                      std::vector<ConfigError>* errors);

// share/lqe beside the running binary's bin/ (/usr/bin/lqe: /usr/share/lqe), where `cmake
// --install`, the Debian package and the image put sql/ and catalogue_seed.tsv.
std::string InstalledDataDir();

// LoadConfigCollecting with an explicit environment; an empty `path` means no file.
Config LoadConfigCollecting(const std::string& path, const EnvLookup& env,
                            std::vector<ConfigError>* errors);

// True for "1", "true", "yes", "on" (any case): how LQE_MIGRATE and the like are read.
bool EnvFlag(const EnvLookup& env, const std::string& name);

}  // namespace lqe::gateway
