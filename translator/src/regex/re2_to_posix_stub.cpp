// Placeholder until the RE2 converter lands (its author deletes this file).
#include "lqe/regex.h"

namespace lqe {

RegexConversion ConvertRe2ToPosix(std::string_view /*re2*/) {
  return {"", "regular expression conversion not built yet", 0};
}

}  // namespace lqe
