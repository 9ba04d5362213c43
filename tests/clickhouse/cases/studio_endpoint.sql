-- Studio's OTEL queries (Logs.utils.otel.ts, UnifiedLogs.queries.ts) as logs.all.otel runs them:
-- each case is Studio's query, with its filters filled in for every source, under the CTE `logs`
-- that sql/logs.all.otel.sql puts before a caller's sql (the relation restricted to one project
-- and time range, the start exclusive and the end inclusive). ClickHouse reads the CTE's own
-- `FROM logs` as the table, as lqe does. Listing queries order by timestamp and id so ties cannot
-- reorder rows.

-- case: studio-ep-edge-rows
-- params: {"project": "default", "start": "2025-01-15 10:00:00", "end": "2025-01-15 11:30:00"}
WITH logs AS (SELECT * FROM logs WHERE project = {project:String} AND timestamp > toDateTime64({start:String}, 6, 'UTC') AND timestamp <= toDateTime64({end:String}, 6, 'UTC'))
SELECT id, timestamp, event_message, log_attributes['identifier'] AS identifier, log_attributes['request.method'] AS method, log_attributes['request.path'] AS path, log_attributes['request.search'] AS search, log_attributes['response.status_code'] AS status_code
FROM logs
WHERE source = 'edge_logs'
ORDER BY timestamp DESC, id
LIMIT 100

-- case: studio-ep-edge-count-product-database
-- params: {"project": "default", "start": "2025-01-15 10:00:00", "end": "2025-01-15 11:30:00"}
WITH logs AS (SELECT * FROM logs WHERE project = {project:String} AND timestamp > toDateTime64({start:String}, 6, 'UTC') AND timestamp <= toDateTime64({end:String}, 6, 'UTC'))
SELECT count() AS count FROM logs WHERE source = 'edge_logs' AND log_attributes['request.path'] LIKE '/rest/%' OR log_attributes['request.path'] LIKE '/graphql/%'

-- case: studio-ep-edge-count-product-storage
-- params: {"project": "default", "start": "2025-01-15 10:00:00", "end": "2025-01-15 11:30:00"}
WITH logs AS (SELECT * FROM logs WHERE project = {project:String} AND timestamp > toDateTime64({start:String}, 6, 'UTC') AND timestamp <= toDateTime64({end:String}, 6, 'UTC'))
SELECT count() AS count FROM logs WHERE source = 'edge_logs' AND log_attributes['request.path'] LIKE '/storage/%'

-- case: studio-ep-edge-count-product-auth
-- params: {"project": "default", "start": "2025-01-15 10:00:00", "end": "2025-01-15 11:30:00"}
WITH logs AS (SELECT * FROM logs WHERE project = {project:String} AND timestamp > toDateTime64({start:String}, 6, 'UTC') AND timestamp <= toDateTime64({end:String}, 6, 'UTC'))
SELECT count() AS count FROM logs WHERE source = 'edge_logs' AND log_attributes['request.path'] LIKE '/auth/%'

-- case: studio-ep-edge-count-product-realtime
-- params: {"project": "default", "start": "2025-01-15 10:00:00", "end": "2025-01-15 11:30:00"}
WITH logs AS (SELECT * FROM logs WHERE project = {project:String} AND timestamp > toDateTime64({start:String}, 6, 'UTC') AND timestamp <= toDateTime64({end:String}, 6, 'UTC'))
SELECT count() AS count FROM logs WHERE source = 'edge_logs' AND log_attributes['request.path'] LIKE '/realtime/%'

-- case: studio-ep-edge-count-method-get
-- params: {"project": "default", "start": "2025-01-15 10:00:00", "end": "2025-01-15 11:30:00"}
WITH logs AS (SELECT * FROM logs WHERE project = {project:String} AND timestamp > toDateTime64({start:String}, 6, 'UTC') AND timestamp <= toDateTime64({end:String}, 6, 'UTC'))
SELECT count() AS count FROM logs WHERE source = 'edge_logs' AND log_attributes['request.method'] = 'GET'

-- case: studio-ep-edge-count-method-post
-- params: {"project": "default", "start": "2025-01-15 10:00:00", "end": "2025-01-15 11:30:00"}
WITH logs AS (SELECT * FROM logs WHERE project = {project:String} AND timestamp > toDateTime64({start:String}, 6, 'UTC') AND timestamp <= toDateTime64({end:String}, 6, 'UTC'))
SELECT count() AS count FROM logs WHERE source = 'edge_logs' AND log_attributes['request.method'] = 'POST'

-- case: studio-ep-edge-count-method-put
-- params: {"project": "default", "start": "2025-01-15 10:00:00", "end": "2025-01-15 11:30:00"}
WITH logs AS (SELECT * FROM logs WHERE project = {project:String} AND timestamp > toDateTime64({start:String}, 6, 'UTC') AND timestamp <= toDateTime64({end:String}, 6, 'UTC'))
SELECT count() AS count FROM logs WHERE source = 'edge_logs' AND log_attributes['request.method'] = 'PUT'

-- case: studio-ep-edge-count-method-patch
-- params: {"project": "default", "start": "2025-01-15 10:00:00", "end": "2025-01-15 11:30:00"}
WITH logs AS (SELECT * FROM logs WHERE project = {project:String} AND timestamp > toDateTime64({start:String}, 6, 'UTC') AND timestamp <= toDateTime64({end:String}, 6, 'UTC'))
SELECT count() AS count FROM logs WHERE source = 'edge_logs' AND log_attributes['request.method'] = 'PATCH'

-- case: studio-ep-edge-count-method-delete
-- params: {"project": "default", "start": "2025-01-15 10:00:00", "end": "2025-01-15 11:30:00"}
WITH logs AS (SELECT * FROM logs WHERE project = {project:String} AND timestamp > toDateTime64({start:String}, 6, 'UTC') AND timestamp <= toDateTime64({end:String}, 6, 'UTC'))
SELECT count() AS count FROM logs WHERE source = 'edge_logs' AND log_attributes['request.method'] = 'DELETE'

-- case: studio-ep-edge-count-method-options
-- params: {"project": "default", "start": "2025-01-15 10:00:00", "end": "2025-01-15 11:30:00"}
WITH logs AS (SELECT * FROM logs WHERE project = {project:String} AND timestamp > toDateTime64({start:String}, 6, 'UTC') AND timestamp <= toDateTime64({end:String}, 6, 'UTC'))
SELECT count() AS count FROM logs WHERE source = 'edge_logs' AND log_attributes['request.method'] = 'OPTIONS'

-- case: studio-ep-edge-count-status-error
-- params: {"project": "default", "start": "2025-01-15 10:00:00", "end": "2025-01-15 11:30:00"}
WITH logs AS (SELECT * FROM logs WHERE project = {project:String} AND timestamp > toDateTime64({start:String}, 6, 'UTC') AND timestamp <= toDateTime64({end:String}, 6, 'UTC'))
SELECT count() AS count FROM logs WHERE source = 'edge_logs' AND toInt32OrZero(log_attributes['response.status_code']) BETWEEN 500 AND 599

-- case: studio-ep-edge-count-status-success
-- params: {"project": "default", "start": "2025-01-15 10:00:00", "end": "2025-01-15 11:30:00"}
WITH logs AS (SELECT * FROM logs WHERE project = {project:String} AND timestamp > toDateTime64({start:String}, 6, 'UTC') AND timestamp <= toDateTime64({end:String}, 6, 'UTC'))
SELECT count() AS count FROM logs WHERE source = 'edge_logs' AND toInt32OrZero(log_attributes['response.status_code']) BETWEEN 200 AND 299

-- case: studio-ep-edge-count-status-warning
-- params: {"project": "default", "start": "2025-01-15 10:00:00", "end": "2025-01-15 11:30:00"}
WITH logs AS (SELECT * FROM logs WHERE project = {project:String} AND timestamp > toDateTime64({start:String}, 6, 'UTC') AND timestamp <= toDateTime64({end:String}, 6, 'UTC'))
SELECT count() AS count FROM logs WHERE source = 'edge_logs' AND toInt32OrZero(log_attributes['response.status_code']) BETWEEN 400 AND 499

-- case: studio-ep-edge-count-database
-- params: {"project": "default", "start": "2025-01-15 10:00:00", "end": "2025-01-15 11:30:00"}
WITH logs AS (SELECT * FROM logs WHERE project = {project:String} AND timestamp > toDateTime64({start:String}, 6, 'UTC') AND timestamp <= toDateTime64({end:String}, 6, 'UTC'))
SELECT count() AS count FROM logs WHERE source = 'edge_logs' AND log_attributes['identifier'] = 'default'

-- case: studio-ep-edge-count-search
-- params: {"project": "default", "start": "2025-01-15 10:00:00", "end": "2025-01-15 11:30:00"}
WITH logs AS (SELECT * FROM logs WHERE project = {project:String} AND timestamp > toDateTime64({start:String}, 6, 'UTC') AND timestamp <= toDateTime64({end:String}, 6, 'UTC'))
SELECT count() AS count FROM logs WHERE source = 'edge_logs' AND event_message ILIKE '%storage%'

-- case: studio-ep-edge-rows-combined
-- params: {"project": "default", "start": "2025-01-15 10:00:00", "end": "2025-01-15 11:30:00"}
WITH logs AS (SELECT * FROM logs WHERE project = {project:String} AND timestamp > toDateTime64({start:String}, 6, 'UTC') AND timestamp <= toDateTime64({end:String}, 6, 'UTC'))
SELECT id, timestamp, event_message, log_attributes['identifier'] AS identifier, log_attributes['request.method'] AS method, log_attributes['request.path'] AS path, log_attributes['request.search'] AS search, log_attributes['response.status_code'] AS status_code
FROM logs
WHERE source = 'edge_logs' AND (log_attributes['request.path'] LIKE '/rest/%' OR log_attributes['request.path'] LIKE '/graphql/%') AND log_attributes['request.method'] = 'GET' AND toInt32OrZero(log_attributes['response.status_code']) BETWEEN 200 AND 299
ORDER BY timestamp DESC, id
LIMIT 100

-- case: studio-ep-edge-chart-toStartOfMinute
-- params: {"project": "default", "start": "2025-01-15 10:00:00", "end": "2025-01-15 11:30:00"}
WITH logs AS (SELECT * FROM logs WHERE project = {project:String} AND timestamp > toDateTime64({start:String}, 6, 'UTC') AND timestamp <= toDateTime64({end:String}, 6, 'UTC'))
SELECT
  toStartOfMinute(timestamp) AS timestamp,
  countIf(NOT ((toInt32OrZero(log_attributes['response.status_code']) >= 500) OR (toInt32OrZero(log_attributes['response.status_code']) BETWEEN 400 AND 499))) AS ok_count,
  countIf(toInt32OrZero(log_attributes['response.status_code']) >= 500) AS error_count,
  countIf(toInt32OrZero(log_attributes['response.status_code']) BETWEEN 400 AND 499) AS warning_count
FROM logs
WHERE source = 'edge_logs'
GROUP BY timestamp
ORDER BY timestamp ASC

-- case: studio-ep-edge-chart-toStartOfHour
-- params: {"project": "default", "start": "2025-01-15 10:00:00", "end": "2025-01-15 11:30:00"}
WITH logs AS (SELECT * FROM logs WHERE project = {project:String} AND timestamp > toDateTime64({start:String}, 6, 'UTC') AND timestamp <= toDateTime64({end:String}, 6, 'UTC'))
SELECT
  toStartOfHour(timestamp) AS timestamp,
  countIf(NOT ((toInt32OrZero(log_attributes['response.status_code']) >= 500) OR (toInt32OrZero(log_attributes['response.status_code']) BETWEEN 400 AND 499))) AS ok_count,
  countIf(toInt32OrZero(log_attributes['response.status_code']) >= 500) AS error_count,
  countIf(toInt32OrZero(log_attributes['response.status_code']) BETWEEN 400 AND 499) AS warning_count
FROM logs
WHERE source = 'edge_logs'
GROUP BY timestamp
ORDER BY timestamp ASC

-- case: studio-ep-edge-chart-toStartOfDay
-- params: {"project": "default", "start": "2025-01-15 10:00:00", "end": "2025-01-15 11:30:00"}
WITH logs AS (SELECT * FROM logs WHERE project = {project:String} AND timestamp > toDateTime64({start:String}, 6, 'UTC') AND timestamp <= toDateTime64({end:String}, 6, 'UTC'))
SELECT
  toStartOfDay(timestamp) AS timestamp,
  countIf(NOT ((toInt32OrZero(log_attributes['response.status_code']) >= 500) OR (toInt32OrZero(log_attributes['response.status_code']) BETWEEN 400 AND 499))) AS ok_count,
  countIf(toInt32OrZero(log_attributes['response.status_code']) >= 500) AS error_count,
  countIf(toInt32OrZero(log_attributes['response.status_code']) BETWEEN 400 AND 499) AS warning_count
FROM logs
WHERE source = 'edge_logs'
GROUP BY timestamp
ORDER BY timestamp ASC

-- case: studio-ep-postgres-rows
-- params: {"project": "default", "start": "2025-01-15 10:00:00", "end": "2025-01-15 11:30:00"}
WITH logs AS (SELECT * FROM logs WHERE project = {project:String} AND timestamp > toDateTime64({start:String}, 6, 'UTC') AND timestamp <= toDateTime64({end:String}, 6, 'UTC'))
SELECT id, timestamp, event_message, log_attributes['identifier'] AS identifier, log_attributes['parsed.error_severity'] AS error_severity, log_attributes['parsed.detail'] AS detail, log_attributes['parsed.hint'] AS hint
FROM logs
WHERE source = 'postgres_logs'
ORDER BY timestamp DESC, id
LIMIT 100

-- case: studio-ep-postgres-count-error
-- params: {"project": "default", "start": "2025-01-15 10:00:00", "end": "2025-01-15 11:30:00"}
WITH logs AS (SELECT * FROM logs WHERE project = {project:String} AND timestamp > toDateTime64({start:String}, 6, 'UTC') AND timestamp <= toDateTime64({end:String}, 6, 'UTC'))
SELECT count() AS count FROM logs WHERE source = 'postgres_logs' AND log_attributes['parsed.error_severity'] IN ('ERROR', 'FATAL', 'PANIC')

-- case: studio-ep-postgres-count-no-error
-- params: {"project": "default", "start": "2025-01-15 10:00:00", "end": "2025-01-15 11:30:00"}
WITH logs AS (SELECT * FROM logs WHERE project = {project:String} AND timestamp > toDateTime64({start:String}, 6, 'UTC') AND timestamp <= toDateTime64({end:String}, 6, 'UTC'))
SELECT count() AS count FROM logs WHERE source = 'postgres_logs' AND log_attributes['parsed.error_severity'] NOT IN ('ERROR', 'FATAL', 'PANIC')

-- case: studio-ep-postgres-count-log
-- params: {"project": "default", "start": "2025-01-15 10:00:00", "end": "2025-01-15 11:30:00"}
WITH logs AS (SELECT * FROM logs WHERE project = {project:String} AND timestamp > toDateTime64({start:String}, 6, 'UTC') AND timestamp <= toDateTime64({end:String}, 6, 'UTC'))
SELECT count() AS count FROM logs WHERE source = 'postgres_logs' AND log_attributes['parsed.error_severity'] = 'LOG'

-- case: studio-ep-postgres-count-database
-- params: {"project": "default", "start": "2025-01-15 10:00:00", "end": "2025-01-15 11:30:00"}
WITH logs AS (SELECT * FROM logs WHERE project = {project:String} AND timestamp > toDateTime64({start:String}, 6, 'UTC') AND timestamp <= toDateTime64({end:String}, 6, 'UTC'))
SELECT count() AS count FROM logs WHERE source = 'postgres_logs' AND log_attributes['identifier'] = 'default'

-- case: studio-ep-postgres-count-search
-- params: {"project": "default", "start": "2025-01-15 10:00:00", "end": "2025-01-15 11:30:00"}
WITH logs AS (SELECT * FROM logs WHERE project = {project:String} AND timestamp > toDateTime64({start:String}, 6, 'UTC') AND timestamp <= toDateTime64({end:String}, 6, 'UTC'))
SELECT count() AS count FROM logs WHERE source = 'postgres_logs' AND event_message ILIKE '%connection%'

-- case: studio-ep-postgres-chart
-- params: {"project": "default", "start": "2025-01-15 10:00:00", "end": "2025-01-15 11:30:00"}
WITH logs AS (SELECT * FROM logs WHERE project = {project:String} AND timestamp > toDateTime64({start:String}, 6, 'UTC') AND timestamp <= toDateTime64({end:String}, 6, 'UTC'))
SELECT
  toStartOfMinute(timestamp) AS timestamp,
  countIf(NOT ((log_attributes['parsed.error_severity'] IN ('ERROR', 'FATAL', 'PANIC')) OR (log_attributes['parsed.error_severity'] = 'WARNING'))) AS ok_count,
  countIf(log_attributes['parsed.error_severity'] IN ('ERROR', 'FATAL', 'PANIC')) AS error_count,
  countIf(log_attributes['parsed.error_severity'] = 'WARNING') AS warning_count
FROM logs
WHERE source = 'postgres_logs'
GROUP BY timestamp
ORDER BY timestamp ASC

-- case: studio-ep-pg-cron-rows
-- params: {"project": "default", "start": "2025-01-15 10:00:00", "end": "2025-01-15 11:30:00"}
WITH logs AS (SELECT * FROM logs WHERE project = {project:String} AND timestamp > toDateTime64({start:String}, 6, 'UTC') AND timestamp <= toDateTime64({end:String}, 6, 'UTC'))
SELECT id, timestamp, event_message, log_attributes['parsed.error_severity'] AS error_severity, log_attributes['parsed.query'] AS query
FROM logs
WHERE source = 'postgres_logs' AND (log_attributes['parsed.application_name'] = 'pg_cron' OR event_message ILIKE '%cron job%')
ORDER BY timestamp DESC, id
LIMIT 100

-- case: studio-ep-pg-cron-chart
-- params: {"project": "default", "start": "2025-01-15 10:00:00", "end": "2025-01-15 11:30:00"}
WITH logs AS (SELECT * FROM logs WHERE project = {project:String} AND timestamp > toDateTime64({start:String}, 6, 'UTC') AND timestamp <= toDateTime64({end:String}, 6, 'UTC'))
SELECT
  toStartOfHour(timestamp) AS timestamp,
  countIf(NOT ((log_attributes['parsed.error_severity'] IN ('ERROR', 'FATAL', 'PANIC')) OR (0))) AS ok_count,
  countIf(log_attributes['parsed.error_severity'] IN ('ERROR', 'FATAL', 'PANIC')) AS error_count,
  countIf(0) AS warning_count
FROM logs
WHERE source = 'postgres_logs' AND (log_attributes['parsed.application_name'] = 'pg_cron' OR event_message ILIKE '%cron job%')
GROUP BY timestamp
ORDER BY timestamp ASC

-- case: studio-ep-function-logs-rows
-- params: {"project": "default", "start": "2025-01-15 10:00:00", "end": "2025-01-15 11:30:00"}
WITH logs AS (SELECT * FROM logs WHERE project = {project:String} AND timestamp > toDateTime64({start:String}, 6, 'UTC') AND timestamp <= toDateTime64({end:String}, 6, 'UTC'))
SELECT id, timestamp, event_message, log_attributes['event_type'] AS event_type, log_attributes['function_id'] AS function_id, log_attributes['execution_id'] AS execution_id, log_attributes['level'] AS level
FROM logs
WHERE source = 'function_logs'
ORDER BY timestamp DESC, id
LIMIT 100

-- case: studio-ep-function-logs-count-error
-- params: {"project": "default", "start": "2025-01-15 10:00:00", "end": "2025-01-15 11:30:00"}
WITH logs AS (SELECT * FROM logs WHERE project = {project:String} AND timestamp > toDateTime64({start:String}, 6, 'UTC') AND timestamp <= toDateTime64({end:String}, 6, 'UTC'))
SELECT count() AS count FROM logs WHERE source = 'function_logs' AND log_attributes['level'] = 'error'

-- case: studio-ep-function-logs-count-log
-- params: {"project": "default", "start": "2025-01-15 10:00:00", "end": "2025-01-15 11:30:00"}
WITH logs AS (SELECT * FROM logs WHERE project = {project:String} AND timestamp > toDateTime64({start:String}, 6, 'UTC') AND timestamp <= toDateTime64({end:String}, 6, 'UTC'))
SELECT count() AS count FROM logs WHERE source = 'function_logs' AND log_attributes['level'] = 'log'

-- case: studio-ep-function-logs-count-info
-- params: {"project": "default", "start": "2025-01-15 10:00:00", "end": "2025-01-15 11:30:00"}
WITH logs AS (SELECT * FROM logs WHERE project = {project:String} AND timestamp > toDateTime64({start:String}, 6, 'UTC') AND timestamp <= toDateTime64({end:String}, 6, 'UTC'))
SELECT count() AS count FROM logs WHERE source = 'function_logs' AND log_attributes['level'] = 'info'

-- case: studio-ep-function-logs-count-debug
-- params: {"project": "default", "start": "2025-01-15 10:00:00", "end": "2025-01-15 11:30:00"}
WITH logs AS (SELECT * FROM logs WHERE project = {project:String} AND timestamp > toDateTime64({start:String}, 6, 'UTC') AND timestamp <= toDateTime64({end:String}, 6, 'UTC'))
SELECT count() AS count FROM logs WHERE source = 'function_logs' AND log_attributes['level'] = 'debug'

-- case: studio-ep-function-logs-count-warn
-- params: {"project": "default", "start": "2025-01-15 10:00:00", "end": "2025-01-15 11:30:00"}
WITH logs AS (SELECT * FROM logs WHERE project = {project:String} AND timestamp > toDateTime64({start:String}, 6, 'UTC') AND timestamp <= toDateTime64({end:String}, 6, 'UTC'))
SELECT count() AS count FROM logs WHERE source = 'function_logs' AND log_attributes['level'] = 'warn'

-- case: studio-ep-function-logs-count-not-error
-- params: {"project": "default", "start": "2025-01-15 10:00:00", "end": "2025-01-15 11:30:00"}
WITH logs AS (SELECT * FROM logs WHERE project = {project:String} AND timestamp > toDateTime64({start:String}, 6, 'UTC') AND timestamp <= toDateTime64({end:String}, 6, 'UTC'))
SELECT count() AS count FROM logs WHERE source = 'function_logs' AND log_attributes['level'] != 'error'

-- case: studio-ep-function-logs-chart
-- params: {"project": "default", "start": "2025-01-15 10:00:00", "end": "2025-01-15 11:30:00"}
WITH logs AS (SELECT * FROM logs WHERE project = {project:String} AND timestamp > toDateTime64({start:String}, 6, 'UTC') AND timestamp <= toDateTime64({end:String}, 6, 'UTC'))
SELECT
  toStartOfMinute(timestamp) AS timestamp,
  countIf(NOT ((log_attributes['level'] IN ('error', 'fatal')) OR (log_attributes['level'] = 'warning'))) AS ok_count,
  countIf(log_attributes['level'] IN ('error', 'fatal')) AS error_count,
  countIf(log_attributes['level'] = 'warning') AS warning_count
FROM logs
WHERE source = 'function_logs'
GROUP BY timestamp
ORDER BY timestamp ASC

-- case: studio-ep-function-edge-rows
-- params: {"project": "default", "start": "2025-01-15 10:00:00", "end": "2025-01-15 11:30:00"}
WITH logs AS (SELECT * FROM logs WHERE project = {project:String} AND timestamp > toDateTime64({start:String}, 6, 'UTC') AND timestamp <= toDateTime64({end:String}, 6, 'UTC'))
SELECT id, timestamp, event_message, log_attributes['response.status_code'] AS status_code, log_attributes['request.method'] AS method, log_attributes['request.pathname'] AS pathname, log_attributes['function_id'] AS function_id, log_attributes['execution_id'] AS execution_id, log_attributes['execution_time_ms'] AS execution_time_ms, log_attributes['deployment_id'] AS deployment_id, log_attributes['version'] AS version
FROM logs
WHERE source = 'function_edge_logs'
ORDER BY timestamp DESC, id
LIMIT 100

-- case: studio-ep-function-edge-count-error
-- params: {"project": "default", "start": "2025-01-15 10:00:00", "end": "2025-01-15 11:30:00"}
WITH logs AS (SELECT * FROM logs WHERE project = {project:String} AND timestamp > toDateTime64({start:String}, 6, 'UTC') AND timestamp <= toDateTime64({end:String}, 6, 'UTC'))
SELECT count() AS count FROM logs WHERE source = 'function_edge_logs' AND toInt32OrZero(log_attributes['response.status_code']) BETWEEN 500 AND 599

-- case: studio-ep-function-edge-chart
-- params: {"project": "default", "start": "2025-01-15 10:00:00", "end": "2025-01-15 11:30:00"}
WITH logs AS (SELECT * FROM logs WHERE project = {project:String} AND timestamp > toDateTime64({start:String}, 6, 'UTC') AND timestamp <= toDateTime64({end:String}, 6, 'UTC'))
SELECT
  toStartOfMinute(timestamp) AS timestamp,
  countIf(NOT ((toInt32OrZero(log_attributes['response.status_code']) >= 500) OR (toInt32OrZero(log_attributes['response.status_code']) BETWEEN 400 AND 499))) AS ok_count,
  countIf(toInt32OrZero(log_attributes['response.status_code']) >= 500) AS error_count,
  countIf(toInt32OrZero(log_attributes['response.status_code']) BETWEEN 400 AND 499) AS warning_count
FROM logs
WHERE source = 'function_edge_logs'
GROUP BY timestamp
ORDER BY timestamp ASC

-- case: studio-ep-auth-rows
-- params: {"project": "default", "start": "2025-01-15 10:00:00", "end": "2025-01-15 11:30:00"}
WITH logs AS (SELECT * FROM logs WHERE project = {project:String} AND timestamp > toDateTime64({start:String}, 6, 'UTC') AND timestamp <= toDateTime64({end:String}, 6, 'UTC'))
SELECT id, timestamp, event_message, log_attributes['level'] AS level, log_attributes['status'] AS status, log_attributes['path'] AS path, log_attributes['msg'] AS msg, log_attributes['error'] AS error
FROM logs
WHERE source = 'auth_logs'
ORDER BY timestamp DESC, id
LIMIT 100

-- case: studio-ep-auth-count-error
-- params: {"project": "default", "start": "2025-01-15 10:00:00", "end": "2025-01-15 11:30:00"}
WITH logs AS (SELECT * FROM logs WHERE project = {project:String} AND timestamp > toDateTime64({start:String}, 6, 'UTC') AND timestamp <= toDateTime64({end:String}, 6, 'UTC'))
SELECT count() AS count FROM logs WHERE source = 'auth_logs' AND log_attributes['level'] IN ('error', 'fatal') OR toInt32OrZero(log_attributes['status']) >= 500

-- case: studio-ep-auth-count-warning
-- params: {"project": "default", "start": "2025-01-15 10:00:00", "end": "2025-01-15 11:30:00"}
WITH logs AS (SELECT * FROM logs WHERE project = {project:String} AND timestamp > toDateTime64({start:String}, 6, 'UTC') AND timestamp <= toDateTime64({end:String}, 6, 'UTC'))
SELECT count() AS count FROM logs WHERE source = 'auth_logs' AND log_attributes['level'] = 'warning' OR toInt32OrZero(log_attributes['status']) BETWEEN 400 AND 499

-- case: studio-ep-auth-count-info
-- params: {"project": "default", "start": "2025-01-15 10:00:00", "end": "2025-01-15 11:30:00"}
WITH logs AS (SELECT * FROM logs WHERE project = {project:String} AND timestamp > toDateTime64({start:String}, 6, 'UTC') AND timestamp <= toDateTime64({end:String}, 6, 'UTC'))
SELECT count() AS count FROM logs WHERE source = 'auth_logs' AND NOT (log_attributes['level'] IN ('error', 'fatal') OR toInt32OrZero(log_attributes['status']) >= 500) AND NOT (log_attributes['level'] = 'warning' OR toInt32OrZero(log_attributes['status']) BETWEEN 400 AND 499)

-- case: studio-ep-auth-count-server-error
-- params: {"project": "default", "start": "2025-01-15 10:00:00", "end": "2025-01-15 11:30:00"}
WITH logs AS (SELECT * FROM logs WHERE project = {project:String} AND timestamp > toDateTime64({start:String}, 6, 'UTC') AND timestamp <= toDateTime64({end:String}, 6, 'UTC'))
SELECT count() AS count FROM logs WHERE source = 'auth_logs' AND toInt32OrZero(log_attributes['status']) BETWEEN 500 AND 599

-- case: studio-ep-auth-count-client-error
-- params: {"project": "default", "start": "2025-01-15 10:00:00", "end": "2025-01-15 11:30:00"}
WITH logs AS (SELECT * FROM logs WHERE project = {project:String} AND timestamp > toDateTime64({start:String}, 6, 'UTC') AND timestamp <= toDateTime64({end:String}, 6, 'UTC'))
SELECT count() AS count FROM logs WHERE source = 'auth_logs' AND toInt32OrZero(log_attributes['status']) BETWEEN 400 AND 499

-- case: studio-ep-auth-count-redirection
-- params: {"project": "default", "start": "2025-01-15 10:00:00", "end": "2025-01-15 11:30:00"}
WITH logs AS (SELECT * FROM logs WHERE project = {project:String} AND timestamp > toDateTime64({start:String}, 6, 'UTC') AND timestamp <= toDateTime64({end:String}, 6, 'UTC'))
SELECT count() AS count FROM logs WHERE source = 'auth_logs' AND toInt32OrZero(log_attributes['status']) BETWEEN 300 AND 399

-- case: studio-ep-auth-count-success
-- params: {"project": "default", "start": "2025-01-15 10:00:00", "end": "2025-01-15 11:30:00"}
WITH logs AS (SELECT * FROM logs WHERE project = {project:String} AND timestamp > toDateTime64({start:String}, 6, 'UTC') AND timestamp <= toDateTime64({end:String}, 6, 'UTC'))
SELECT count() AS count FROM logs WHERE source = 'auth_logs' AND toInt32OrZero(log_attributes['status']) BETWEEN 200 AND 299

-- case: studio-ep-auth-count-admin
-- params: {"project": "default", "start": "2025-01-15 10:00:00", "end": "2025-01-15 11:30:00"}
WITH logs AS (SELECT * FROM logs WHERE project = {project:String} AND timestamp > toDateTime64({start:String}, 6, 'UTC') AND timestamp <= toDateTime64({end:String}, 6, 'UTC'))
SELECT count() AS count FROM logs WHERE source = 'auth_logs' AND match(log_attributes['path'], '/admin')

-- case: studio-ep-auth-count-signup
-- params: {"project": "default", "start": "2025-01-15 10:00:00", "end": "2025-01-15 11:30:00"}
WITH logs AS (SELECT * FROM logs WHERE project = {project:String} AND timestamp > toDateTime64({start:String}, 6, 'UTC') AND timestamp <= toDateTime64({end:String}, 6, 'UTC'))
SELECT count() AS count FROM logs WHERE source = 'auth_logs' AND match(log_attributes['path'], '/signup|/invite|/verify')

-- case: studio-ep-auth-count-authentication
-- params: {"project": "default", "start": "2025-01-15 10:00:00", "end": "2025-01-15 11:30:00"}
WITH logs AS (SELECT * FROM logs WHERE project = {project:String} AND timestamp > toDateTime64({start:String}, 6, 'UTC') AND timestamp <= toDateTime64({end:String}, 6, 'UTC'))
SELECT count() AS count FROM logs WHERE source = 'auth_logs' AND match(log_attributes['path'], '/token|/authorize|/callback|/otp|/magiclink')

-- case: studio-ep-auth-count-recover
-- params: {"project": "default", "start": "2025-01-15 10:00:00", "end": "2025-01-15 11:30:00"}
WITH logs AS (SELECT * FROM logs WHERE project = {project:String} AND timestamp > toDateTime64({start:String}, 6, 'UTC') AND timestamp <= toDateTime64({end:String}, 6, 'UTC'))
SELECT count() AS count FROM logs WHERE source = 'auth_logs' AND match(log_attributes['path'], '/recover')

-- case: studio-ep-auth-count-user
-- params: {"project": "default", "start": "2025-01-15 10:00:00", "end": "2025-01-15 11:30:00"}
WITH logs AS (SELECT * FROM logs WHERE project = {project:String} AND timestamp > toDateTime64({start:String}, 6, 'UTC') AND timestamp <= toDateTime64({end:String}, 6, 'UTC'))
SELECT count() AS count FROM logs WHERE source = 'auth_logs' AND match(log_attributes['path'], '/user')

-- case: studio-ep-auth-count-logout
-- params: {"project": "default", "start": "2025-01-15 10:00:00", "end": "2025-01-15 11:30:00"}
WITH logs AS (SELECT * FROM logs WHERE project = {project:String} AND timestamp > toDateTime64({start:String}, 6, 'UTC') AND timestamp <= toDateTime64({end:String}, 6, 'UTC'))
SELECT count() AS count FROM logs WHERE source = 'auth_logs' AND match(log_attributes['path'], '/logout')

-- case: studio-ep-auth-chart
-- params: {"project": "default", "start": "2025-01-15 10:00:00", "end": "2025-01-15 11:30:00"}
WITH logs AS (SELECT * FROM logs WHERE project = {project:String} AND timestamp > toDateTime64({start:String}, 6, 'UTC') AND timestamp <= toDateTime64({end:String}, 6, 'UTC'))
SELECT
  toStartOfMinute(timestamp) AS timestamp,
  countIf(NOT ((log_attributes['level'] IN ('error', 'fatal') OR toInt32OrZero(log_attributes['status']) >= 500) OR (log_attributes['level'] = 'warning' OR toInt32OrZero(log_attributes['status']) BETWEEN 400 AND 499))) AS ok_count,
  countIf(log_attributes['level'] IN ('error', 'fatal') OR toInt32OrZero(log_attributes['status']) >= 500) AS error_count,
  countIf(log_attributes['level'] = 'warning' OR toInt32OrZero(log_attributes['status']) BETWEEN 400 AND 499) AS warning_count
FROM logs
WHERE source = 'auth_logs'
GROUP BY timestamp
ORDER BY timestamp ASC

-- case: studio-ep-postgrest_logs-rows
-- params: {"project": "default", "start": "2025-01-15 10:00:00", "end": "2025-01-15 11:30:00"}
WITH logs AS (SELECT * FROM logs WHERE project = {project:String} AND timestamp > toDateTime64({start:String}, 6, 'UTC') AND timestamp <= toDateTime64({end:String}, 6, 'UTC'))
SELECT id, timestamp, event_message
FROM logs
WHERE source = 'postgrest_logs'
ORDER BY timestamp DESC, id
LIMIT 100

-- case: studio-ep-postgrest_logs-count
-- params: {"project": "default", "start": "2025-01-15 10:00:00", "end": "2025-01-15 11:30:00"}
WITH logs AS (SELECT * FROM logs WHERE project = {project:String} AND timestamp > toDateTime64({start:String}, 6, 'UTC') AND timestamp <= toDateTime64({end:String}, 6, 'UTC'))
SELECT count() AS count FROM logs WHERE source = 'postgrest_logs' AND event_message ILIKE '%e%'

-- case: studio-ep-postgrest_logs-chart
-- params: {"project": "default", "start": "2025-01-15 10:00:00", "end": "2025-01-15 11:30:00"}
WITH logs AS (SELECT * FROM logs WHERE project = {project:String} AND timestamp > toDateTime64({start:String}, 6, 'UTC') AND timestamp <= toDateTime64({end:String}, 6, 'UTC'))
SELECT
  toStartOfMinute(timestamp) AS timestamp,
  countIf(NOT ((0) OR (0))) AS ok_count,
  countIf(0) AS error_count,
  countIf(0) AS warning_count
FROM logs
WHERE source = 'postgrest_logs'
GROUP BY timestamp
ORDER BY timestamp ASC

-- case: studio-ep-pgbouncer_logs-rows
-- params: {"project": "default", "start": "2025-01-15 10:00:00", "end": "2025-01-15 11:30:00"}
WITH logs AS (SELECT * FROM logs WHERE project = {project:String} AND timestamp > toDateTime64({start:String}, 6, 'UTC') AND timestamp <= toDateTime64({end:String}, 6, 'UTC'))
SELECT id, timestamp, event_message
FROM logs
WHERE source = 'pgbouncer_logs'
ORDER BY timestamp DESC, id
LIMIT 100

-- case: studio-ep-pgbouncer_logs-count
-- params: {"project": "default", "start": "2025-01-15 10:00:00", "end": "2025-01-15 11:30:00"}
WITH logs AS (SELECT * FROM logs WHERE project = {project:String} AND timestamp > toDateTime64({start:String}, 6, 'UTC') AND timestamp <= toDateTime64({end:String}, 6, 'UTC'))
SELECT count() AS count FROM logs WHERE source = 'pgbouncer_logs' AND event_message ILIKE '%e%'

-- case: studio-ep-pgbouncer_logs-chart
-- params: {"project": "default", "start": "2025-01-15 10:00:00", "end": "2025-01-15 11:30:00"}
WITH logs AS (SELECT * FROM logs WHERE project = {project:String} AND timestamp > toDateTime64({start:String}, 6, 'UTC') AND timestamp <= toDateTime64({end:String}, 6, 'UTC'))
SELECT
  toStartOfMinute(timestamp) AS timestamp,
  countIf(NOT ((0) OR (0))) AS ok_count,
  countIf(0) AS error_count,
  countIf(0) AS warning_count
FROM logs
WHERE source = 'pgbouncer_logs'
GROUP BY timestamp
ORDER BY timestamp ASC

-- case: studio-ep-supavisor_logs-rows
-- params: {"project": "default", "start": "2025-01-15 10:00:00", "end": "2025-01-15 11:30:00"}
WITH logs AS (SELECT * FROM logs WHERE project = {project:String} AND timestamp > toDateTime64({start:String}, 6, 'UTC') AND timestamp <= toDateTime64({end:String}, 6, 'UTC'))
SELECT id, timestamp, event_message
FROM logs
WHERE source = 'supavisor_logs'
ORDER BY timestamp DESC, id
LIMIT 100

-- case: studio-ep-supavisor_logs-count
-- params: {"project": "default", "start": "2025-01-15 10:00:00", "end": "2025-01-15 11:30:00"}
WITH logs AS (SELECT * FROM logs WHERE project = {project:String} AND timestamp > toDateTime64({start:String}, 6, 'UTC') AND timestamp <= toDateTime64({end:String}, 6, 'UTC'))
SELECT count() AS count FROM logs WHERE source = 'supavisor_logs' AND event_message ILIKE '%e%'

-- case: studio-ep-supavisor_logs-chart
-- params: {"project": "default", "start": "2025-01-15 10:00:00", "end": "2025-01-15 11:30:00"}
WITH logs AS (SELECT * FROM logs WHERE project = {project:String} AND timestamp > toDateTime64({start:String}, 6, 'UTC') AND timestamp <= toDateTime64({end:String}, 6, 'UTC'))
SELECT
  toStartOfMinute(timestamp) AS timestamp,
  countIf(NOT ((0) OR (0))) AS ok_count,
  countIf(0) AS error_count,
  countIf(0) AS warning_count
FROM logs
WHERE source = 'supavisor_logs'
GROUP BY timestamp
ORDER BY timestamp ASC

-- case: studio-ep-realtime_logs-rows
-- params: {"project": "default", "start": "2025-01-15 10:00:00", "end": "2025-01-15 11:30:00"}
WITH logs AS (SELECT * FROM logs WHERE project = {project:String} AND timestamp > toDateTime64({start:String}, 6, 'UTC') AND timestamp <= toDateTime64({end:String}, 6, 'UTC'))
SELECT id, timestamp, event_message
FROM logs
WHERE source = 'realtime_logs'
ORDER BY timestamp DESC, id
LIMIT 100

-- case: studio-ep-realtime_logs-count
-- params: {"project": "default", "start": "2025-01-15 10:00:00", "end": "2025-01-15 11:30:00"}
WITH logs AS (SELECT * FROM logs WHERE project = {project:String} AND timestamp > toDateTime64({start:String}, 6, 'UTC') AND timestamp <= toDateTime64({end:String}, 6, 'UTC'))
SELECT count() AS count FROM logs WHERE source = 'realtime_logs' AND event_message ILIKE '%e%'

-- case: studio-ep-realtime_logs-chart
-- params: {"project": "default", "start": "2025-01-15 10:00:00", "end": "2025-01-15 11:30:00"}
WITH logs AS (SELECT * FROM logs WHERE project = {project:String} AND timestamp > toDateTime64({start:String}, 6, 'UTC') AND timestamp <= toDateTime64({end:String}, 6, 'UTC'))
SELECT
  toStartOfMinute(timestamp) AS timestamp,
  countIf(NOT ((0) OR (0))) AS ok_count,
  countIf(0) AS error_count,
  countIf(0) AS warning_count
FROM logs
WHERE source = 'realtime_logs'
GROUP BY timestamp
ORDER BY timestamp ASC

-- case: studio-ep-storage_logs-rows
-- params: {"project": "default", "start": "2025-01-15 10:00:00", "end": "2025-01-15 11:30:00"}
WITH logs AS (SELECT * FROM logs WHERE project = {project:String} AND timestamp > toDateTime64({start:String}, 6, 'UTC') AND timestamp <= toDateTime64({end:String}, 6, 'UTC'))
SELECT id, timestamp, event_message
FROM logs
WHERE source = 'storage_logs'
ORDER BY timestamp DESC, id
LIMIT 100

-- case: studio-ep-storage_logs-count
-- params: {"project": "default", "start": "2025-01-15 10:00:00", "end": "2025-01-15 11:30:00"}
WITH logs AS (SELECT * FROM logs WHERE project = {project:String} AND timestamp > toDateTime64({start:String}, 6, 'UTC') AND timestamp <= toDateTime64({end:String}, 6, 'UTC'))
SELECT count() AS count FROM logs WHERE source = 'storage_logs' AND event_message ILIKE '%e%'

-- case: studio-ep-storage_logs-chart
-- params: {"project": "default", "start": "2025-01-15 10:00:00", "end": "2025-01-15 11:30:00"}
WITH logs AS (SELECT * FROM logs WHERE project = {project:String} AND timestamp > toDateTime64({start:String}, 6, 'UTC') AND timestamp <= toDateTime64({end:String}, 6, 'UTC'))
SELECT
  toStartOfMinute(timestamp) AS timestamp,
  countIf(NOT ((0) OR (0))) AS ok_count,
  countIf(0) AS error_count,
  countIf(0) AS warning_count
FROM logs
WHERE source = 'storage_logs'
GROUP BY timestamp
ORDER BY timestamp ASC

-- case: studio-ep-auth_audit_logs-rows
-- params: {"project": "default", "start": "2025-01-15 10:00:00", "end": "2025-01-15 11:30:00"}
WITH logs AS (SELECT * FROM logs WHERE project = {project:String} AND timestamp > toDateTime64({start:String}, 6, 'UTC') AND timestamp <= toDateTime64({end:String}, 6, 'UTC'))
SELECT id, timestamp, event_message
FROM logs
WHERE source = 'auth_audit_logs'
ORDER BY timestamp DESC, id
LIMIT 100

-- case: studio-ep-auth_audit_logs-count
-- params: {"project": "default", "start": "2025-01-15 10:00:00", "end": "2025-01-15 11:30:00"}
WITH logs AS (SELECT * FROM logs WHERE project = {project:String} AND timestamp > toDateTime64({start:String}, 6, 'UTC') AND timestamp <= toDateTime64({end:String}, 6, 'UTC'))
SELECT count() AS count FROM logs WHERE source = 'auth_audit_logs' AND event_message ILIKE '%e%'

-- case: studio-ep-auth_audit_logs-chart
-- params: {"project": "default", "start": "2025-01-15 10:00:00", "end": "2025-01-15 11:30:00"}
WITH logs AS (SELECT * FROM logs WHERE project = {project:String} AND timestamp > toDateTime64({start:String}, 6, 'UTC') AND timestamp <= toDateTime64({end:String}, 6, 'UTC'))
SELECT
  toStartOfMinute(timestamp) AS timestamp,
  countIf(NOT ((0) OR (0))) AS ok_count,
  countIf(0) AS error_count,
  countIf(0) AS warning_count
FROM logs
WHERE source = 'auth_audit_logs'
GROUP BY timestamp
ORDER BY timestamp ASC

-- case: studio-ep-etl_replication_logs-rows
-- params: {"project": "default", "start": "2025-01-15 10:00:00", "end": "2025-01-15 11:30:00"}
WITH logs AS (SELECT * FROM logs WHERE project = {project:String} AND timestamp > toDateTime64({start:String}, 6, 'UTC') AND timestamp <= toDateTime64({end:String}, 6, 'UTC'))
SELECT id, timestamp, event_message
FROM logs
WHERE source = 'etl_replication_logs'
ORDER BY timestamp DESC, id
LIMIT 100

-- case: studio-ep-etl_replication_logs-count
-- params: {"project": "default", "start": "2025-01-15 10:00:00", "end": "2025-01-15 11:30:00"}
WITH logs AS (SELECT * FROM logs WHERE project = {project:String} AND timestamp > toDateTime64({start:String}, 6, 'UTC') AND timestamp <= toDateTime64({end:String}, 6, 'UTC'))
SELECT count() AS count FROM logs WHERE source = 'etl_replication_logs' AND event_message ILIKE '%e%'

-- case: studio-ep-etl_replication_logs-chart
-- params: {"project": "default", "start": "2025-01-15 10:00:00", "end": "2025-01-15 11:30:00"}
WITH logs AS (SELECT * FROM logs WHERE project = {project:String} AND timestamp > toDateTime64({start:String}, 6, 'UTC') AND timestamp <= toDateTime64({end:String}, 6, 'UTC'))
SELECT
  toStartOfMinute(timestamp) AS timestamp,
  countIf(NOT ((0) OR (0))) AS ok_count,
  countIf(0) AS error_count,
  countIf(0) AS warning_count
FROM logs
WHERE source = 'etl_replication_logs'
GROUP BY timestamp
ORDER BY timestamp ASC

-- case: studio-ep-pg_upgrade_logs-rows
-- params: {"project": "default", "start": "2025-01-15 10:00:00", "end": "2025-01-15 11:30:00"}
WITH logs AS (SELECT * FROM logs WHERE project = {project:String} AND timestamp > toDateTime64({start:String}, 6, 'UTC') AND timestamp <= toDateTime64({end:String}, 6, 'UTC'))
SELECT id, timestamp, event_message
FROM logs
WHERE source = 'pg_upgrade_logs'
ORDER BY timestamp DESC, id
LIMIT 100

-- case: studio-ep-pg_upgrade_logs-count
-- params: {"project": "default", "start": "2025-01-15 10:00:00", "end": "2025-01-15 11:30:00"}
WITH logs AS (SELECT * FROM logs WHERE project = {project:String} AND timestamp > toDateTime64({start:String}, 6, 'UTC') AND timestamp <= toDateTime64({end:String}, 6, 'UTC'))
SELECT count() AS count FROM logs WHERE source = 'pg_upgrade_logs' AND event_message ILIKE '%e%'

-- case: studio-ep-pg_upgrade_logs-chart
-- params: {"project": "default", "start": "2025-01-15 10:00:00", "end": "2025-01-15 11:30:00"}
WITH logs AS (SELECT * FROM logs WHERE project = {project:String} AND timestamp > toDateTime64({start:String}, 6, 'UTC') AND timestamp <= toDateTime64({end:String}, 6, 'UTC'))
SELECT
  toStartOfMinute(timestamp) AS timestamp,
  countIf(NOT ((0) OR (0))) AS ok_count,
  countIf(0) AS error_count,
  countIf(0) AS warning_count
FROM logs
WHERE source = 'pg_upgrade_logs'
GROUP BY timestamp
ORDER BY timestamp ASC

-- case: studio-ep-postgrest-database
-- params: {"project": "default", "start": "2025-01-15 10:00:00", "end": "2025-01-15 11:30:00"}
WITH logs AS (SELECT * FROM logs WHERE project = {project:String} AND timestamp > toDateTime64({start:String}, 6, 'UTC') AND timestamp <= toDateTime64({end:String}, 6, 'UTC'))
SELECT count() AS count FROM logs WHERE source = 'postgrest_logs' AND log_attributes['identifier'] = 'default'

-- case: studio-ep-pgbouncer-database
-- params: {"project": "default", "start": "2025-01-15 10:00:00", "end": "2025-01-15 11:30:00"}
WITH logs AS (SELECT * FROM logs WHERE project = {project:String} AND timestamp > toDateTime64({start:String}, 6, 'UTC') AND timestamp <= toDateTime64({end:String}, 6, 'UTC'))
SELECT count() AS count FROM logs WHERE source = 'pgbouncer_logs' AND log_attributes['project'] LIKE 'def%'

-- case: studio-ep-etl-pipeline
-- params: {"project": "default", "start": "2025-01-15 10:00:00", "end": "2025-01-15 11:30:00"}
WITH logs AS (SELECT * FROM logs WHERE project = {project:String} AND timestamp > toDateTime64({start:String}, 6, 'UTC') AND timestamp <= toDateTime64({end:String}, 6, 'UTC'))
SELECT count() AS count FROM logs WHERE source = 'etl_replication_logs' AND log_attributes['pipeline_id'] = '7'

-- case: studio-ep-unknown-filter-key
-- params: {"project": "default", "start": "2025-01-15 10:00:00", "end": "2025-01-15 11:30:00"}
WITH logs AS (SELECT * FROM logs WHERE project = {project:String} AND timestamp > toDateTime64({start:String}, 6, 'UTC') AND timestamp <= toDateTime64({end:String}, 6, 'UTC'))
SELECT count() AS count FROM logs WHERE source = 'edge_logs' AND log_attributes['request.headers.cf_connecting_ip'] = '203.0.113.0'

-- case: studio-ep-single-log-e-000
-- params: {"project": "default", "start": "2025-01-15 10:00:00", "end": "2025-01-15 11:30:00"}
WITH logs AS (SELECT * FROM logs WHERE project = {project:String} AND timestamp > toDateTime64({start:String}, 6, 'UTC') AND timestamp <= toDateTime64({end:String}, 6, 'UTC'))
SELECT id, timestamp, event_message, source, severity_text, log_attributes
FROM logs
WHERE id = 'e-000'
LIMIT 1

-- case: studio-ep-single-log-e-064
-- params: {"project": "default", "start": "2025-01-15 10:00:00", "end": "2025-01-15 11:30:00"}
WITH logs AS (SELECT * FROM logs WHERE project = {project:String} AND timestamp > toDateTime64({start:String}, 6, 'UTC') AND timestamp <= toDateTime64({end:String}, 6, 'UTC'))
SELECT id, timestamp, event_message, source, severity_text, log_attributes
FROM logs
WHERE id = 'e-064'
LIMIT 1

-- case: studio-ep-single-log-nope
-- params: {"project": "default", "start": "2025-01-15 10:00:00", "end": "2025-01-15 11:30:00"}
WITH logs AS (SELECT * FROM logs WHERE project = {project:String} AND timestamp > toDateTime64({start:String}, 6, 'UTC') AND timestamp <= toDateTime64({end:String}, 6, 'UTC'))
SELECT id, timestamp, event_message, source, severity_text, log_attributes
FROM logs
WHERE id = 'nope'
LIMIT 1

-- case: studio-ep-unified-rows
-- params: {"project": "default", "start": "2025-01-15 10:00:00", "end": "2025-01-15 11:30:00"}
WITH logs AS (SELECT * FROM logs WHERE project = {project:String} AND timestamp > toDateTime64({start:String}, 6, 'UTC') AND timestamp <= toDateTime64({end:String}, 6, 'UTC'))
SELECT
    id,
    null AS source_id,
    timestamp,
    CASE WHEN source = 'edge_logs' AND log_attributes['request.path'] LIKE '%/rest/%' THEN 'postgrest' WHEN source = 'edge_logs' AND log_attributes['request.path'] LIKE '%/storage/%' THEN 'storage' WHEN source = 'edge_logs' THEN 'edge' WHEN source = 'postgres_logs' THEN 'postgres' WHEN source = 'function_edge_logs' THEN 'edge function' WHEN source = 'auth_logs' THEN 'auth' WHEN source = 'realtime_logs' THEN 'realtime' WHEN source = 'supavisor_logs' THEN 'supavisor' WHEN source = 'pgbouncer_logs' THEN 'pgbouncer' ELSE source END AS log_type,
    CASE WHEN source = 'postgres_logs' THEN toString(log_attributes['parsed.sql_state_code']) ELSE toString(log_attributes['response.status_code']) END AS status,
    CASE WHEN log_attributes['response.status_code'] != '' AND toInt32OrZero(log_attributes['response.status_code']) >= 500 THEN 'error' WHEN log_attributes['response.status_code'] != '' AND toInt32OrZero(log_attributes['response.status_code']) BETWEEN 400 AND 499 THEN 'warning' WHEN log_attributes['response.status_code'] != '' AND toInt32OrZero(log_attributes['response.status_code']) BETWEEN 200 AND 299 THEN 'success' WHEN severity_text IN ('ERROR','FATAL','CRITICAL','ALERT','EMERGENCY') THEN 'error' WHEN severity_text IN ('WARN','WARNING') THEN 'warning' WHEN severity_text IN ('TRACE','DEBUG','INFO','LOG','NOTICE') THEN 'success' ELSE 'success' END AS level,
    log_attributes['request.path'] AS pathname,
    event_message,
    log_attributes['request.method'] AS method,
    null AS log_count,
    null AS logs
FROM logs
WHERE ((source = 'edge_logs' AND log_attributes['request.path'] NOT LIKE '%/rest/%' AND log_attributes['request.path'] NOT LIKE '%/storage/%') OR (source = 'edge_logs' AND log_attributes['request.path'] LIKE '%/rest/%') OR (source = 'edge_logs' AND log_attributes['request.path'] LIKE '%/storage/%') OR (source = 'postgres_logs') OR (source = 'function_edge_logs') OR (source = 'auth_logs') OR (source = 'realtime_logs') OR (source = 'supavisor_logs') OR (source = 'pgbouncer_logs'))
ORDER BY timestamp DESC, id
LIMIT 50

-- case: studio-ep-unified-rows-hide-connections
-- params: {"project": "default", "start": "2025-01-15 10:00:00", "end": "2025-01-15 11:30:00"}
WITH logs AS (SELECT * FROM logs WHERE project = {project:String} AND timestamp > toDateTime64({start:String}, 6, 'UTC') AND timestamp <= toDateTime64({end:String}, 6, 'UTC'))
SELECT
    id,
    null AS source_id,
    timestamp,
    CASE WHEN source = 'edge_logs' AND log_attributes['request.path'] LIKE '%/rest/%' THEN 'postgrest' WHEN source = 'edge_logs' AND log_attributes['request.path'] LIKE '%/storage/%' THEN 'storage' WHEN source = 'edge_logs' THEN 'edge' WHEN source = 'postgres_logs' THEN 'postgres' WHEN source = 'function_edge_logs' THEN 'edge function' WHEN source = 'auth_logs' THEN 'auth' WHEN source = 'realtime_logs' THEN 'realtime' WHEN source = 'supavisor_logs' THEN 'supavisor' WHEN source = 'pgbouncer_logs' THEN 'pgbouncer' ELSE source END AS log_type,
    CASE WHEN source = 'postgres_logs' THEN toString(log_attributes['parsed.sql_state_code']) ELSE toString(log_attributes['response.status_code']) END AS status,
    CASE WHEN log_attributes['response.status_code'] != '' AND toInt32OrZero(log_attributes['response.status_code']) >= 500 THEN 'error' WHEN log_attributes['response.status_code'] != '' AND toInt32OrZero(log_attributes['response.status_code']) BETWEEN 400 AND 499 THEN 'warning' WHEN log_attributes['response.status_code'] != '' AND toInt32OrZero(log_attributes['response.status_code']) BETWEEN 200 AND 299 THEN 'success' WHEN severity_text IN ('ERROR','FATAL','CRITICAL','ALERT','EMERGENCY') THEN 'error' WHEN severity_text IN ('WARN','WARNING') THEN 'warning' WHEN severity_text IN ('TRACE','DEBUG','INFO','LOG','NOTICE') THEN 'success' ELSE 'success' END AS level,
    log_attributes['request.path'] AS pathname,
    event_message,
    log_attributes['request.method'] AS method,
    null AS log_count,
    null AS logs
FROM logs
WHERE ((source = 'edge_logs' AND log_attributes['request.path'] NOT LIKE '%/rest/%' AND log_attributes['request.path'] NOT LIKE '%/storage/%') OR (source = 'edge_logs' AND log_attributes['request.path'] LIKE '%/rest/%') OR (source = 'edge_logs' AND log_attributes['request.path'] LIKE '%/storage/%') OR (source = 'postgres_logs') OR (source = 'function_edge_logs') OR (source = 'auth_logs') OR (source = 'realtime_logs') OR (source = 'supavisor_logs') OR (source = 'pgbouncer_logs')) AND (source != 'postgres_logs' OR (
    event_message NOT LIKE 'connection received%' AND
    event_message NOT LIKE 'connection authenticated%' AND
    event_message NOT LIKE 'connection authorized%'
  ))
ORDER BY timestamp DESC, id
LIMIT 50

-- case: studio-ep-unified-filter-level-in
-- params: {"project": "default", "start": "2025-01-15 10:00:00", "end": "2025-01-15 11:30:00"}
WITH logs AS (SELECT * FROM logs WHERE project = {project:String} AND timestamp > toDateTime64({start:String}, 6, 'UTC') AND timestamp <= toDateTime64({end:String}, 6, 'UTC'))
SELECT id FROM logs WHERE ((source = 'edge_logs' AND log_attributes['request.path'] NOT LIKE '%/rest/%' AND log_attributes['request.path'] NOT LIKE '%/storage/%') OR (source = 'edge_logs' AND log_attributes['request.path'] LIKE '%/rest/%') OR (source = 'edge_logs' AND log_attributes['request.path'] LIKE '%/storage/%') OR (source = 'postgres_logs') OR (source = 'function_edge_logs') OR (source = 'auth_logs') OR (source = 'realtime_logs') OR (source = 'supavisor_logs') OR (source = 'pgbouncer_logs')) AND (CASE WHEN log_attributes['response.status_code'] != '' AND toInt32OrZero(log_attributes['response.status_code']) >= 500 THEN 'error' WHEN log_attributes['response.status_code'] != '' AND toInt32OrZero(log_attributes['response.status_code']) BETWEEN 400 AND 499 THEN 'warning' WHEN log_attributes['response.status_code'] != '' AND toInt32OrZero(log_attributes['response.status_code']) BETWEEN 200 AND 299 THEN 'success' WHEN severity_text IN ('ERROR','FATAL','CRITICAL','ALERT','EMERGENCY') THEN 'error' WHEN severity_text IN ('WARN','WARNING') THEN 'warning' WHEN severity_text IN ('TRACE','DEBUG','INFO','LOG','NOTICE') THEN 'success' ELSE 'success' END) IN ('error','warning')
ORDER BY timestamp DESC, id
LIMIT 50

-- case: studio-ep-unified-filter-level-not-in
-- params: {"project": "default", "start": "2025-01-15 10:00:00", "end": "2025-01-15 11:30:00"}
WITH logs AS (SELECT * FROM logs WHERE project = {project:String} AND timestamp > toDateTime64({start:String}, 6, 'UTC') AND timestamp <= toDateTime64({end:String}, 6, 'UTC'))
SELECT id FROM logs WHERE ((source = 'edge_logs' AND log_attributes['request.path'] NOT LIKE '%/rest/%' AND log_attributes['request.path'] NOT LIKE '%/storage/%') OR (source = 'edge_logs' AND log_attributes['request.path'] LIKE '%/rest/%') OR (source = 'edge_logs' AND log_attributes['request.path'] LIKE '%/storage/%') OR (source = 'postgres_logs') OR (source = 'function_edge_logs') OR (source = 'auth_logs') OR (source = 'realtime_logs') OR (source = 'supavisor_logs') OR (source = 'pgbouncer_logs')) AND (CASE WHEN log_attributes['response.status_code'] != '' AND toInt32OrZero(log_attributes['response.status_code']) >= 500 THEN 'error' WHEN log_attributes['response.status_code'] != '' AND toInt32OrZero(log_attributes['response.status_code']) BETWEEN 400 AND 499 THEN 'warning' WHEN log_attributes['response.status_code'] != '' AND toInt32OrZero(log_attributes['response.status_code']) BETWEEN 200 AND 299 THEN 'success' WHEN severity_text IN ('ERROR','FATAL','CRITICAL','ALERT','EMERGENCY') THEN 'error' WHEN severity_text IN ('WARN','WARNING') THEN 'warning' WHEN severity_text IN ('TRACE','DEBUG','INFO','LOG','NOTICE') THEN 'success' ELSE 'success' END) NOT IN ('success')
ORDER BY timestamp DESC, id
LIMIT 50

-- case: studio-ep-unified-filter-method-in
-- params: {"project": "default", "start": "2025-01-15 10:00:00", "end": "2025-01-15 11:30:00"}
WITH logs AS (SELECT * FROM logs WHERE project = {project:String} AND timestamp > toDateTime64({start:String}, 6, 'UTC') AND timestamp <= toDateTime64({end:String}, 6, 'UTC'))
SELECT id FROM logs WHERE ((source = 'edge_logs' AND log_attributes['request.path'] NOT LIKE '%/rest/%' AND log_attributes['request.path'] NOT LIKE '%/storage/%') OR (source = 'edge_logs' AND log_attributes['request.path'] LIKE '%/rest/%') OR (source = 'edge_logs' AND log_attributes['request.path'] LIKE '%/storage/%') OR (source = 'postgres_logs') OR (source = 'function_edge_logs') OR (source = 'auth_logs') OR (source = 'realtime_logs') OR (source = 'supavisor_logs') OR (source = 'pgbouncer_logs')) AND log_attributes['request.method'] IN ('GET','POST')
ORDER BY timestamp DESC, id
LIMIT 50

-- case: studio-ep-unified-filter-method-not-in
-- params: {"project": "default", "start": "2025-01-15 10:00:00", "end": "2025-01-15 11:30:00"}
WITH logs AS (SELECT * FROM logs WHERE project = {project:String} AND timestamp > toDateTime64({start:String}, 6, 'UTC') AND timestamp <= toDateTime64({end:String}, 6, 'UTC'))
SELECT id FROM logs WHERE ((source = 'edge_logs' AND log_attributes['request.path'] NOT LIKE '%/rest/%' AND log_attributes['request.path'] NOT LIKE '%/storage/%') OR (source = 'edge_logs' AND log_attributes['request.path'] LIKE '%/rest/%') OR (source = 'edge_logs' AND log_attributes['request.path'] LIKE '%/storage/%') OR (source = 'postgres_logs') OR (source = 'function_edge_logs') OR (source = 'auth_logs') OR (source = 'realtime_logs') OR (source = 'supavisor_logs') OR (source = 'pgbouncer_logs')) AND log_attributes['request.method'] NOT IN ('GET')
ORDER BY timestamp DESC, id
LIMIT 50

-- case: studio-ep-unified-filter-status-in
-- params: {"project": "default", "start": "2025-01-15 10:00:00", "end": "2025-01-15 11:30:00"}
WITH logs AS (SELECT * FROM logs WHERE project = {project:String} AND timestamp > toDateTime64({start:String}, 6, 'UTC') AND timestamp <= toDateTime64({end:String}, 6, 'UTC'))
SELECT id FROM logs WHERE ((source = 'edge_logs' AND log_attributes['request.path'] NOT LIKE '%/rest/%' AND log_attributes['request.path'] NOT LIKE '%/storage/%') OR (source = 'edge_logs' AND log_attributes['request.path'] LIKE '%/rest/%') OR (source = 'edge_logs' AND log_attributes['request.path'] LIKE '%/storage/%') OR (source = 'postgres_logs') OR (source = 'function_edge_logs') OR (source = 'auth_logs') OR (source = 'realtime_logs') OR (source = 'supavisor_logs') OR (source = 'pgbouncer_logs')) AND (CASE WHEN source = 'postgres_logs' THEN toString(log_attributes['parsed.sql_state_code']) ELSE toString(log_attributes['response.status_code']) END) IN ('500','00000')
ORDER BY timestamp DESC, id
LIMIT 50

-- case: studio-ep-unified-filter-pathname-like
-- params: {"project": "default", "start": "2025-01-15 10:00:00", "end": "2025-01-15 11:30:00"}
WITH logs AS (SELECT * FROM logs WHERE project = {project:String} AND timestamp > toDateTime64({start:String}, 6, 'UTC') AND timestamp <= toDateTime64({end:String}, 6, 'UTC'))
SELECT id FROM logs WHERE ((source = 'edge_logs' AND log_attributes['request.path'] NOT LIKE '%/rest/%' AND log_attributes['request.path'] NOT LIKE '%/storage/%') OR (source = 'edge_logs' AND log_attributes['request.path'] LIKE '%/rest/%') OR (source = 'edge_logs' AND log_attributes['request.path'] LIKE '%/storage/%') OR (source = 'postgres_logs') OR (source = 'function_edge_logs') OR (source = 'auth_logs') OR (source = 'realtime_logs') OR (source = 'supavisor_logs') OR (source = 'pgbouncer_logs')) AND (log_attributes['request.path'] LIKE '%rest%' OR log_attributes['request.path'] LIKE '%auth%')
ORDER BY timestamp DESC, id
LIMIT 50

-- case: studio-ep-unified-filter-pathname-not-like
-- params: {"project": "default", "start": "2025-01-15 10:00:00", "end": "2025-01-15 11:30:00"}
WITH logs AS (SELECT * FROM logs WHERE project = {project:String} AND timestamp > toDateTime64({start:String}, 6, 'UTC') AND timestamp <= toDateTime64({end:String}, 6, 'UTC'))
SELECT id FROM logs WHERE ((source = 'edge_logs' AND log_attributes['request.path'] NOT LIKE '%/rest/%' AND log_attributes['request.path'] NOT LIKE '%/storage/%') OR (source = 'edge_logs' AND log_attributes['request.path'] LIKE '%/rest/%') OR (source = 'edge_logs' AND log_attributes['request.path'] LIKE '%/storage/%') OR (source = 'postgres_logs') OR (source = 'function_edge_logs') OR (source = 'auth_logs') OR (source = 'realtime_logs') OR (source = 'supavisor_logs') OR (source = 'pgbouncer_logs')) AND (log_attributes['request.path'] NOT LIKE '%rest%' AND log_attributes['request.path'] NOT LIKE '%auth%')
ORDER BY timestamp DESC, id
LIMIT 50

-- case: studio-ep-unified-filter-host
-- params: {"project": "default", "start": "2025-01-15 10:00:00", "end": "2025-01-15 11:30:00"}
WITH logs AS (SELECT * FROM logs WHERE project = {project:String} AND timestamp > toDateTime64({start:String}, 6, 'UTC') AND timestamp <= toDateTime64({end:String}, 6, 'UTC'))
SELECT id FROM logs WHERE ((source = 'edge_logs' AND log_attributes['request.path'] NOT LIKE '%/rest/%' AND log_attributes['request.path'] NOT LIKE '%/storage/%') OR (source = 'edge_logs' AND log_attributes['request.path'] LIKE '%/rest/%') OR (source = 'edge_logs' AND log_attributes['request.path'] LIKE '%/storage/%') OR (source = 'postgres_logs') OR (source = 'function_edge_logs') OR (source = 'auth_logs') OR (source = 'realtime_logs') OR (source = 'supavisor_logs') OR (source = 'pgbouncer_logs')) AND (log_attributes['request.url'] LIKE '%default.supabase.co%')
ORDER BY timestamp DESC, id
LIMIT 50

-- case: studio-ep-unified-filter-event-message-ilike
-- params: {"project": "default", "start": "2025-01-15 10:00:00", "end": "2025-01-15 11:30:00"}
WITH logs AS (SELECT * FROM logs WHERE project = {project:String} AND timestamp > toDateTime64({start:String}, 6, 'UTC') AND timestamp <= toDateTime64({end:String}, 6, 'UTC'))
SELECT id FROM logs WHERE ((source = 'edge_logs' AND log_attributes['request.path'] NOT LIKE '%/rest/%' AND log_attributes['request.path'] NOT LIKE '%/storage/%') OR (source = 'edge_logs' AND log_attributes['request.path'] LIKE '%/rest/%') OR (source = 'edge_logs' AND log_attributes['request.path'] LIKE '%/storage/%') OR (source = 'postgres_logs') OR (source = 'function_edge_logs') OR (source = 'auth_logs') OR (source = 'realtime_logs') OR (source = 'supavisor_logs') OR (source = 'pgbouncer_logs')) AND (event_message ILIKE '%GET%' OR event_message ILIKE '%connection%')
ORDER BY timestamp DESC, id
LIMIT 50

-- case: studio-ep-unified-filter-event-message-not-ilike
-- params: {"project": "default", "start": "2025-01-15 10:00:00", "end": "2025-01-15 11:30:00"}
WITH logs AS (SELECT * FROM logs WHERE project = {project:String} AND timestamp > toDateTime64({start:String}, 6, 'UTC') AND timestamp <= toDateTime64({end:String}, 6, 'UTC'))
SELECT id FROM logs WHERE ((source = 'edge_logs' AND log_attributes['request.path'] NOT LIKE '%/rest/%' AND log_attributes['request.path'] NOT LIKE '%/storage/%') OR (source = 'edge_logs' AND log_attributes['request.path'] LIKE '%/rest/%') OR (source = 'edge_logs' AND log_attributes['request.path'] LIKE '%/storage/%') OR (source = 'postgres_logs') OR (source = 'function_edge_logs') OR (source = 'auth_logs') OR (source = 'realtime_logs') OR (source = 'supavisor_logs') OR (source = 'pgbouncer_logs')) AND (event_message NOT ILIKE '%GET%' AND event_message NOT ILIKE '%connection%')
ORDER BY timestamp DESC, id
LIMIT 50

-- case: studio-ep-unified-filter-event-message-eq
-- params: {"project": "default", "start": "2025-01-15 10:00:00", "end": "2025-01-15 11:30:00"}
WITH logs AS (SELECT * FROM logs WHERE project = {project:String} AND timestamp > toDateTime64({start:String}, 6, 'UTC') AND timestamp <= toDateTime64({end:String}, 6, 'UTC'))
SELECT id FROM logs WHERE ((source = 'edge_logs' AND log_attributes['request.path'] NOT LIKE '%/rest/%' AND log_attributes['request.path'] NOT LIKE '%/storage/%') OR (source = 'edge_logs' AND log_attributes['request.path'] LIKE '%/rest/%') OR (source = 'edge_logs' AND log_attributes['request.path'] LIKE '%/storage/%') OR (source = 'postgres_logs') OR (source = 'function_edge_logs') OR (source = 'auth_logs') OR (source = 'realtime_logs') OR (source = 'supavisor_logs') OR (source = 'pgbouncer_logs')) AND event_message IN ('GET | 200 | /rest/v1/todos')
ORDER BY timestamp DESC, id
LIMIT 50

-- case: studio-ep-unified-filter-other-key
-- params: {"project": "default", "start": "2025-01-15 10:00:00", "end": "2025-01-15 11:30:00"}
WITH logs AS (SELECT * FROM logs WHERE project = {project:String} AND timestamp > toDateTime64({start:String}, 6, 'UTC') AND timestamp <= toDateTime64({end:String}, 6, 'UTC'))
SELECT id FROM logs WHERE ((source = 'edge_logs' AND log_attributes['request.path'] NOT LIKE '%/rest/%' AND log_attributes['request.path'] NOT LIKE '%/storage/%') OR (source = 'edge_logs' AND log_attributes['request.path'] LIKE '%/rest/%') OR (source = 'edge_logs' AND log_attributes['request.path'] LIKE '%/storage/%') OR (source = 'postgres_logs') OR (source = 'function_edge_logs') OR (source = 'auth_logs') OR (source = 'realtime_logs') OR (source = 'supavisor_logs') OR (source = 'pgbouncer_logs')) AND log_attributes['request.headers.cf_connecting_ip'] IN ('203.0.113.0')
ORDER BY timestamp DESC, id
LIMIT 50

-- case: studio-ep-unified-log-type-in
-- params: {"project": "default", "start": "2025-01-15 10:00:00", "end": "2025-01-15 11:30:00"}
WITH logs AS (SELECT * FROM logs WHERE project = {project:String} AND timestamp > toDateTime64({start:String}, 6, 'UTC') AND timestamp <= toDateTime64({end:String}, 6, 'UTC'))
SELECT id FROM logs WHERE ((source = 'postgres_logs') OR (source = 'edge_logs' AND log_attributes['request.path'] LIKE '%/rest/%'))
ORDER BY timestamp DESC, id
LIMIT 50

-- case: studio-ep-unified-log-type-not
-- params: {"project": "default", "start": "2025-01-15 10:00:00", "end": "2025-01-15 11:30:00"}
WITH logs AS (SELECT * FROM logs WHERE project = {project:String} AND timestamp > toDateTime64({start:String}, 6, 'UTC') AND timestamp <= toDateTime64({end:String}, 6, 'UTC'))
SELECT id FROM logs WHERE (NOT (source = 'postgres_logs') AND NOT (source = 'edge_logs' AND log_attributes['request.path'] NOT LIKE '%/rest/%' AND log_attributes['request.path'] NOT LIKE '%/storage/%'))
ORDER BY timestamp DESC, id
LIMIT 50

-- case: studio-ep-unified-facet-log_type
-- params: {"project": "default", "start": "2025-01-15 10:00:00", "end": "2025-01-15 11:30:00"}
WITH logs AS (SELECT * FROM logs WHERE project = {project:String} AND timestamp > toDateTime64({start:String}, 6, 'UTC') AND timestamp <= toDateTime64({end:String}, 6, 'UTC'))
SELECT 'log_type' AS dimension, (CASE WHEN source = 'edge_logs' AND log_attributes['request.path'] LIKE '%/rest/%' THEN 'postgrest' WHEN source = 'edge_logs' AND log_attributes['request.path'] LIKE '%/storage/%' THEN 'storage' WHEN source = 'edge_logs' THEN 'edge' WHEN source = 'postgres_logs' THEN 'postgres' WHEN source = 'function_edge_logs' THEN 'edge function' WHEN source = 'auth_logs' THEN 'auth' WHEN source = 'realtime_logs' THEN 'realtime' WHEN source = 'supavisor_logs' THEN 'supavisor' WHEN source = 'pgbouncer_logs' THEN 'pgbouncer' ELSE source END) AS value, count() AS count
FROM logs
WHERE (CASE WHEN source = 'edge_logs' AND log_attributes['request.path'] LIKE '%/rest/%' THEN 'postgrest' WHEN source = 'edge_logs' AND log_attributes['request.path'] LIKE '%/storage/%' THEN 'storage' WHEN source = 'edge_logs' THEN 'edge' WHEN source = 'postgres_logs' THEN 'postgres' WHEN source = 'function_edge_logs' THEN 'edge function' WHEN source = 'auth_logs' THEN 'auth' WHEN source = 'realtime_logs' THEN 'realtime' WHEN source = 'supavisor_logs' THEN 'supavisor' WHEN source = 'pgbouncer_logs' THEN 'pgbouncer' ELSE source END) IS NOT NULL AND (CASE WHEN source = 'edge_logs' AND log_attributes['request.path'] LIKE '%/rest/%' THEN 'postgrest' WHEN source = 'edge_logs' AND log_attributes['request.path'] LIKE '%/storage/%' THEN 'storage' WHEN source = 'edge_logs' THEN 'edge' WHEN source = 'postgres_logs' THEN 'postgres' WHEN source = 'function_edge_logs' THEN 'edge function' WHEN source = 'auth_logs' THEN 'auth' WHEN source = 'realtime_logs' THEN 'realtime' WHEN source = 'supavisor_logs' THEN 'supavisor' WHEN source = 'pgbouncer_logs' THEN 'pgbouncer' ELSE source END) != ''
GROUP BY value
LIMIT 20

-- case: studio-ep-unified-facet-level
-- params: {"project": "default", "start": "2025-01-15 10:00:00", "end": "2025-01-15 11:30:00"}
WITH logs AS (SELECT * FROM logs WHERE project = {project:String} AND timestamp > toDateTime64({start:String}, 6, 'UTC') AND timestamp <= toDateTime64({end:String}, 6, 'UTC'))
SELECT 'level' AS dimension, (CASE WHEN log_attributes['response.status_code'] != '' AND toInt32OrZero(log_attributes['response.status_code']) >= 500 THEN 'error' WHEN log_attributes['response.status_code'] != '' AND toInt32OrZero(log_attributes['response.status_code']) BETWEEN 400 AND 499 THEN 'warning' WHEN log_attributes['response.status_code'] != '' AND toInt32OrZero(log_attributes['response.status_code']) BETWEEN 200 AND 299 THEN 'success' WHEN severity_text IN ('ERROR','FATAL','CRITICAL','ALERT','EMERGENCY') THEN 'error' WHEN severity_text IN ('WARN','WARNING') THEN 'warning' WHEN severity_text IN ('TRACE','DEBUG','INFO','LOG','NOTICE') THEN 'success' ELSE 'success' END) AS value, count() AS count
FROM logs
WHERE ((source = 'edge_logs' AND log_attributes['request.path'] NOT LIKE '%/rest/%' AND log_attributes['request.path'] NOT LIKE '%/storage/%') OR (source = 'edge_logs' AND log_attributes['request.path'] LIKE '%/rest/%') OR (source = 'edge_logs' AND log_attributes['request.path'] LIKE '%/storage/%') OR (source = 'postgres_logs') OR (source = 'function_edge_logs') OR (source = 'auth_logs') OR (source = 'realtime_logs') OR (source = 'supavisor_logs') OR (source = 'pgbouncer_logs')) AND (CASE WHEN log_attributes['response.status_code'] != '' AND toInt32OrZero(log_attributes['response.status_code']) >= 500 THEN 'error' WHEN log_attributes['response.status_code'] != '' AND toInt32OrZero(log_attributes['response.status_code']) BETWEEN 400 AND 499 THEN 'warning' WHEN log_attributes['response.status_code'] != '' AND toInt32OrZero(log_attributes['response.status_code']) BETWEEN 200 AND 299 THEN 'success' WHEN severity_text IN ('ERROR','FATAL','CRITICAL','ALERT','EMERGENCY') THEN 'error' WHEN severity_text IN ('WARN','WARNING') THEN 'warning' WHEN severity_text IN ('TRACE','DEBUG','INFO','LOG','NOTICE') THEN 'success' ELSE 'success' END) IS NOT NULL AND (CASE WHEN log_attributes['response.status_code'] != '' AND toInt32OrZero(log_attributes['response.status_code']) >= 500 THEN 'error' WHEN log_attributes['response.status_code'] != '' AND toInt32OrZero(log_attributes['response.status_code']) BETWEEN 400 AND 499 THEN 'warning' WHEN log_attributes['response.status_code'] != '' AND toInt32OrZero(log_attributes['response.status_code']) BETWEEN 200 AND 299 THEN 'success' WHEN severity_text IN ('ERROR','FATAL','CRITICAL','ALERT','EMERGENCY') THEN 'error' WHEN severity_text IN ('WARN','WARNING') THEN 'warning' WHEN severity_text IN ('TRACE','DEBUG','INFO','LOG','NOTICE') THEN 'success' ELSE 'success' END) != ''
GROUP BY value
LIMIT 20

-- case: studio-ep-unified-facet-method
-- params: {"project": "default", "start": "2025-01-15 10:00:00", "end": "2025-01-15 11:30:00"}
WITH logs AS (SELECT * FROM logs WHERE project = {project:String} AND timestamp > toDateTime64({start:String}, 6, 'UTC') AND timestamp <= toDateTime64({end:String}, 6, 'UTC'))
SELECT 'method' AS dimension, (log_attributes['request.method']) AS value, count() AS count
FROM logs
WHERE ((source = 'edge_logs' AND log_attributes['request.path'] NOT LIKE '%/rest/%' AND log_attributes['request.path'] NOT LIKE '%/storage/%') OR (source = 'edge_logs' AND log_attributes['request.path'] LIKE '%/rest/%') OR (source = 'edge_logs' AND log_attributes['request.path'] LIKE '%/storage/%') OR (source = 'postgres_logs') OR (source = 'function_edge_logs') OR (source = 'auth_logs') OR (source = 'realtime_logs') OR (source = 'supavisor_logs') OR (source = 'pgbouncer_logs')) AND (log_attributes['request.method']) IS NOT NULL AND (log_attributes['request.method']) != ''
GROUP BY value
LIMIT 20

-- case: studio-ep-unified-facet-status
-- params: {"project": "default", "start": "2025-01-15 10:00:00", "end": "2025-01-15 11:30:00"}
WITH logs AS (SELECT * FROM logs WHERE project = {project:String} AND timestamp > toDateTime64({start:String}, 6, 'UTC') AND timestamp <= toDateTime64({end:String}, 6, 'UTC'))
SELECT 'status' AS dimension, (CASE WHEN source = 'postgres_logs' THEN toString(log_attributes['parsed.sql_state_code']) ELSE toString(log_attributes['response.status_code']) END) AS value, count() AS count
FROM logs
WHERE ((source = 'edge_logs' AND log_attributes['request.path'] NOT LIKE '%/rest/%' AND log_attributes['request.path'] NOT LIKE '%/storage/%') OR (source = 'edge_logs' AND log_attributes['request.path'] LIKE '%/rest/%') OR (source = 'edge_logs' AND log_attributes['request.path'] LIKE '%/storage/%') OR (source = 'postgres_logs') OR (source = 'function_edge_logs') OR (source = 'auth_logs') OR (source = 'realtime_logs') OR (source = 'supavisor_logs') OR (source = 'pgbouncer_logs')) AND (CASE WHEN source = 'postgres_logs' THEN toString(log_attributes['parsed.sql_state_code']) ELSE toString(log_attributes['response.status_code']) END) IS NOT NULL AND (CASE WHEN source = 'postgres_logs' THEN toString(log_attributes['parsed.sql_state_code']) ELSE toString(log_attributes['response.status_code']) END) != ''
GROUP BY value
LIMIT 20

-- case: studio-ep-unified-facet-pathname
-- params: {"project": "default", "start": "2025-01-15 10:00:00", "end": "2025-01-15 11:30:00"}
WITH logs AS (SELECT * FROM logs WHERE project = {project:String} AND timestamp > toDateTime64({start:String}, 6, 'UTC') AND timestamp <= toDateTime64({end:String}, 6, 'UTC'))
SELECT 'pathname' AS dimension, (log_attributes['request.path']) AS value, count() AS count
FROM logs
WHERE ((source = 'edge_logs' AND log_attributes['request.path'] NOT LIKE '%/rest/%' AND log_attributes['request.path'] NOT LIKE '%/storage/%') OR (source = 'edge_logs' AND log_attributes['request.path'] LIKE '%/rest/%') OR (source = 'edge_logs' AND log_attributes['request.path'] LIKE '%/storage/%') OR (source = 'postgres_logs') OR (source = 'function_edge_logs') OR (source = 'auth_logs') OR (source = 'realtime_logs') OR (source = 'supavisor_logs') OR (source = 'pgbouncer_logs')) AND (log_attributes['request.path']) IS NOT NULL AND (log_attributes['request.path']) != ''
GROUP BY value
LIMIT 20

-- case: studio-ep-unified-facet-search
-- params: {"project": "default", "start": "2025-01-15 10:00:00", "end": "2025-01-15 11:30:00"}
WITH logs AS (SELECT * FROM logs WHERE project = {project:String} AND timestamp > toDateTime64({start:String}, 6, 'UTC') AND timestamp <= toDateTime64({end:String}, 6, 'UTC'))
SELECT 'pathname' AS dimension, (log_attributes['request.path']) AS value, count() AS count
FROM logs
WHERE ((source = 'edge_logs' AND log_attributes['request.path'] NOT LIKE '%/rest/%' AND log_attributes['request.path'] NOT LIKE '%/storage/%') OR (source = 'edge_logs' AND log_attributes['request.path'] LIKE '%/rest/%') OR (source = 'edge_logs' AND log_attributes['request.path'] LIKE '%/storage/%') OR (source = 'postgres_logs') OR (source = 'function_edge_logs') OR (source = 'auth_logs') OR (source = 'realtime_logs') OR (source = 'supavisor_logs') OR (source = 'pgbouncer_logs')) AND (log_attributes['request.path']) IS NOT NULL AND (log_attributes['request.path']) != '' AND (log_attributes['request.path']) LIKE '%rest%'
GROUP BY value
LIMIT 20

-- case: studio-ep-unified-count-union
-- params: {"project": "default", "start": "2025-01-15 10:00:00", "end": "2025-01-15 11:30:00"}
WITH logs AS (SELECT * FROM logs WHERE project = {project:String} AND timestamp > toDateTime64({start:String}, 6, 'UTC') AND timestamp <= toDateTime64({end:String}, 6, 'UTC'))
SELECT 'total' AS dimension, 'all' AS value, count() AS count
FROM logs
WHERE ((source = 'edge_logs' AND log_attributes['request.path'] NOT LIKE '%/rest/%' AND log_attributes['request.path'] NOT LIKE '%/storage/%') OR (source = 'edge_logs' AND log_attributes['request.path'] LIKE '%/rest/%') OR (source = 'edge_logs' AND log_attributes['request.path'] LIKE '%/storage/%') OR (source = 'postgres_logs') OR (source = 'function_edge_logs') OR (source = 'auth_logs') OR (source = 'realtime_logs') OR (source = 'supavisor_logs') OR (source = 'pgbouncer_logs'))
UNION ALL
SELECT 'log_type' AS dimension, 'edge' AS value, countIf(source = 'edge_logs' AND log_attributes['request.path'] NOT LIKE '%/rest/%' AND log_attributes['request.path'] NOT LIKE '%/storage/%') AS count
FROM logs
WHERE 1
UNION ALL
SELECT 'log_type' AS dimension, 'postgrest' AS value, countIf(source = 'edge_logs' AND log_attributes['request.path'] LIKE '%/rest/%') AS count
FROM logs
WHERE 1
UNION ALL
SELECT 'log_type' AS dimension, 'storage' AS value, countIf(source = 'edge_logs' AND log_attributes['request.path'] LIKE '%/storage/%') AS count
FROM logs
WHERE 1
UNION ALL
SELECT 'log_type' AS dimension, 'postgres' AS value, countIf(source = 'postgres_logs') AS count
FROM logs
WHERE 1
UNION ALL
SELECT 'log_type' AS dimension, 'edge function' AS value, countIf(source = 'function_edge_logs') AS count
FROM logs
WHERE 1
UNION ALL
SELECT 'log_type' AS dimension, 'auth' AS value, countIf(source = 'auth_logs') AS count
FROM logs
WHERE 1
UNION ALL
SELECT 'log_type' AS dimension, 'realtime' AS value, countIf(source = 'realtime_logs') AS count
FROM logs
WHERE 1
UNION ALL
SELECT 'log_type' AS dimension, 'supavisor' AS value, countIf(source = 'supavisor_logs') AS count
FROM logs
WHERE 1
UNION ALL
SELECT 'log_type' AS dimension, 'pgbouncer' AS value, countIf(source = 'pgbouncer_logs') AS count
FROM logs
WHERE 1
UNION ALL
SELECT 'level' AS dimension, 'success' AS value, countIf((CASE WHEN log_attributes['response.status_code'] != '' AND toInt32OrZero(log_attributes['response.status_code']) >= 500 THEN 'error' WHEN log_attributes['response.status_code'] != '' AND toInt32OrZero(log_attributes['response.status_code']) BETWEEN 400 AND 499 THEN 'warning' WHEN log_attributes['response.status_code'] != '' AND toInt32OrZero(log_attributes['response.status_code']) BETWEEN 200 AND 299 THEN 'success' WHEN severity_text IN ('ERROR','FATAL','CRITICAL','ALERT','EMERGENCY') THEN 'error' WHEN severity_text IN ('WARN','WARNING') THEN 'warning' WHEN severity_text IN ('TRACE','DEBUG','INFO','LOG','NOTICE') THEN 'success' ELSE 'success' END) = 'success') AS count
FROM logs
WHERE ((source = 'edge_logs' AND log_attributes['request.path'] NOT LIKE '%/rest/%' AND log_attributes['request.path'] NOT LIKE '%/storage/%') OR (source = 'edge_logs' AND log_attributes['request.path'] LIKE '%/rest/%') OR (source = 'edge_logs' AND log_attributes['request.path'] LIKE '%/storage/%') OR (source = 'postgres_logs') OR (source = 'function_edge_logs') OR (source = 'auth_logs') OR (source = 'realtime_logs') OR (source = 'supavisor_logs') OR (source = 'pgbouncer_logs'))
UNION ALL
SELECT 'level' AS dimension, 'warning' AS value, countIf((CASE WHEN log_attributes['response.status_code'] != '' AND toInt32OrZero(log_attributes['response.status_code']) >= 500 THEN 'error' WHEN log_attributes['response.status_code'] != '' AND toInt32OrZero(log_attributes['response.status_code']) BETWEEN 400 AND 499 THEN 'warning' WHEN log_attributes['response.status_code'] != '' AND toInt32OrZero(log_attributes['response.status_code']) BETWEEN 200 AND 299 THEN 'success' WHEN severity_text IN ('ERROR','FATAL','CRITICAL','ALERT','EMERGENCY') THEN 'error' WHEN severity_text IN ('WARN','WARNING') THEN 'warning' WHEN severity_text IN ('TRACE','DEBUG','INFO','LOG','NOTICE') THEN 'success' ELSE 'success' END) = 'warning') AS count
FROM logs
WHERE ((source = 'edge_logs' AND log_attributes['request.path'] NOT LIKE '%/rest/%' AND log_attributes['request.path'] NOT LIKE '%/storage/%') OR (source = 'edge_logs' AND log_attributes['request.path'] LIKE '%/rest/%') OR (source = 'edge_logs' AND log_attributes['request.path'] LIKE '%/storage/%') OR (source = 'postgres_logs') OR (source = 'function_edge_logs') OR (source = 'auth_logs') OR (source = 'realtime_logs') OR (source = 'supavisor_logs') OR (source = 'pgbouncer_logs'))
UNION ALL
SELECT 'level' AS dimension, 'error' AS value, countIf((CASE WHEN log_attributes['response.status_code'] != '' AND toInt32OrZero(log_attributes['response.status_code']) >= 500 THEN 'error' WHEN log_attributes['response.status_code'] != '' AND toInt32OrZero(log_attributes['response.status_code']) BETWEEN 400 AND 499 THEN 'warning' WHEN log_attributes['response.status_code'] != '' AND toInt32OrZero(log_attributes['response.status_code']) BETWEEN 200 AND 299 THEN 'success' WHEN severity_text IN ('ERROR','FATAL','CRITICAL','ALERT','EMERGENCY') THEN 'error' WHEN severity_text IN ('WARN','WARNING') THEN 'warning' WHEN severity_text IN ('TRACE','DEBUG','INFO','LOG','NOTICE') THEN 'success' ELSE 'success' END) = 'error') AS count
FROM logs
WHERE ((source = 'edge_logs' AND log_attributes['request.path'] NOT LIKE '%/rest/%' AND log_attributes['request.path'] NOT LIKE '%/storage/%') OR (source = 'edge_logs' AND log_attributes['request.path'] LIKE '%/rest/%') OR (source = 'edge_logs' AND log_attributes['request.path'] LIKE '%/storage/%') OR (source = 'postgres_logs') OR (source = 'function_edge_logs') OR (source = 'auth_logs') OR (source = 'realtime_logs') OR (source = 'supavisor_logs') OR (source = 'pgbouncer_logs'))
UNION ALL
(SELECT 'method' AS dimension, (log_attributes['request.method']) AS value, count() AS count
FROM logs
WHERE ((source = 'edge_logs' AND log_attributes['request.path'] NOT LIKE '%/rest/%' AND log_attributes['request.path'] NOT LIKE '%/storage/%') OR (source = 'edge_logs' AND log_attributes['request.path'] LIKE '%/rest/%') OR (source = 'edge_logs' AND log_attributes['request.path'] LIKE '%/storage/%') OR (source = 'postgres_logs') OR (source = 'function_edge_logs') OR (source = 'auth_logs') OR (source = 'realtime_logs') OR (source = 'supavisor_logs') OR (source = 'pgbouncer_logs')) AND (log_attributes['request.method']) IS NOT NULL AND (log_attributes['request.method']) != ''
GROUP BY value
LIMIT 20)
UNION ALL
(SELECT 'status' AS dimension, (CASE WHEN source = 'postgres_logs' THEN toString(log_attributes['parsed.sql_state_code']) ELSE toString(log_attributes['response.status_code']) END) AS value, count() AS count
FROM logs
WHERE ((source = 'edge_logs' AND log_attributes['request.path'] NOT LIKE '%/rest/%' AND log_attributes['request.path'] NOT LIKE '%/storage/%') OR (source = 'edge_logs' AND log_attributes['request.path'] LIKE '%/rest/%') OR (source = 'edge_logs' AND log_attributes['request.path'] LIKE '%/storage/%') OR (source = 'postgres_logs') OR (source = 'function_edge_logs') OR (source = 'auth_logs') OR (source = 'realtime_logs') OR (source = 'supavisor_logs') OR (source = 'pgbouncer_logs')) AND (CASE WHEN source = 'postgres_logs' THEN toString(log_attributes['parsed.sql_state_code']) ELSE toString(log_attributes['response.status_code']) END) IS NOT NULL AND (CASE WHEN source = 'postgres_logs' THEN toString(log_attributes['parsed.sql_state_code']) ELSE toString(log_attributes['response.status_code']) END) != ''
GROUP BY value
LIMIT 20)
UNION ALL
(SELECT 'pathname' AS dimension, (log_attributes['request.path']) AS value, count() AS count
FROM logs
WHERE ((source = 'edge_logs' AND log_attributes['request.path'] NOT LIKE '%/rest/%' AND log_attributes['request.path'] NOT LIKE '%/storage/%') OR (source = 'edge_logs' AND log_attributes['request.path'] LIKE '%/rest/%') OR (source = 'edge_logs' AND log_attributes['request.path'] LIKE '%/storage/%') OR (source = 'postgres_logs') OR (source = 'function_edge_logs') OR (source = 'auth_logs') OR (source = 'realtime_logs') OR (source = 'supavisor_logs') OR (source = 'pgbouncer_logs')) AND (log_attributes['request.path']) IS NOT NULL AND (log_attributes['request.path']) != ''
GROUP BY value
LIMIT 20)

-- case: studio-ep-unified-chart-toStartOfMinute
-- params: {"project": "default", "start": "2025-01-15 10:00:00", "end": "2025-01-15 11:30:00"}
WITH logs AS (SELECT * FROM logs WHERE project = {project:String} AND timestamp > toDateTime64({start:String}, 6, 'UTC') AND timestamp <= toDateTime64({end:String}, 6, 'UTC'))
SELECT
  toStartOfMinute(timestamp) AS time_bucket,
  countIf((CASE WHEN log_attributes['response.status_code'] != '' AND toInt32OrZero(log_attributes['response.status_code']) >= 500 THEN 'error' WHEN log_attributes['response.status_code'] != '' AND toInt32OrZero(log_attributes['response.status_code']) BETWEEN 400 AND 499 THEN 'warning' WHEN log_attributes['response.status_code'] != '' AND toInt32OrZero(log_attributes['response.status_code']) BETWEEN 200 AND 299 THEN 'success' WHEN severity_text IN ('ERROR','FATAL','CRITICAL','ALERT','EMERGENCY') THEN 'error' WHEN severity_text IN ('WARN','WARNING') THEN 'warning' WHEN severity_text IN ('TRACE','DEBUG','INFO','LOG','NOTICE') THEN 'success' ELSE 'success' END) = 'success') AS success,
  countIf((CASE WHEN log_attributes['response.status_code'] != '' AND toInt32OrZero(log_attributes['response.status_code']) >= 500 THEN 'error' WHEN log_attributes['response.status_code'] != '' AND toInt32OrZero(log_attributes['response.status_code']) BETWEEN 400 AND 499 THEN 'warning' WHEN log_attributes['response.status_code'] != '' AND toInt32OrZero(log_attributes['response.status_code']) BETWEEN 200 AND 299 THEN 'success' WHEN severity_text IN ('ERROR','FATAL','CRITICAL','ALERT','EMERGENCY') THEN 'error' WHEN severity_text IN ('WARN','WARNING') THEN 'warning' WHEN severity_text IN ('TRACE','DEBUG','INFO','LOG','NOTICE') THEN 'success' ELSE 'success' END) = 'warning') AS warning,
  countIf((CASE WHEN log_attributes['response.status_code'] != '' AND toInt32OrZero(log_attributes['response.status_code']) >= 500 THEN 'error' WHEN log_attributes['response.status_code'] != '' AND toInt32OrZero(log_attributes['response.status_code']) BETWEEN 400 AND 499 THEN 'warning' WHEN log_attributes['response.status_code'] != '' AND toInt32OrZero(log_attributes['response.status_code']) BETWEEN 200 AND 299 THEN 'success' WHEN severity_text IN ('ERROR','FATAL','CRITICAL','ALERT','EMERGENCY') THEN 'error' WHEN severity_text IN ('WARN','WARNING') THEN 'warning' WHEN severity_text IN ('TRACE','DEBUG','INFO','LOG','NOTICE') THEN 'success' ELSE 'success' END) = 'error') AS error,
  count() AS total_per_bucket
FROM logs
WHERE ((source = 'edge_logs' AND log_attributes['request.path'] NOT LIKE '%/rest/%' AND log_attributes['request.path'] NOT LIKE '%/storage/%') OR (source = 'edge_logs' AND log_attributes['request.path'] LIKE '%/rest/%') OR (source = 'edge_logs' AND log_attributes['request.path'] LIKE '%/storage/%') OR (source = 'postgres_logs') OR (source = 'function_edge_logs') OR (source = 'auth_logs') OR (source = 'realtime_logs') OR (source = 'supavisor_logs') OR (source = 'pgbouncer_logs')) AND (source != 'postgres_logs' OR (
    event_message NOT LIKE 'connection received%' AND
    event_message NOT LIKE 'connection authenticated%' AND
    event_message NOT LIKE 'connection authorized%'
  ))
GROUP BY time_bucket
ORDER BY time_bucket ASC

-- case: studio-ep-unified-chart-toStartOfHour
-- params: {"project": "default", "start": "2025-01-15 10:00:00", "end": "2025-01-15 11:30:00"}
WITH logs AS (SELECT * FROM logs WHERE project = {project:String} AND timestamp > toDateTime64({start:String}, 6, 'UTC') AND timestamp <= toDateTime64({end:String}, 6, 'UTC'))
SELECT
  toStartOfHour(timestamp) AS time_bucket,
  countIf((CASE WHEN log_attributes['response.status_code'] != '' AND toInt32OrZero(log_attributes['response.status_code']) >= 500 THEN 'error' WHEN log_attributes['response.status_code'] != '' AND toInt32OrZero(log_attributes['response.status_code']) BETWEEN 400 AND 499 THEN 'warning' WHEN log_attributes['response.status_code'] != '' AND toInt32OrZero(log_attributes['response.status_code']) BETWEEN 200 AND 299 THEN 'success' WHEN severity_text IN ('ERROR','FATAL','CRITICAL','ALERT','EMERGENCY') THEN 'error' WHEN severity_text IN ('WARN','WARNING') THEN 'warning' WHEN severity_text IN ('TRACE','DEBUG','INFO','LOG','NOTICE') THEN 'success' ELSE 'success' END) = 'success') AS success,
  countIf((CASE WHEN log_attributes['response.status_code'] != '' AND toInt32OrZero(log_attributes['response.status_code']) >= 500 THEN 'error' WHEN log_attributes['response.status_code'] != '' AND toInt32OrZero(log_attributes['response.status_code']) BETWEEN 400 AND 499 THEN 'warning' WHEN log_attributes['response.status_code'] != '' AND toInt32OrZero(log_attributes['response.status_code']) BETWEEN 200 AND 299 THEN 'success' WHEN severity_text IN ('ERROR','FATAL','CRITICAL','ALERT','EMERGENCY') THEN 'error' WHEN severity_text IN ('WARN','WARNING') THEN 'warning' WHEN severity_text IN ('TRACE','DEBUG','INFO','LOG','NOTICE') THEN 'success' ELSE 'success' END) = 'warning') AS warning,
  countIf((CASE WHEN log_attributes['response.status_code'] != '' AND toInt32OrZero(log_attributes['response.status_code']) >= 500 THEN 'error' WHEN log_attributes['response.status_code'] != '' AND toInt32OrZero(log_attributes['response.status_code']) BETWEEN 400 AND 499 THEN 'warning' WHEN log_attributes['response.status_code'] != '' AND toInt32OrZero(log_attributes['response.status_code']) BETWEEN 200 AND 299 THEN 'success' WHEN severity_text IN ('ERROR','FATAL','CRITICAL','ALERT','EMERGENCY') THEN 'error' WHEN severity_text IN ('WARN','WARNING') THEN 'warning' WHEN severity_text IN ('TRACE','DEBUG','INFO','LOG','NOTICE') THEN 'success' ELSE 'success' END) = 'error') AS error,
  count() AS total_per_bucket
FROM logs
WHERE ((source = 'edge_logs' AND log_attributes['request.path'] NOT LIKE '%/rest/%' AND log_attributes['request.path'] NOT LIKE '%/storage/%') OR (source = 'edge_logs' AND log_attributes['request.path'] LIKE '%/rest/%') OR (source = 'edge_logs' AND log_attributes['request.path'] LIKE '%/storage/%') OR (source = 'postgres_logs') OR (source = 'function_edge_logs') OR (source = 'auth_logs') OR (source = 'realtime_logs') OR (source = 'supavisor_logs') OR (source = 'pgbouncer_logs')) AND (source != 'postgres_logs' OR (
    event_message NOT LIKE 'connection received%' AND
    event_message NOT LIKE 'connection authenticated%' AND
    event_message NOT LIKE 'connection authorized%'
  ))
GROUP BY time_bucket
ORDER BY time_bucket ASC

-- case: studio-ep-unified-chart-toStartOfDay
-- params: {"project": "default", "start": "2025-01-15 10:00:00", "end": "2025-01-15 11:30:00"}
WITH logs AS (SELECT * FROM logs WHERE project = {project:String} AND timestamp > toDateTime64({start:String}, 6, 'UTC') AND timestamp <= toDateTime64({end:String}, 6, 'UTC'))
SELECT
  toStartOfDay(timestamp) AS time_bucket,
  countIf((CASE WHEN log_attributes['response.status_code'] != '' AND toInt32OrZero(log_attributes['response.status_code']) >= 500 THEN 'error' WHEN log_attributes['response.status_code'] != '' AND toInt32OrZero(log_attributes['response.status_code']) BETWEEN 400 AND 499 THEN 'warning' WHEN log_attributes['response.status_code'] != '' AND toInt32OrZero(log_attributes['response.status_code']) BETWEEN 200 AND 299 THEN 'success' WHEN severity_text IN ('ERROR','FATAL','CRITICAL','ALERT','EMERGENCY') THEN 'error' WHEN severity_text IN ('WARN','WARNING') THEN 'warning' WHEN severity_text IN ('TRACE','DEBUG','INFO','LOG','NOTICE') THEN 'success' ELSE 'success' END) = 'success') AS success,
  countIf((CASE WHEN log_attributes['response.status_code'] != '' AND toInt32OrZero(log_attributes['response.status_code']) >= 500 THEN 'error' WHEN log_attributes['response.status_code'] != '' AND toInt32OrZero(log_attributes['response.status_code']) BETWEEN 400 AND 499 THEN 'warning' WHEN log_attributes['response.status_code'] != '' AND toInt32OrZero(log_attributes['response.status_code']) BETWEEN 200 AND 299 THEN 'success' WHEN severity_text IN ('ERROR','FATAL','CRITICAL','ALERT','EMERGENCY') THEN 'error' WHEN severity_text IN ('WARN','WARNING') THEN 'warning' WHEN severity_text IN ('TRACE','DEBUG','INFO','LOG','NOTICE') THEN 'success' ELSE 'success' END) = 'warning') AS warning,
  countIf((CASE WHEN log_attributes['response.status_code'] != '' AND toInt32OrZero(log_attributes['response.status_code']) >= 500 THEN 'error' WHEN log_attributes['response.status_code'] != '' AND toInt32OrZero(log_attributes['response.status_code']) BETWEEN 400 AND 499 THEN 'warning' WHEN log_attributes['response.status_code'] != '' AND toInt32OrZero(log_attributes['response.status_code']) BETWEEN 200 AND 299 THEN 'success' WHEN severity_text IN ('ERROR','FATAL','CRITICAL','ALERT','EMERGENCY') THEN 'error' WHEN severity_text IN ('WARN','WARNING') THEN 'warning' WHEN severity_text IN ('TRACE','DEBUG','INFO','LOG','NOTICE') THEN 'success' ELSE 'success' END) = 'error') AS error,
  count() AS total_per_bucket
FROM logs
WHERE ((source = 'edge_logs' AND log_attributes['request.path'] NOT LIKE '%/rest/%' AND log_attributes['request.path'] NOT LIKE '%/storage/%') OR (source = 'edge_logs' AND log_attributes['request.path'] LIKE '%/rest/%') OR (source = 'edge_logs' AND log_attributes['request.path'] LIKE '%/storage/%') OR (source = 'postgres_logs') OR (source = 'function_edge_logs') OR (source = 'auth_logs') OR (source = 'realtime_logs') OR (source = 'supavisor_logs') OR (source = 'pgbouncer_logs')) AND (source != 'postgres_logs' OR (
    event_message NOT LIKE 'connection received%' AND
    event_message NOT LIKE 'connection authenticated%' AND
    event_message NOT LIKE 'connection authorized%'
  ))
GROUP BY time_bucket
ORDER BY time_bucket ASC
