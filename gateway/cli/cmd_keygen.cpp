// lqe keygen: prints a fresh random API key and its SHA-256 (what the config stores).
#include <openssl/rand.h>

#include <CLI/CLI.hpp>
#include <iostream>

#include "commands.h"
#include "lqe/gateway/auth.h"

namespace lqe::cli {

void RegisterKeygen(CLI::App& app, int* exit_code) {
  auto* cmd = app.add_subcommand("keygen", "Print a new random API key and its SHA-256");
  auto hash_only_file = std::make_shared<std::string>();
  cmd->add_option("--sha256-file", *hash_only_file,
                  "also write the SHA-256 to this file (for sha256_file in the config)");
  cmd->callback([exit_code, hash_only_file] {
    unsigned char random[32];
    if (RAND_bytes(random, sizeof(random)) != 1) {
      std::cerr << "lqe keygen: no randomness available\n";
      *exit_code = 1;
      return;
    }
    std::string key = "lqe_" + gateway::HexEncode(random, sizeof(random));
    auto digest = gateway::Sha256(key);
    std::string hex = gateway::HexEncode(digest.data(), digest.size());
    if (!hash_only_file->empty()) {
      FILE* f = std::fopen(hash_only_file->c_str(), "w");
      if (f == nullptr) {
        std::cerr << "lqe keygen: cannot write " << *hash_only_file << "\n";
        *exit_code = 1;
        return;
      }
      std::fprintf(f, "%s\n", hex.c_str());
      std::fclose(f);
    }
    std::cout << "api_key: " << key << "\nsha256:  " << hex << "\n";
    *exit_code = 0;
  });
}

}  // namespace lqe::cli
