-- The queries Studio's OTEL log pages send (Logs.utils.otel.ts: rows, count, chart, single log;
-- UnifiedLogs.queries.ts: rows, facet counts, the UNION ALL count), with every table's filters,
-- translated by lqe and compared with ClickHouse. Listing queries order by timestamp and id so
-- ties cannot reorder rows between engines.

-- case: studio-edge-rows
SELECT id, timestamp, event_message, log_attributes['identifier'] AS identifier, log_attributes['request.method'] AS method, log_attributes['request.path'] AS path, log_attributes['request.search'] AS search, log_attributes['response.status_code'] AS status_code
FROM logs
WHERE source = 'edge_logs'
ORDER BY timestamp DESC, id
LIMIT 100

-- case: studio-edge-rows-status-error
SELECT id, timestamp, event_message FROM logs WHERE source = 'edge_logs' AND toInt32OrZero(log_attributes['response.status_code']) BETWEEN 500 AND 599 ORDER BY timestamp DESC, id LIMIT 100

-- case: studio-edge-rows-filters
SELECT id, timestamp FROM logs WHERE source = 'edge_logs' AND (log_attributes['request.path'] LIKE '/rest/%' OR log_attributes['request.path'] LIKE '/graphql/%') AND log_attributes['request.method'] = 'POST' AND event_message ILIKE '%REST%' ORDER BY timestamp DESC, id LIMIT 100

-- case: studio-edge-count-warning
SELECT count() AS count FROM logs WHERE source = 'edge_logs' AND toInt32OrZero(log_attributes['response.status_code']) BETWEEN 400 AND 499

-- case: studio-edge-chart-minute
SELECT
  toStartOfMinute(timestamp) AS timestamp,
  countIf(NOT ((toInt32OrZero(log_attributes['response.status_code']) >= 500) OR (toInt32OrZero(log_attributes['response.status_code']) BETWEEN 400 AND 499))) AS ok_count,
  countIf(toInt32OrZero(log_attributes['response.status_code']) >= 500) AS error_count,
  countIf(toInt32OrZero(log_attributes['response.status_code']) BETWEEN 400 AND 499) AS warning_count
FROM logs
WHERE source = 'edge_logs'
GROUP BY timestamp
ORDER BY timestamp ASC

-- case: studio-postgres-chart-hour
SELECT
  toStartOfHour(timestamp) AS timestamp,
  countIf(NOT ((log_attributes['parsed.error_severity'] IN ('ERROR', 'FATAL', 'PANIC')) OR (log_attributes['parsed.error_severity'] = 'WARNING'))) AS ok_count,
  countIf(log_attributes['parsed.error_severity'] IN ('ERROR', 'FATAL', 'PANIC')) AS error_count,
  countIf(log_attributes['parsed.error_severity'] = 'WARNING') AS warning_count
FROM logs
WHERE source = 'postgres_logs'
GROUP BY timestamp
ORDER BY timestamp ASC

-- case: studio-no-severity-chart-day
SELECT
  toStartOfDay(timestamp) AS timestamp,
  countIf(NOT ((0) OR (0))) AS ok_count,
  countIf(0) AS error_count,
  countIf(0) AS warning_count
FROM logs
WHERE source = 'realtime_logs'
GROUP BY timestamp
ORDER BY timestamp ASC

-- case: studio-postgres-rows-severity
SELECT id, timestamp, event_message, log_attributes['identifier'] AS identifier, log_attributes['parsed.error_severity'] AS error_severity, log_attributes['parsed.detail'] AS detail, log_attributes['parsed.hint'] AS hint FROM logs WHERE source = 'postgres_logs' AND log_attributes['parsed.error_severity'] NOT IN ('ERROR', 'FATAL', 'PANIC') ORDER BY timestamp DESC, id LIMIT 100

-- case: studio-pg-cron
SELECT id, timestamp, event_message, log_attributes['parsed.error_severity'] AS error_severity, log_attributes['parsed.query'] AS query FROM logs WHERE source = 'postgres_logs' AND (log_attributes['parsed.application_name'] = 'pg_cron' OR event_message ILIKE '%cron job%') ORDER BY timestamp DESC, id LIMIT 100

-- case: studio-auth-rows-severity
SELECT id, timestamp, log_attributes['level'] AS level, log_attributes['status'] AS status, log_attributes['path'] AS path, log_attributes['msg'] AS msg, log_attributes['error'] AS error FROM logs WHERE source = 'auth_logs' AND (log_attributes['level'] IN ('error', 'fatal') OR toInt32OrZero(log_attributes['status']) >= 500) ORDER BY timestamp DESC, id LIMIT 100

-- case: studio-auth-info
SELECT count() AS count FROM logs WHERE source = 'auth_logs' AND NOT (log_attributes['level'] IN ('error', 'fatal') OR toInt32OrZero(log_attributes['status']) >= 500) AND NOT (log_attributes['level'] = 'warning' OR toInt32OrZero(log_attributes['status']) BETWEEN 400 AND 499)

-- case: studio-auth-endpoints
SELECT id, log_attributes['path'] AS path FROM logs WHERE source = 'auth_logs' AND match(log_attributes['path'], '/token|/authorize|/callback|/otp|/magiclink') ORDER BY timestamp DESC, id LIMIT 100

-- case: studio-function-logs
SELECT id, timestamp, event_message, log_attributes['event_type'] AS event_type, log_attributes['function_id'] AS function_id, log_attributes['execution_id'] AS execution_id, log_attributes['level'] AS level FROM logs WHERE source = 'function_logs' AND log_attributes['level'] != 'error' ORDER BY timestamp DESC, id LIMIT 100

-- case: studio-function-edge-logs
SELECT id, timestamp, log_attributes['response.status_code'] AS status_code, log_attributes['request.method'] AS method, log_attributes['request.pathname'] AS pathname, log_attributes['function_id'] AS function_id, log_attributes['execution_time_ms'] AS execution_time_ms FROM logs WHERE source = 'function_edge_logs' AND toInt32OrZero(log_attributes['response.status_code']) BETWEEN 200 AND 299 ORDER BY timestamp DESC, id LIMIT 100

-- case: studio-pooler-database
SELECT id, timestamp FROM logs WHERE source = 'pgbouncer_logs' AND log_attributes['project'] LIKE 'def%' ORDER BY timestamp DESC, id LIMIT 100

-- case: studio-unknown-filter-key
SELECT count() AS count FROM logs WHERE source = 'edge_logs' AND log_attributes['request.headers.cf_connecting_ip'] = '203.0.113.0'

-- case: studio-single-log
SELECT id, timestamp, event_message, source, severity_text, log_attributes FROM logs WHERE id = 'e-009' LIMIT 1

-- case: unified-rows
SELECT id, null AS source_id, timestamp,
  CASE WHEN source = 'edge_logs' AND log_attributes['request.path'] LIKE '%/rest/%' THEN 'postgrest' WHEN source = 'edge_logs' AND log_attributes['request.path'] LIKE '%/storage/%' THEN 'storage' WHEN source = 'edge_logs' THEN 'edge' WHEN source = 'postgres_logs' THEN 'postgres' WHEN source = 'function_edge_logs' THEN 'edge function' WHEN source = 'auth_logs' THEN 'auth' ELSE source END AS log_type,
  CASE WHEN source = 'postgres_logs' THEN toString(log_attributes['parsed.sql_state_code']) ELSE toString(log_attributes['response.status_code']) END AS status,
  CASE WHEN log_attributes['response.status_code'] != '' AND toInt32OrZero(log_attributes['response.status_code']) >= 500 THEN 'error' WHEN log_attributes['response.status_code'] != '' AND toInt32OrZero(log_attributes['response.status_code']) BETWEEN 400 AND 499 THEN 'warning' WHEN severity_text IN ('ERROR','FATAL','CRITICAL','ALERT','EMERGENCY') THEN 'error' WHEN severity_text IN ('WARN','WARNING') THEN 'warning' ELSE 'success' END AS level,
  log_attributes['request.path'] AS pathname, event_message, log_attributes['request.method'] AS method, null AS log_count, null AS logs
FROM logs
WHERE ((source = 'edge_logs' AND log_attributes['request.path'] NOT LIKE '%/rest/%' AND log_attributes['request.path'] NOT LIKE '%/storage/%') OR (source = 'postgres_logs') OR (source = 'auth_logs'))
ORDER BY timestamp DESC, id
LIMIT 50

-- case: unified-facet-method
SELECT 'method' AS dimension, (log_attributes['request.method']) AS value, count() AS count FROM logs WHERE (source = 'edge_logs') AND (log_attributes['request.method']) IS NOT NULL AND (log_attributes['request.method']) != '' GROUP BY value ORDER BY value LIMIT 20

-- case: unified-count-union
SELECT 'total' AS dimension, 'all' AS value, count() AS count FROM logs WHERE 1
UNION ALL SELECT 'log_type' AS dimension, 'postgres' AS value, countIf(source = 'postgres_logs') AS count FROM logs WHERE 1
UNION ALL SELECT 'level' AS dimension, 'error' AS value, countIf((CASE WHEN severity_text IN ('ERROR','FATAL') THEN 'error' ELSE 'success' END) = 'error') AS count FROM logs WHERE source IN ('auth_logs', 'postgres_logs')
