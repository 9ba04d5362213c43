// Files compiled into the binary at build time (see schema/cmake/embed.cmake).
#pragma once

#include <string_view>
#include <vector>

namespace lqe::schema {

struct EmbeddedFile {
  std::string_view name;     // "001_logs_schema.sql"
  std::string_view content;  // the file's bytes
  std::string_view sha256;   // lower-case hex
};

// Migration files in name order.
const std::vector<EmbeddedFile>& EmbeddedMigrationFiles();
// schema/catalogue_seed.tsv.
std::string_view EmbeddedCatalogueSeed();

}  // namespace lqe::schema
