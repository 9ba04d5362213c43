-- Each function of the ClickHouse front end with edge values, against ClickHouse itself.

-- case: fn-count-forms
SELECT count() AS a, count(event_message) AS b, count(DISTINCT source) AS c FROM logs

-- case: fn-countif-null-and-numbers
SELECT countIf(NULL) AS a, countIf(1) AS b, countIf(severity_number > 9) AS c FROM logs

-- case: fn-toint32orzero-edges
SELECT toInt32OrZero('12') AS a, toInt32OrZero('-7') AS b, toInt32OrZero('') AS c, toInt32OrZero('abc') AS d, toInt32OrZero('12abc') AS e, toInt32OrZero('2147483647') AS f

-- case: fn-toint32orzero-out-of-range
SELECT toInt32OrZero('3000000000') AS a

-- case: fn-toint32orzero-spaces-and-signs
SELECT toInt32OrZero(' 12') AS a, toInt32OrZero('+5') AS b, toInt32OrZero('1.5') AS c

-- case: fn-start-of-buckets
SELECT id, toStartOfMinute(timestamp) AS m, toStartOfHour(timestamp) AS h, toStartOfDay(timestamp) AS d FROM logs WHERE source = 'postgres_logs' ORDER BY id

-- case: fn-start-of-interval
SELECT id, toStartOfInterval(timestamp, INTERVAL 5 MINUTE) AS m5, toStartOfInterval(timestamp, INTERVAL 15 SECOND) AS s15, toStartOfInterval(timestamp, INTERVAL 1 DAY) AS d1 FROM logs WHERE source = 'auth_logs' ORDER BY id

-- case: fn-start-of-interval-hours
SELECT id, toStartOfInterval(timestamp, INTERVAL 7 HOUR) AS h7 FROM logs WHERE source = 'auth_logs' ORDER BY id

-- case: fn-todatetime64
SELECT toDateTime64('2025-01-15 10:00:00.123456', 6) AS a, toDateTime64('2025-01-15 10:00:00.123456', 3) AS b, toDateTime64('2025-01-15 10:00:00.987', 0) AS c

-- case: fn-todatetime64-compare
SELECT count() AS n FROM logs WHERE timestamp >= toDateTime64('2025-01-15 10:30:00', 6) AND timestamp < toDateTime64('2025-01-15 11:00:00', 6, 'UTC')

-- case: fn-now-interval
SELECT count() AS n FROM logs WHERE timestamp > now() - INTERVAL 3650 DAY AND timestamp < now()

-- case: fn-if
SELECT id, if(severity_text = 'ERROR', 'bad', 'ok') AS a, if(NULL, 1, 2) AS b FROM logs WHERE source = 'postgres_logs' ORDER BY id

-- case: fn-multiif
SELECT id, multiIf(severity_number >= 17, 'error', severity_number >= 13, 'warning', 'ok') AS level FROM logs WHERE source IN ('postgres_logs', 'auth_logs') ORDER BY id

-- case: fn-match
SELECT id FROM logs WHERE match(event_message, '^(GET|POST) \\| 5') ORDER BY id

-- case: fn-like-ilike
SELECT count() AS a, countIf(event_message ILIKE '%get%') AS b, countIf(event_message LIKE '%get%') AS c, countIf(event_message NOT ILIKE 'post%') AS d FROM logs

-- case: fn-like-escapes
SELECT countIf(event_message LIKE '%\\_%') AS a, countIf(event_message LIKE '%|%') AS b FROM logs

-- case: fn-tostring
SELECT toString(log_attributes['response.status_code']) AS s, count() AS n FROM logs WHERE source = 'edge_logs' GROUP BY s ORDER BY s

-- case: fn-in-between
SELECT count() AS n FROM logs WHERE source IN ('edge_logs', 'auth_logs') AND severity_number BETWEEN 9 AND 17

-- case: fn-group-by-alias
SELECT source AS s, count() AS n FROM logs GROUP BY s ORDER BY s

-- case: fn-param
SELECT count() AS n FROM logs WHERE source = {source:String}
-- params: {"source": "edge_logs"}
