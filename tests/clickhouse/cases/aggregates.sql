-- ClickHouse aggregates against ClickHouse itself. uniq and quantile are approximate in
-- ClickHouse beyond their exact range (uniq: 65536 distinct values, quantile: a reservoir of
-- 8192 values); the fixtures are far below both, where ClickHouse's answer is exact.

-- case: agg-uniq-per-source
SELECT source, uniq(id) AS a, uniqExact(event_message) AS b, uniq(log_attributes['request.method']) AS c FROM logs GROUP BY source ORDER BY source

-- case: agg-uniq-empty
SELECT uniq(id) AS a, uniqExact(id) AS b FROM logs WHERE source = 'nothing'

-- case: agg-quantile-severity
SELECT source, quantile(0.5)(severity_number) AS median, quantile(0.9)(severity_number) AS p90, quantile(0.0)(severity_number) AS lo, quantile(1.0)(severity_number) AS hi FROM logs GROUP BY source ORDER BY source

-- case: agg-quantile-interpolated
SELECT quantile(0.3)(toFloat64OrZero(log_attributes['response.status_code'])) AS a, quantile(0.77)(length(event_message)) AS b FROM logs WHERE source = 'edge_logs'

-- case: agg-quantile-empty
SELECT quantile(0.5)(severity_number) AS median FROM logs WHERE source = 'nothing'

-- case: agg-quantiles
SELECT source, quantiles(0.1, 0.5, 0.99)(length(event_message)) AS qs FROM logs GROUP BY source ORDER BY source

-- case: agg-any-on-key
SELECT source, any(source) AS a, count() AS n FROM logs GROUP BY source ORDER BY source

-- case: agg-argmax-argmin
SELECT source, argMax(event_message, id) AS a, argMin(event_message, id) AS b, argMax(id, id) AS c FROM logs GROUP BY source ORDER BY source

-- case: agg-grouparray-one-value
SELECT severity_text, groupArray(severity_text) AS g, length(groupArray(id)) AS n FROM logs GROUP BY severity_text ORDER BY severity_text

-- case: agg-grouparray-skips-nulls
SELECT groupArray(toInt32OrNull(log_attributes['response.status_code'])) AS g FROM logs WHERE source = 'edge_logs' AND log_attributes['response.status_code'] = '500'

-- case: agg-limit-by
SELECT source, id, timestamp FROM logs ORDER BY source, timestamp DESC, id LIMIT 2 BY source

-- case: agg-limit-by-alias-then-limit
SELECT source AS s, severity_text AS sev, count() AS n FROM logs GROUP BY s, sev ORDER BY s, n DESC, sev LIMIT 1 BY s LIMIT 5

-- case: agg-order-nulls-last
SELECT id, toInt32OrNull(log_attributes['response.status_code']) AS code FROM logs WHERE source IN ('edge_logs', 'auth_logs') ORDER BY code, id

-- case: agg-order-nulls-last-desc
SELECT id, toInt32OrNull(log_attributes['response.status_code']) AS code FROM logs WHERE source IN ('edge_logs', 'auth_logs') ORDER BY code DESC, id

-- case: refuse-uniq-parameters
SELECT uniq(1)(id) AS n FROM logs
-- refused: uniq takes no parameters

-- case: refuse-quantile-level-column
SELECT quantile(severity_number)(severity_number) AS n FROM logs
-- refused: a quantile level must be a number literal

-- case: refuse-limit-by-without-order
SELECT source, id FROM logs LIMIT 1 BY source
-- refused: LIMIT n BY is supported on one SELECT with an ORDER BY

-- case: agg-string-literal-values
SELECT source, argMax('x', id) AS a, argMin('y', id) AS b, any('z') AS c, length(groupArray('w')) AS d FROM logs GROUP BY source ORDER BY source
