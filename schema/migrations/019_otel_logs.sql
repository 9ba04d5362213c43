-- logs.otel: the nine log tables as one OTEL-shaped relation, the `logs` table of Logflare's
-- ClickHouse backend that Studio's ClickHouse-dialect queries read. A view, not a copy: each source
-- is one UNION ALL branch with its Studio name as the constant `source`, so a predicate
-- source = '<name>' leaves only that branch after planning, and a predicate on "timestamp" or
-- project reaches the source's own partitions and (project, "timestamp") index.
-- Idempotent (OR REPLACE), as a database re-stamped from the chain before the baseline applies it
-- again. Columns follow Logflare's default log mapping (the coalesced paths below, "top level" meaning
-- the event's own keys, which lqe keeps in the columns and in `extra`); see docs/clickhouse.md.

-- A JSON object flattened to dotted keys with text values: nested objects are walked, strings
-- read as their text, numbers and booleans as their JSON text, arrays as their JSON text, JSON
-- null left out (a missing key reads '' through the ClickHouse front end, as in a ClickHouse Map).
CREATE OR REPLACE FUNCTION logs.otel_flatten(doc jsonb) RETURNS jsonb
LANGUAGE sql IMMUTABLE PARALLEL SAFE
BEGIN ATOMIC
  WITH RECURSIVE walk(key, value) AS (
    SELECT e.key, e.value FROM jsonb_each(CASE WHEN jsonb_typeof(doc) = 'object' THEN doc END) AS e
    UNION ALL
    SELECT w.key || '.' || c.key, c.value
    FROM walk AS w, jsonb_each(w.value) AS c
    WHERE jsonb_typeof(w.value) = 'object'
  )
  SELECT coalesce(jsonb_object_agg(walk.key, CASE jsonb_typeof(walk.value)
                                               WHEN 'string' THEN walk.value #>> '{}'
                                               ELSE walk.value::text END),
                  '{}'::jsonb)
  FROM walk
  WHERE jsonb_typeof(walk.value) NOT IN ('object', 'null');
END;

COMMENT ON FUNCTION logs.otel_flatten(jsonb) IS
  'A JSON object flattened to dotted keys with text values (JSON null left out): the '
  'string-to-string map of logs.otel.log_attributes.';

-- Logflare's severity_text: the first of severity_text, severityText, metadata.level, level,
-- metadata.parsed.error_severity that is present, upper-cased; a value outside Logflare's allowed
-- list (or none) reads INFO.
CREATE OR REPLACE FUNCTION logs.otel_severity_text(extra jsonb, metadata jsonb) RETURNS text
LANGUAGE sql IMMUTABLE PARALLEL SAFE
RETURN CASE upper(coalesce(extra ->> 'severity_text', extra ->> 'severityText',
                           metadata ->> 'level', extra ->> 'level',
                           metadata #>> '{parsed,error_severity}'))
         WHEN 'TRACE' THEN 'TRACE' WHEN 'DEBUG' THEN 'DEBUG' WHEN 'INFO' THEN 'INFO'
         WHEN 'NOTICE' THEN 'NOTICE' WHEN 'WARN' THEN 'WARN' WHEN 'WARNING' THEN 'WARNING'
         WHEN 'ERROR' THEN 'ERROR' WHEN 'FATAL' THEN 'FATAL' WHEN 'CRITICAL' THEN 'CRITICAL'
         WHEN 'EMERGENCY' THEN 'EMERGENCY' WHEN 'ALERT' THEN 'ALERT' WHEN 'LOG' THEN 'LOG'
         WHEN 'PANIC' THEN 'PANIC' ELSE 'INFO' END;

-- Logflare's severity_number, from severity_text by its value map.
CREATE OR REPLACE FUNCTION logs.otel_severity_number(severity_text text) RETURNS smallint
LANGUAGE sql IMMUTABLE PARALLEL SAFE
RETURN CASE severity_text
         WHEN 'TRACE' THEN 1 WHEN 'DEBUG' THEN 5 WHEN 'INFO' THEN 9 WHEN 'LOG' THEN 9
         WHEN 'NOTICE' THEN 11 WHEN 'WARN' THEN 13 WHEN 'WARNING' THEN 13 WHEN 'ERROR' THEN 17
         WHEN 'FATAL' THEN 21 WHEN 'CRITICAL' THEN 21 WHEN 'EMERGENCY' THEN 21
         WHEN 'ALERT' THEN 21 WHEN 'PANIC' THEN 21 ELSE 0 END;

-- The event's fields as Logflare's log_attributes holds them: every top-level key but id,
-- timestamp and event_message, with metadata's keys raised to the top (they win over a top-level
-- key of the same name), flattened.
CREATE OR REPLACE FUNCTION logs.otel_log_attributes(project text, extra jsonb, metadata jsonb) RETURNS jsonb
LANGUAGE sql IMMUTABLE PARALLEL SAFE
RETURN logs.otel_flatten(jsonb_strip_nulls(jsonb_build_object('project', project)) || extra
                         || metadata);

-- Logflare's resource_attributes: its picked keys, each the first of its paths present.
CREATE OR REPLACE FUNCTION logs.otel_resource_attributes(project text, extra jsonb, metadata jsonb)
RETURNS jsonb
LANGUAGE sql IMMUTABLE PARALLEL SAFE
RETURN jsonb_strip_nulls(jsonb_build_object(
  'application_id', coalesce(extra ->> 'app_id', extra ->> 'application_id',
                             metadata ->> 'app_id'),
  'application_name', coalesce(metadata #>> '{context,application}', extra ->> 'app_name',
                               extra ->> 'application_name', metadata ->> 'app_name',
                               metadata #>> '{parsed,application_name}'),
  'cluster', coalesce(metadata ->> 'cluster', extra ->> 'cluster',
                      extra #>> '{resource,cluster}'),
  'host', coalesce(metadata ->> 'host', metadata #>> '{context,host}', extra ->> 'host'),
  'instance_id', metadata ->> 'instance_id',
  'machine_id', extra ->> 'machine_id',
  'node', coalesce(metadata #>> '{context,vm,node}', extra #>> '{resource,node}'),
  'organization_id', coalesce(extra ->> 'organization_id', extra ->> 'org_id'),
  'organization_slug', extra ->> 'organization_slug',
  'project', coalesce(project, extra ->> 'project_ref', extra ->> 'project_id',
                      metadata ->> 'project', metadata ->> 'tenant', metadata ->> 'tenantId'),
  'region', coalesce(metadata ->> 'region', extra ->> 'region'),
  'service_name', coalesce(extra #>> '{resource,service,name}', extra ->> 'service_name'),
  'vector_file', metadata ->> 'vector_file',
  'vector_host', metadata ->> 'vector_host'));

CREATE OR REPLACE FUNCTION logs.otel_service_name(extra jsonb, metadata jsonb) RETURNS text
LANGUAGE sql IMMUTABLE PARALLEL SAFE
RETURN coalesce(extra #>> '{resource,service,name}', extra ->> 'service_name',
                extra #>> '{resource,name}', metadata #>> '{context,application}',
                metadata #>> '{context,service}', extra ->> 'SYSLOG_IDENTIFIER',
                extra ->> '_SYSTEMD_UNIT', '');

CREATE OR REPLACE FUNCTION logs.otel_scope_name(extra jsonb, metadata jsonb) RETURNS text
LANGUAGE sql IMMUTABLE PARALLEL SAFE
RETURN coalesce(extra #>> '{scope,name}', metadata #>> '{context,module}',
                metadata #>> '{context,application}', extra #>> '{instrumentation_library,name}',
                metadata ->> 'namespace', metadata ->> 'module_path', '');

CREATE OR REPLACE FUNCTION logs.otel_trace_id(extra jsonb, metadata jsonb) RETURNS text
LANGUAGE sql IMMUTABLE PARALLEL SAFE
RETURN coalesce(extra ->> 'trace_id', extra ->> 'traceId', extra ->> 'otel_trace_id',
                metadata ->> 'otel_trace_id', '');

CREATE OR REPLACE FUNCTION logs.otel_span_id(extra jsonb, metadata jsonb) RETURNS text
LANGUAGE sql IMMUTABLE PARALLEL SAFE
RETURN coalesce(extra ->> 'span_id', extra ->> 'spanId', extra ->> 'otel_span_id',
                metadata ->> 'otel_span_id', '');

-- One branch per source. The project is read where logs.all reads it (the column, or metadata's
-- project_ref / project), with the same expression as the source's project index.
DO $$
DECLARE
  branches text[] := ARRAY[]::text[];
  spec text[];
BEGIN
  FOREACH spec SLICE 1 IN ARRAY ARRAY[
      ARRAY['edge', 'edge_logs', 't.project'],
      ARRAY['postgres', 'postgres_logs', 't.project'],
      ARRAY['function_edge', 'function_edge_logs', '(t.metadata ->> ''project_ref'')'],
      ARRAY['function_events', 'function_logs', '(t.metadata ->> ''project_ref'')'],
      ARRAY['auth', 'auth_logs', 't.project'],
      ARRAY['realtime', 'realtime_logs', '(t.metadata ->> ''project'')'],
      ARRAY['storage', 'storage_logs', '(t.metadata ->> ''project'')'],
      ARRAY['restapi', 'postgrest_logs', 't.project'],
      ARRAY['pooler', 'pgbouncer_logs', 't.project']] LOOP
    branches := branches || format($branch$
  SELECT t.id, t."timestamp", %3$s AS project, %2$L::text AS source,
         coalesce(t.event_message, '') AS event_message,
         logs.otel_severity_text(t.extra, t.metadata) AS severity_text,
         logs.otel_severity_number(logs.otel_severity_text(t.extra, t.metadata))
           AS severity_number,
         logs.otel_service_name(t.extra, t.metadata) AS service_name,
         logs.otel_trace_id(t.extra, t.metadata) AS trace_id,
         logs.otel_span_id(t.extra, t.metadata) AS span_id,
         logs.otel_scope_name(t.extra, t.metadata) AS scope_name,
         logs.otel_log_attributes(%3$s, t.extra, t.metadata) AS log_attributes,
         logs.otel_resource_attributes(%3$s, t.extra, t.metadata) AS resource_attributes
  FROM logs.%1$I AS t$branch$, spec[1], spec[2], spec[3]);
  END LOOP;
  EXECUTE 'CREATE OR REPLACE VIEW logs.otel AS' || array_to_string(branches, E'\n  UNION ALL');
END
$$;

COMMENT ON VIEW logs.otel IS
  'The nine log tables as one OTEL-shaped relation (Logflare''s ClickHouse logs table): one '
  'UNION ALL branch per source, source holding Studio''s name; log_attributes is the event''s '
  'fields flattened to dotted keys with text values. Read by ClickHouse-dialect endpoints as '
  'the table logs.';

GRANT SELECT ON logs.otel TO lqe_gateway;
