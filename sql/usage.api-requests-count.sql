-- usage.api-requests-count: how many API requests @project received over the last 7 days, one
-- row with column count (Studio's project home reads result[0].count to decide whether the
-- project has usage to chart: docs/endpoints-studio.md). Requests are the project's edge_logs
-- rows, the rows logs.all's edge_logs CTE lists.
select count(t.id) as count
from `logs.edge` as t
where t.project = @project
  and t.timestamp >= timestamp_sub(current_timestamp(), interval 7 day)
