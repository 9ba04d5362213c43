-- logs.all.otel: Studio's OTEL log endpoint, in ClickHouse SQL (language: clickhouse).
-- The CTE `logs` is the OTEL relation (logs.otel, read here as ClickHouse reads the table `logs`)
-- restricted to one project and the optional time range; sandboxed callers query it by name,
-- in ClickHouse SQL. Time bounds as logs.all's: an absent (NULL) or empty parameter means
-- unbounded, the first and last instants PostgreSQL's timestamps reach, which no stored event
-- holds; the start is exclusive, the end inclusive. match(p, '.') is "p is neither NULL nor
-- empty" written with calls only, so each bound reads no row and is folded while planning
-- (bq.timestamp_constant), pruning day partitions as logs.all's bounds do.
WITH logs AS (
  SELECT id, timestamp, project, source, event_message, severity_text, severity_number,
    service_name, trace_id, span_id, scope_name, log_attributes, resource_attributes
  FROM logs
  WHERE project = {project:String}
    AND timestamp > toDateTime64(if(match({iso_timestamp_start:String}, '.'),
      {iso_timestamp_start:String}, '0001-01-01 00:00:00+00'), 6, 'UTC')
    AND timestamp <= toDateTime64(if(match({iso_timestamp_end:String}, '.'),
      {iso_timestamp_end:String}, '9999-12-31 23:59:59.999999+00'), 6, 'UTC')
)
SELECT id, timestamp, event_message
FROM logs
ORDER BY timestamp DESC
LIMIT 100
