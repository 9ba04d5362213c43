-- The OTEL relation itself: every column of every source, lqe's logs.otel (migration 019) against
-- the same events mapped by Logflare's rules into ClickHouse. The PostgreSQL side reads a missing
-- map key as ClickHouse does ('').

-- case: relation-scalar-columns
SELECT id, timestamp, project, source, event_message, severity_text, severity_number, service_name, trace_id, span_id, scope_name FROM logs ORDER BY source, timestamp, id
-- postgres: SELECT id, timestamp, coalesce(project, '') AS project, source, event_message, severity_text, severity_number, service_name, trace_id, span_id, scope_name FROM logs.otel ORDER BY source, timestamp, id

-- case: relation-log-attributes
SELECT id, log_attributes FROM logs ORDER BY id
-- postgres: SELECT id, log_attributes FROM logs.otel ORDER BY id

-- case: relation-resource-attributes
SELECT id, resource_attributes FROM logs ORDER BY id
-- postgres: SELECT id, resource_attributes FROM logs.otel ORDER BY id

-- case: relation-count-per-source
SELECT source, count() AS n FROM logs GROUP BY source ORDER BY source
-- postgres: SELECT source, count(*) AS n FROM logs.otel GROUP BY source ORDER BY source

-- case: relation-severity-per-source
SELECT source, severity_text, severity_number, count() AS n FROM logs GROUP BY source, severity_text, severity_number ORDER BY source, severity_text
-- postgres: SELECT source, severity_text, severity_number, count(*) AS n FROM logs.otel GROUP BY 1, 2, 3 ORDER BY source, severity_text

-- case: relation-map-access-present-and-missing
SELECT id, log_attributes['request.method'] AS method, log_attributes['response.status_code'] AS status, log_attributes['no.such.key'] AS missing FROM logs WHERE source = 'edge_logs' ORDER BY id
-- postgres: SELECT id, coalesce(log_attributes ->> 'request.method', '') AS method, coalesce(log_attributes ->> 'response.status_code', '') AS status, coalesce(log_attributes ->> 'no.such.key', '') AS missing FROM logs.otel WHERE source = 'edge_logs' ORDER BY id

-- case: relation-map-access-studio-keys
SELECT id, log_attributes['identifier'] AS identifier, log_attributes['parsed.error_severity'] AS error_severity, log_attributes['level'] AS level, log_attributes['status'] AS status, log_attributes['path'] AS path, log_attributes['function_id'] AS function_id, log_attributes['execution_time_ms'] AS execution_time_ms, log_attributes['project'] AS project FROM logs ORDER BY id
-- postgres: SELECT id, coalesce(log_attributes ->> 'identifier', '') AS identifier, coalesce(log_attributes ->> 'parsed.error_severity', '') AS error_severity, coalesce(log_attributes ->> 'level', '') AS level, coalesce(log_attributes ->> 'status', '') AS status, coalesce(log_attributes ->> 'path', '') AS path, coalesce(log_attributes ->> 'function_id', '') AS function_id, coalesce(log_attributes ->> 'execution_time_ms', '') AS execution_time_ms, coalesce(log_attributes ->> 'project', '') AS project FROM logs.otel ORDER BY id

-- case: relation-attribute-keys
SELECT source, arraySort(groupUniqArrayArray(mapKeys(log_attributes))) AS keys FROM logs GROUP BY source ORDER BY source
-- postgres: SELECT source, (SELECT jsonb_agg(k ORDER BY k COLLATE "C") FROM (SELECT DISTINCT jsonb_object_keys(o.log_attributes) AS k FROM logs.otel AS o WHERE o.source = s.source) AS ks) AS keys FROM (SELECT DISTINCT source FROM logs.otel) AS s ORDER BY source
