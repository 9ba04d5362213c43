-- functions.req-stats: one Edge Function's invocations per time bucket (Studio's function
-- overview charts: docs/endpoints-studio.md). @interval sets the window ending now and the
-- bucket: 15min and 1hr per minute, 3hr and 1day per hour, 7day per day. Invocations are the
-- function_edge_logs rows of @project whose metadata.function_id is @function_id.
with bounds as (
  select case
      when @interval = '15min' then timestamp_sub(current_timestamp(), interval 15 minute)
      when @interval = '1hr' then timestamp_sub(current_timestamp(), interval 1 hour)
      when @interval = '3hr' then timestamp_sub(current_timestamp(), interval 3 hour)
      when @interval = '1day' then timestamp_sub(current_timestamp(), interval 1 day)
      else timestamp_sub(current_timestamp(), interval 7 day)
    end as window_start
),
invocations as (
  select
    case
      when @interval in ('15min', '1hr') then timestamp_trunc(t.timestamp, minute)
      when @interval in ('3hr', '1day') then timestamp_trunc(t.timestamp, hour)
      else timestamp_trunc(t.timestamp, day)
    end as bucket,
    t.id,
    r.status_code,
    m.execution_time_ms
  from `logs.function_edge` as t
  cross join unnest(t.metadata) as m
  left join unnest(m.response) as r on true
  where m.project_ref = @project
    and m.function_id = @function_id
    and t.timestamp >= (select window_start from bounds)
)
select
  bucket as timestamp,
  count(id) as count,
  countif(status_code between 200 and 299) as success_count,
  countif(status_code between 300 and 399) as redirect_count,
  countif(status_code between 400 and 499) as client_err_count,
  countif(status_code >= 500) as server_err_count,
  avg(execution_time_ms) as avg_execution_time,
  max(execution_time_ms) as max_execution_time
from invocations
group by bucket
order by timestamp asc
