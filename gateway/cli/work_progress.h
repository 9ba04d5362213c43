// The progress the schema library reports (backfills, rollup builds, partition moves), drawn by
// a ProgressReporter.
#pragma once

#include <string>

#include "lqe/schema/progress.h"
#include "progress_reporter.h"

namespace lqe::cli {

inline schema::ProgressCallback DrawOn(ProgressReporter& reporter) {
  return [&reporter](const schema::WorkProgress& p) {
    reporter.Show({.step = std::string(p.step),
                   .item = std::string(p.item),
                   .done = p.done,
                   .total = p.total});
  };
}

}  // namespace lqe::cli
