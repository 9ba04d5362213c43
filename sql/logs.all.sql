-- logs.all: the log listing endpoint (service spec §2.3, §2.5, §4.2).
-- One CTE per log source (the nine, and the four more Studio reads: docs/endpoints-studio.md),
-- each restricted to one project and the optional time range and ordered newest first;
-- sandboxed callers query these CTEs by name. The final selection reads edge_logs.
-- Time bounds: an absent or empty parameter means unbounded; the start is exclusive, the end
-- inclusive. Each bound is a plain range on t.timestamp (BigQuery's first and last instants when
-- unbounded; events are stored from 1970 to 2099, so no row holds either), so PostgreSQL prunes
-- day partitions: while planning, as the gateway binds parameters before planning and the casts
-- of constants are IMMUTABLE (bq.timestamp_constant), and when the query starts under a generic
-- plan. A shard node holding only days outside the range is never contacted.
-- Every CTE exposes the project as `identifier`, as the hosted platform's CTEs do (Studio's
-- queries select it).
with edge_logs as (
  select t.timestamp, t.id, t.event_message, t.metadata, t.project as identifier
  from `logs.edge` as t
  where t.project = @project
    and t.timestamp > cast(coalesce(nullif(@iso_timestamp_start, ''), '0001-01-01 00:00:00+00') as timestamp)
    and t.timestamp <= cast(coalesce(nullif(@iso_timestamp_end, ''), '9999-12-31 23:59:59.999999+00') as timestamp)
  order by t.timestamp desc
),
postgres_logs as (
  select t.timestamp, t.id, t.event_message, t.metadata, t.project as identifier
  from `logs.postgres` as t
  where t.project = @project
    and t.timestamp > cast(coalesce(nullif(@iso_timestamp_start, ''), '0001-01-01 00:00:00+00') as timestamp)
    and t.timestamp <= cast(coalesce(nullif(@iso_timestamp_end, ''), '9999-12-31 23:59:59.999999+00') as timestamp)
  order by t.timestamp desc
),
function_edge_logs as (
  select t.timestamp, t.id, t.event_message, t.metadata, m.project_ref as identifier
  from `logs.function_edge` as t
  cross join unnest(t.metadata) as m
  where m.project_ref = @project
    and t.timestamp > cast(coalesce(nullif(@iso_timestamp_start, ''), '0001-01-01 00:00:00+00') as timestamp)
    and t.timestamp <= cast(coalesce(nullif(@iso_timestamp_end, ''), '9999-12-31 23:59:59.999999+00') as timestamp)
  order by t.timestamp desc
),
function_logs as (
  select t.timestamp, t.id, t.event_message, t.metadata, m.project_ref as identifier
  from `logs.function_events` as t
  cross join unnest(t.metadata) as m
  where m.project_ref = @project
    and t.timestamp > cast(coalesce(nullif(@iso_timestamp_start, ''), '0001-01-01 00:00:00+00') as timestamp)
    and t.timestamp <= cast(coalesce(nullif(@iso_timestamp_end, ''), '9999-12-31 23:59:59.999999+00') as timestamp)
  order by t.timestamp desc
),
auth_logs as (
  select t.timestamp, t.id, t.event_message, t.metadata, t.project as identifier
  from `logs.auth` as t
  where t.project = @project
    and t.timestamp > cast(coalesce(nullif(@iso_timestamp_start, ''), '0001-01-01 00:00:00+00') as timestamp)
    and t.timestamp <= cast(coalesce(nullif(@iso_timestamp_end, ''), '9999-12-31 23:59:59.999999+00') as timestamp)
  order by t.timestamp desc
),
realtime_logs as (
  select t.timestamp, t.id, t.event_message, t.metadata, m.project as identifier
  from `logs.realtime` as t
  cross join unnest(t.metadata) as m
  where m.project = @project
    and t.timestamp > cast(coalesce(nullif(@iso_timestamp_start, ''), '0001-01-01 00:00:00+00') as timestamp)
    and t.timestamp <= cast(coalesce(nullif(@iso_timestamp_end, ''), '9999-12-31 23:59:59.999999+00') as timestamp)
  order by t.timestamp desc
),
storage_logs as (
  select t.timestamp, t.id, t.event_message, t.metadata, m.project as identifier
  from `logs.storage` as t
  cross join unnest(t.metadata) as m
  where m.project = @project
    and t.timestamp > cast(coalesce(nullif(@iso_timestamp_start, ''), '0001-01-01 00:00:00+00') as timestamp)
    and t.timestamp <= cast(coalesce(nullif(@iso_timestamp_end, ''), '9999-12-31 23:59:59.999999+00') as timestamp)
  order by t.timestamp desc
),
restapi_logs as (
  select t.timestamp, t.id, t.event_message, t.metadata, t.project as identifier
  from `logs.restapi` as t
  where t.project = @project
    and t.timestamp > cast(coalesce(nullif(@iso_timestamp_start, ''), '0001-01-01 00:00:00+00') as timestamp)
    and t.timestamp <= cast(coalesce(nullif(@iso_timestamp_end, ''), '9999-12-31 23:59:59.999999+00') as timestamp)
  order by t.timestamp desc
),
pooler_logs as (
  select t.timestamp, t.id, t.event_message, t.metadata, t.project as identifier
  from `logs.pooler` as t
  where t.project = @project
    and t.timestamp > cast(coalesce(nullif(@iso_timestamp_start, ''), '0001-01-01 00:00:00+00') as timestamp)
    and t.timestamp <= cast(coalesce(nullif(@iso_timestamp_end, ''), '9999-12-31 23:59:59.999999+00') as timestamp)
  order by t.timestamp desc
),
-- Supavisor carries its project in metadata (Studio's filter reads m.project).
supavisor_logs as (
  select t.timestamp, t.id, t.event_message, t.metadata, m.project as identifier
  from `logs.supavisor` as t
  cross join unnest(t.metadata) as m
  where m.project = @project
    and t.timestamp > cast(coalesce(nullif(@iso_timestamp_start, ''), '0001-01-01 00:00:00+00') as timestamp)
    and t.timestamp <= cast(coalesce(nullif(@iso_timestamp_end, ''), '9999-12-31 23:59:59.999999+00') as timestamp)
  order by t.timestamp desc
),
pg_upgrade_logs as (
  select t.timestamp, t.id, t.event_message, t.metadata, t.project as identifier
  from `logs.pg_upgrade` as t
  where t.project = @project
    and t.timestamp > cast(coalesce(nullif(@iso_timestamp_start, ''), '0001-01-01 00:00:00+00') as timestamp)
    and t.timestamp <= cast(coalesce(nullif(@iso_timestamp_end, ''), '9999-12-31 23:59:59.999999+00') as timestamp)
  order by t.timestamp desc
),
-- Studio filters the replication logs on a pipeline_id column.
etl_replication_logs as (
  select t.timestamp, t.id, t.event_message, t.metadata, m.pipeline_id, t.project as identifier
  from `logs.etl_replication` as t
  left join unnest(t.metadata) as m on true
  where t.project = @project
    and t.timestamp > cast(coalesce(nullif(@iso_timestamp_start, ''), '0001-01-01 00:00:00+00') as timestamp)
    and t.timestamp <= cast(coalesce(nullif(@iso_timestamp_end, ''), '9999-12-31 23:59:59.999999+00') as timestamp)
  order by t.timestamp desc
),
auth_audit_logs as (
  select t.timestamp, t.id, t.event_message, t.metadata, t.project as identifier
  from `logs.auth_audit` as t
  where t.project = @project
    and t.timestamp > cast(coalesce(nullif(@iso_timestamp_start, ''), '0001-01-01 00:00:00+00') as timestamp)
    and t.timestamp <= cast(coalesce(nullif(@iso_timestamp_end, ''), '9999-12-31 23:59:59.999999+00') as timestamp)
  order by t.timestamp desc
),
-- The names existing clients still send for restapi_logs and pooler_logs.
postgrest_logs as (
  select timestamp, id, event_message, metadata, identifier from restapi_logs
),
pgbouncer_logs as (
  select timestamp, id, event_message, metadata, identifier from pooler_logs
)
select id, timestamp, event_message, metadata
from edge_logs
limit 100
