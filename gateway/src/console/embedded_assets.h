// The web console's files (gateway/assets/console), compiled into the binary by
// cmake/EmbedFiles.cmake, so `lqe serve` needs no files on disk to serve them.
#pragma once

#include <string_view>
#include <vector>

namespace lqe::gateway::console {

struct EmbeddedAsset {
  std::string_view name;          // "index.html", "app.js"
  std::string_view content_type;  // "text/javascript; charset=utf-8"
  std::string_view sha256;        // hex digest of `data`, taken at build time
  std::string_view data;
};

// Sorted by name.
const std::vector<EmbeddedAsset>& EmbeddedAssets();

}  // namespace lqe::gateway::console
