-- What the ClickHouse front end refuses, by name and position.

-- case: refuse-unknown-function
SELECT uniqCombined(id) AS n FROM logs
-- refused: unsupported ClickHouse function uniqCombined

-- case: refuse-misspelt-function
SELECT countif(1) AS a, toStartOfMinut(timestamp) AS m FROM logs
-- refused: Did you mean "toStartOfMinute"?

-- case: refuse-bigquery-function
SELECT TIMESTAMP_TRUNC(timestamp, MINUTE) AS m FROM logs
-- refused: unsupported ClickHouse function TIMESTAMP_TRUNC

-- case: refuse-unnest
SELECT id FROM logs, UNNEST([1, 2]) AS x
-- refused: UNNEST is BigQuery's

-- case: refuse-other-table
SELECT id FROM edge_logs
-- refused: ClickHouse-dialect queries read the table logs

-- case: refuse-map-access-by-position
SELECT log_attributes[1] AS x FROM logs
-- refused: only map access by a string key

-- case: refuse-union-distinct
SELECT id FROM logs UNION DISTINCT SELECT id FROM logs
-- refused: only UNION ALL

-- case: refuse-interval-month
SELECT toStartOfInterval(timestamp, INTERVAL 1 MONTH) AS m FROM logs
-- refused: toStartOfInterval supports SECOND, MINUTE, HOUR and DAY

-- case: refuse-bad-param
SELECT id FROM logs WHERE source = {source}
-- refused: expected a query parameter {name:Type}
