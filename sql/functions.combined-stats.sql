-- functions.combined-stats: one Edge Function's invocations, log lines, CPU time and memory per
-- time bucket in one answer (Studio's function overview; its self-hosted fallback query defines
-- the invocation columns: docs/endpoints-studio.md). The parts are those of functions.req-stats
-- (function_edge_logs), functions.resource-usage (Shutdown events of function_logs), and the
-- function's other function_logs lines counted by metadata.level: info (info, log), warn
-- (warn, warning), error (error, fatal). A bucket with no row of a part has 0 for its counts and
-- NULL for its averages and maxima. Window and bucket as in functions.req-stats.
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
    count(t.id) as requests_count,
    countif(r.status_code between 200 and 299) as success_count,
    countif(r.status_code between 300 and 399) as redirect_count,
    countif(r.status_code between 400 and 499) as client_err_count,
    countif(r.status_code >= 500) as server_err_count,
    avg(m.execution_time_ms) as avg_execution_time,
    max(m.execution_time_ms) as max_execution_time
  from `logs.function_edge` as t
  cross join unnest(t.metadata) as m
  left join unnest(m.response) as r on true
  where m.project_ref = @project
    and m.function_id = @function_id
    and t.timestamp >= (select window_start from bounds)
  group by bucket
),
events as (
  select
    case
      when @interval in ('15min', '1hr') then timestamp_trunc(t.timestamp, minute)
      when @interval in ('3hr', '1day') then timestamp_trunc(t.timestamp, hour)
      else timestamp_trunc(t.timestamp, day)
    end as bucket,
    countif(m.event_type is null or m.event_type <> 'Shutdown') as log_count,
    countif((m.event_type is null or m.event_type <> 'Shutdown')
            and m.level in ('info', 'log')) as log_info_count,
    countif((m.event_type is null or m.event_type <> 'Shutdown')
            and m.level in ('warn', 'warning')) as log_warn_count,
    countif((m.event_type is null or m.event_type <> 'Shutdown')
            and m.level in ('error', 'fatal')) as log_error_count,
    avg(if(m.event_type = 'Shutdown', m.cpu_time_used, null)) as avg_cpu_time_used,
    max(if(m.event_type = 'Shutdown', m.cpu_time_used, null)) as max_cpu_time_used,
    avg(if(m.event_type = 'Shutdown', mem.heap, null)) as avg_heap_memory_used,
    avg(if(m.event_type = 'Shutdown', mem.external, null)) as avg_external_memory_used,
    avg(if(m.event_type = 'Shutdown', mem.heap + mem.external, null)) / (1024 * 1024)
      as avg_memory_used
  from `logs.function_events` as t
  cross join unnest(t.metadata) as m
  left join unnest(m.memory_used) as mem on true
  where m.project_ref = @project
    and m.function_id = @function_id
    and t.timestamp >= (select window_start from bounds)
  group by bucket
),
buckets as (
  select bucket from invocations
  union distinct
  select bucket from events
)
select
  b.bucket as timestamp,
  coalesce(i.requests_count, 0) as requests_count,
  coalesce(i.success_count, 0) as success_count,
  coalesce(i.redirect_count, 0) as redirect_count,
  coalesce(i.client_err_count, 0) as client_err_count,
  coalesce(i.server_err_count, 0) as server_err_count,
  i.avg_execution_time,
  i.max_execution_time,
  e.avg_cpu_time_used,
  e.max_cpu_time_used,
  e.avg_heap_memory_used,
  e.avg_external_memory_used,
  e.avg_memory_used,
  coalesce(e.log_count, 0) as log_count,
  coalesce(e.log_info_count, 0) as log_info_count,
  coalesce(e.log_warn_count, 0) as log_warn_count,
  coalesce(e.log_error_count, 0) as log_error_count
from buckets as b
left join invocations as i on i.bucket = b.bucket
left join events as e on e.bucket = b.bucket
order by timestamp asc
