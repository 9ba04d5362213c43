-- A query whose WHERE keeps only some sources reads only their tables (the relation is compiled
-- with just those branches); conditions that do not restrict the source keep every branch. Each
-- case must answer as ClickHouse does whichever way the translator compiled it.

-- case: prune-one-source
SELECT id, source, severity_text FROM logs WHERE source = 'auth_logs' ORDER BY id

-- case: prune-literal-first-and-qualified
SELECT l.id, l.source FROM logs AS l WHERE 'postgres_logs' = l.source AND l.severity_number >= 9 ORDER BY l.id

-- case: prune-in-list
SELECT source, count() AS n FROM logs WHERE source IN ('edge_logs', 'storage_logs', 'realtime_logs') GROUP BY source ORDER BY source

-- case: prune-unknown-source-no-rows
SELECT id FROM logs WHERE source = 'no_such_logs' ORDER BY id

-- case: prune-unknown-source-count
SELECT count() AS n, countIf(severity_number > 0) AS m FROM logs WHERE source = 'supavisor_logs'

-- case: prune-unknown-and-known-in-list
SELECT source, count() AS n FROM logs WHERE source IN ('no_such_logs', 'pgbouncer_logs') GROUP BY source ORDER BY source

-- case: prune-contradiction
SELECT count() AS n FROM logs WHERE source = 'edge_logs' AND source = 'auth_logs'

-- case: prune-or-of-sources
SELECT source, count() AS n FROM logs WHERE (source = 'edge_logs' AND log_attributes['request.method'] = 'GET') OR source = 'function_logs' GROUP BY source ORDER BY source

-- case: no-prune-or-with-other-condition
SELECT source, count() AS n FROM logs WHERE source = 'edge_logs' OR event_message LIKE '%error%' GROUP BY source ORDER BY source

-- case: no-prune-or-with-other-condition-precedence
SELECT source, count() AS n FROM logs WHERE source = 'auth_logs' AND severity_number > 9 OR severity_text = 'ERROR' GROUP BY source ORDER BY source

-- case: no-prune-not-equal-and-not-in
SELECT source, count() AS n FROM logs WHERE source != 'edge_logs' AND source NOT IN ('postgres_logs') GROUP BY source ORDER BY source

-- case: no-prune-not
SELECT source, count() AS n FROM logs WHERE NOT (source = 'edge_logs') GROUP BY source ORDER BY source

-- case: prune-per-subquery
SELECT (SELECT count() FROM logs WHERE source = 'auth_logs') AS a, (SELECT count() FROM logs WHERE source = 'edge_logs') AS b, (SELECT count() FROM logs) AS c

-- case: prune-union-all-facets
-- (In ClickHouse an ORDER BY after UNION ALL orders only the last SELECT: the union is ordered
-- from outside.)
SELECT * FROM (SELECT 'auth' AS s, count() AS n FROM logs WHERE source = 'auth_logs' UNION ALL SELECT 'rest' AS s, count() AS n FROM logs WHERE source = 'postgrest_logs') ORDER BY s

-- case: prune-through-cte
WITH logs AS (SELECT * FROM logs WHERE project = 'default') SELECT id, source FROM logs WHERE source = 'storage_logs' ORDER BY id

-- case: prune-through-cte-two-reads
WITH logs AS (SELECT id, source, event_message FROM logs) SELECT source, count() AS n FROM (SELECT * FROM logs WHERE source = 'auth_logs' UNION ALL SELECT * FROM logs WHERE source IN ('realtime_logs')) GROUP BY source ORDER BY source

-- case: no-prune-cte-read-without-filter
WITH logs AS (SELECT id, source FROM logs) SELECT (SELECT count() FROM logs WHERE source = 'auth_logs') AS a, (SELECT count() FROM logs) AS b

-- case: no-prune-cte-renames-source
WITH l AS (SELECT id, event_message AS source FROM logs) SELECT count() AS n FROM l WHERE source = 'edge_logs'

-- case: prune-cte-own-where
WITH l AS (SELECT id, source FROM logs WHERE source = 'auth_logs') SELECT source, count() AS n FROM l GROUP BY source ORDER BY source

-- case: no-prune-cte-with-limit
WITH l AS (SELECT id, source, timestamp FROM logs ORDER BY timestamp, id LIMIT 50) SELECT count() AS n FROM l WHERE source = 'edge_logs'

-- case: prune-studio-facet-shape
SELECT 'method' AS dimension, (log_attributes['request.method']) AS value, count() AS count FROM logs WHERE ((source = 'edge_logs' AND log_attributes['request.path'] NOT LIKE '%/rest/%') OR (source = 'edge_logs' AND log_attributes['request.path'] LIKE '%/rest/%') OR (source = 'postgres_logs') OR (source = 'supavisor_logs')) AND (log_attributes['request.method']) IS NOT NULL AND (log_attributes['request.method']) != '' GROUP BY value ORDER BY value
