// Placeholder until the format converter lands (its author deletes this file).
#include "pg/time_format.h"

namespace lqe::pg {

TimeFormatConversion ConvertTimeFormat(std::string_view /*bigquery_format*/) {
  return {"", "format conversion not built yet", 0};
}

}  // namespace lqe::pg
