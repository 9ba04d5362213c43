-- postgres_logs: the Studio Postgres log views and a join across sources.
-- case: pg-list
select timestamp, id, event_message from postgres_logs order by timestamp desc, id limit 100
-- case: pg-parsed-fields
select id, parsed.error_severity, parsed.user_name, parsed.sql_state_code, parsed.query from postgres_logs cross join unnest(metadata) as metadata cross join unnest(metadata.parsed) as parsed
-- case: pg-severity-filter
select id, event_message from postgres_logs t cross join unnest(t.metadata) as m cross join unnest(m.parsed) as p where p.error_severity in ('ERROR', 'FATAL', 'PANIC')
-- case: pg-severity-counts
select p.error_severity as severity, count(*) as n from postgres_logs cross join unnest(metadata) as m cross join unnest(m.parsed) as p group by severity order by n desc, severity
-- case: pg-detail-hint-unicode
select id, p.detail, p.hint, p.context from postgres_logs cross join unnest(metadata) as m cross join unnest(m.parsed) as p where p.detail is not null or p.hint is not null or p.context is not null
-- case: pg-big-ints
select id, p.query_id, p.transaction_id, p.process_id from postgres_logs cross join unnest(metadata) as m cross join unnest(m.parsed) as p
-- case: pg-big-int-arith
select id, p.query_id * 2 as q2, p.transaction_id + 1 as t1 from postgres_logs cross join unnest(metadata) as m cross join unnest(m.parsed) as p where p.query_id is not null or p.transaction_id is not null
-- case: pg-metadata-offset
select id, metadata[safe_offset(0)].parsed[safe_offset(0)].application_name as app, metadata[0].host as host from postgres_logs
-- case: pg-regexp-query
select id from postgres_logs cross join unnest(metadata) as m cross join unnest(m.parsed) as p where regexp_contains(p.query, r'(?i)^\s*(insert|update|delete)')
-- case: pg-process-window
-- expect: error
select id, p.process_id, row_number() over (partition by p.process_id order by timestamp, id) as n from postgres_logs cross join unnest(metadata) as m cross join unnest(m.parsed) as p
-- case: pg-join-edge-by-minute
select e.id as edge_id, p.id as pg_id from edge_logs as e join postgres_logs as p on timestamp_trunc(e.timestamp, minute) = timestamp_trunc(p.timestamp, minute)
-- case: pg-union-sources
select id, timestamp, 'edge' as src from edge_logs union all select id, timestamp, 'postgres' as src from postgres_logs
-- case: pg-empty-event-message
select id, event_message, length(event_message) as l from postgres_logs where event_message is null or event_message = ''
-- case: pg-select-metadata
select id, metadata from postgres_logs
-- case: pg-process-window-qualified
select t.id, p.process_id, row_number() over (partition by p.process_id order by t.timestamp, t.id) as n from postgres_logs as t cross join unnest(t.metadata) as m cross join unnest(m.parsed) as p
-- case: pg-timestamp-ambiguous-with-parsed-field
-- expect: error
select timestamp, p.error_severity from postgres_logs cross join unnest(metadata) as m cross join unnest(m.parsed) as p
-- case: pg-parsed-field-unqualified
select id, error_severity, process_id from postgres_logs cross join unnest(metadata) as m cross join unnest(m.parsed) as p
-- case: pg-timestamp-qualified-and-alias-order
select postgres_logs.timestamp, p.timestamp as parsed_at, id from postgres_logs cross join unnest(metadata) as m cross join unnest(m.parsed) as p order by timestamp, id
