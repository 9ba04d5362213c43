// Fields inside REPEATED records, read the way BigQuery requires: through UNNEST. Filters test
// the elements with EXISTS (a row matches when one element does, and is never repeated); s: and
// chart fields join the elements with LEFT JOIN UNNEST ... ON TRUE, as Logflare's LQL does.
#pragma once

#include <functional>
#include <map>
#include <string>

#include "ast/query.h"
#include "lql/fields.h"

namespace lqe::lql {

// EXISTS(SELECT 1 FROM UNNEST(<cte>.metadata) AS _l1 CROSS JOIN UNNEST(_l1.response) AS _l2
// WHERE condition(_l2.status_code)); nullptr when the field is in no repeated record.
ast::ExprPtr ExistsInElements(const CteInfo& cte, const ResolvedField& field,
                              const std::function<ast::ExprPtr(ast::ExprPtr)>& condition,
                              SourceSpan span);

// LEFT JOIN UNNEST chains onto the CTE, one per repeated-record prefix (shared by the fields
// that need it), for selected and charted fields.
class ElementJoins {
 public:
  explicit ElementJoins(const CteInfo& cte) : cte_(cte) {}
  // The path that reads `field`, adding the joins it needs.
  ast::ExprPtr Path(const ResolvedField& field, SourceSpan span);
  // FROM <cte> with the joins added so far.
  ast::FromPtr From();

 private:
  const CteInfo& cte_;
  std::map<std::string, std::string> alias_of_;              // "metadata.request" -> "_s2"
  std::vector<std::pair<ast::ExprPtr, std::string>> joins_;  // array path, alias
};

}  // namespace lqe::lql
