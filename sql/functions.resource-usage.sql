-- functions.resource-usage: one Edge Function's CPU time and memory per time bucket (Studio's
-- function overview CPU and memory charts: docs/endpoints-studio.md). The edge runtime reports
-- them when a worker shuts down: function_logs events of @project with metadata.event_type
-- 'Shutdown', metadata.cpu_time_used (ms) and metadata.memory_used.heap/.external (bytes).
-- avg_memory_used is heap plus external in MiB, as Studio charts it. Window and bucket as in
-- functions.req-stats.
with bounds as (
  select case
      when @interval = '15min' then timestamp_sub(current_timestamp(), interval 15 minute)
      when @interval = '1hr' then timestamp_sub(current_timestamp(), interval 1 hour)
      when @interval = '3hr' then timestamp_sub(current_timestamp(), interval 3 hour)
      when @interval = '1day' then timestamp_sub(current_timestamp(), interval 1 day)
      else timestamp_sub(current_timestamp(), interval 7 day)
    end as window_start
),
shutdowns as (
  select
    case
      when @interval in ('15min', '1hr') then timestamp_trunc(t.timestamp, minute)
      when @interval in ('3hr', '1day') then timestamp_trunc(t.timestamp, hour)
      else timestamp_trunc(t.timestamp, day)
    end as bucket,
    m.cpu_time_used,
    mem.heap,
    mem.external
  from `logs.function_events` as t
  cross join unnest(t.metadata) as m
  left join unnest(m.memory_used) as mem on true
  where m.project_ref = @project
    and m.function_id = @function_id
    and m.event_type = 'Shutdown'
    and t.timestamp >= (select window_start from bounds)
)
select
  bucket as timestamp,
  avg(cpu_time_used) as avg_cpu_time_used,
  max(cpu_time_used) as max_cpu_time_used,
  avg(heap) as avg_heap_memory_used,
  avg(external) as avg_external_memory_used,
  avg(heap + external) / (1024 * 1024) as avg_memory_used
from shutdowns
group by bucket
order by timestamp asc
