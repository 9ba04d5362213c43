-- edge.status-counts: requests, server errors (status >= 500) and the largest origin time per
-- bucket and request method, for events whose project matches @project in
-- [@iso_timestamp_start, @iso_timestamp_end).
--
-- Whole minutes come from the declared rollup logs.rollup_edge_status (rollups.yaml), which
-- holds exactly these measures per minute, project and method: a regex on the project is a
-- condition on a dimension, so the rollup answers it exactly. The window's partial first and last
-- minutes are read from logs.edge. @path filters a field the rollup does not keep: any
-- non-empty value reads the whole window from logs.edge.
with split as (
  select
    timestamp_add(timestamp_trunc(cast(@iso_timestamp_start as timestamp), minute),
                  interval 1 minute) as rollup_start,
    timestamp_trunc(cast(@iso_timestamp_end as timestamp), minute) as rollup_end
),
rows_counted as (
  select
    t.timestamp as ts,
    r.method as method,
    1 as requests,
    if(resp.status_code >= 500, 1, 0) as server_errors,
    resp.origin_time as max_origin_time
  from `logs.edge` as t
  left join unnest(t.metadata) as m
  left join unnest(m.request) as r
  left join unnest(m.response) as resp
  where t.timestamp >= cast(@iso_timestamp_start as timestamp)
    and t.timestamp < cast(@iso_timestamp_end as timestamp)
    and regexp_contains(t.project, @project)
    and (@path = '' or regexp_contains(r.path, @path))
    and (@path != ''
         or t.timestamp < (select rollup_start from split)
         or t.timestamp >= (select rollup_end from split))
  union all
  select
    x.timestamp as ts,
    x.method as method,
    x.requests as requests,
    x.server_errors as server_errors,
    x.max_origin_time as max_origin_time
  from `logs.rollup_edge_status` as x
  where @path = ''
    and x.timestamp >= (select rollup_start from split)
    and x.timestamp < (select rollup_end from split)
    and regexp_contains(x.project, @project)
)
select
  datetime(
    case when @granularity = 'hour' then timestamp_trunc(ts, hour) else timestamp_trunc(ts, minute) end,
    'UTC') as timestamp,
  method,
  sum(requests) as requests,
  sum(server_errors) as server_errors,
  max(max_origin_time) as max_origin_time
from rows_counted
group by timestamp, method
order by timestamp, method
