-- lqe's writers hand the edge rollups their inputs instead of making the trigger dig them out.
-- A profile of one COPY into logs.edge (perf, 50,000 events) put a fifth of the backend's time in
-- the rollup trigger: the transition table of ~1.8 KB rows spilled to a temporary file (7 %) and
-- the trigger re-read every row's metadata for request.url and request.path (13 %). lqe holds
-- those two strings already while it forms the events, so it now
--   1. sets lqe.edge_rollup_rows to the number of rows its COPY inserts (transaction-local);
--   2. COPYs: the trigger sees that many rows in new_rows, counts nothing and marks the setting
--      'counted' (it does its usual work whenever the number differs, or the statement is not
--      on logs.edge itself, e.g. migration 031's feed of routed rows);
--   3. calls logs.add_written_edge_rollup_counts with the minute counts and trigrams it made of
--      those rows (exactly what the trigger would have made), which adds them only when the
--      trigger marked the setting 'counted' in this transaction (so nothing is counted twice, nor
--      skipped).
-- Every other writer (plain SQL, psql \copy) sets nothing and keeps the trigger's own counting.
-- The trigger's own counting moves into logs.add_edge_rollup_rows (035's body, on arrays).

-- Counts rows given as parallel arrays (timestamp, request URL, request path) into the minute
-- delta and the trigram rollup: the body of migration 035's trigger, with its reads of
-- metadata -> 'request' moved to the callers. Rows with a NULL URL count nothing.
CREATE FUNCTION logs.add_edge_rollup_rows(stamps timestamptz[], urls text[], paths text[])
RETURNS void
LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, pg_temp AS $fn$
BEGIN
  WITH r AS (
    SELECT * FROM unnest(stamps, urls, paths) AS u(ts, url, path)
  ), s AS (
    SELECT ts, url, path, logs.url_prefix(url) AS prefix FROM r WHERE url IS NOT NULL
  ), minute AS (
    INSERT INTO logs.edge_api_minute_delta
    SELECT date_trunc('minute', ts, 'UTC'), prefix,
           count(*),
           count(*) FILTER (WHERE strpos(path, '/rest') > 0),
           count(*) FILTER (WHERE strpos(path, '/storage') > 0),
           count(*) FILTER (WHERE strpos(path, '/auth') > 0),
           count(*) FILTER (WHERE strpos(path, '/realtime') > 0)
      FROM s GROUP BY 1, 2
  ), rests AS (
    SELECT DISTINCT date_trunc('day', ts, 'UTC') AS day, substr(url, length(prefix) + 1) AS rest
      FROM s
  ), pieces AS (
    SELECT day, string_agg(rest, ' ') AS rests
      FROM (SELECT day, rest,
                   sum(octet_length(rest)) OVER (ROWS UNBOUNDED PRECEDING) / 50000000 AS piece
              FROM rests) p
     GROUP BY day, piece
  ), found AS (
    SELECT DISTINCT p.day, t.trigram
      FROM pieces p, unnest(logs.url_rest_trigrams(p.rests)) AS t(trigram)
  )
  -- Sorted, so concurrent writers lock trigram rows in the same order.
  INSERT INTO logs.edge_url_rest_trigrams (day, trigram)
  SELECT f.day, f.trigram FROM found f
   ORDER BY 2, 1
  ON CONFLICT DO NOTHING;
END
$fn$;
REVOKE EXECUTE ON FUNCTION logs.add_edge_rollup_rows(timestamptz[], text[], text[]) FROM PUBLIC;

COMMENT ON FUNCTION logs.add_edge_rollup_rows(timestamptz[], text[], text[]) IS
  'Counts edge rows (timestamps, request URLs, request paths) into logs.edge_api_minute_delta '
  'and logs.edge_url_rest_trigrams: the edge rollup trigger''s work on given values.';

CREATE OR REPLACE FUNCTION logs.add_edge_rollups() RETURNS trigger
LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, pg_temp AS $fn$
DECLARE
  announced text := current_setting('lqe.edge_rollup_rows', true);
BEGIN
  IF announced ~ '^[0-9]{1,18}$' AND TG_TABLE_SCHEMA = 'logs' AND TG_TABLE_NAME = 'edge'
     AND (SELECT count(*) FROM new_rows) = announced::bigint THEN
    -- The writer counts these rows itself (logs.add_written_edge_rollup_counts).
    PERFORM set_config('lqe.edge_rollup_rows', 'counted', true);
    RETURN NULL;
  END IF;
  IF announced IS NOT NULL AND announced <> '' THEN
    PERFORM set_config('lqe.edge_rollup_rows', '', true);
  END IF;
  PERFORM logs.add_edge_rollup_rows(array_agg(n."timestamp"),
                                    array_agg((n.metadata -> 'request') ->> 'url'),
                                    array_agg((n.metadata -> 'request') ->> 'path'))
     FROM new_rows n;
  RETURN NULL;
END
$fn$;

-- Step 3 above, with the counting done by the writer: the delta rows (one per minute and URL
-- prefix, as add_edge_rollup_rows groups them) and the distinct (day, trigram) pairs of the rows.
-- lqe checks on connecting that logs.url_prefix and logs.url_rest_trigrams give what its own
-- code gives (the trigrams depend on the database's LC_CTYPE) and otherwise leaves the counting
-- to the trigger. Returns whether it counted (false: the trigger counted the rows itself).
-- Callable by any role: it counts only after the trigger skipped the rows of an insert into
-- logs.edge in the same transaction, which only a role that may insert there can make happen.
CREATE FUNCTION logs.add_written_edge_rollup_counts(
  minutes timestamptz[], prefixes text[], requests bigint[], rest_requests bigint[],
  storage_requests bigint[], auth_requests bigint[], realtime_requests bigint[],
  days timestamptz[], trigrams text[]) RETURNS boolean
LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, pg_temp AS $fn$
BEGIN
  IF current_setting('lqe.edge_rollup_rows', true) IS DISTINCT FROM 'counted' THEN
    RETURN false;
  END IF;
  PERFORM set_config('lqe.edge_rollup_rows', '', true);
  INSERT INTO logs.edge_api_minute_delta
  SELECT * FROM unnest(minutes, prefixes, requests, rest_requests, storage_requests,
                       auth_requests, realtime_requests);
  -- Sorted, as in add_edge_rollup_rows.
  INSERT INTO logs.edge_url_rest_trigrams (day, trigram)
  SELECT d, t FROM unnest(days, trigrams) AS u(d, t)
   ORDER BY 2, 1
  ON CONFLICT DO NOTHING;
  RETURN true;
END
$fn$;

COMMENT ON FUNCTION logs.add_written_edge_rollup_counts(timestamptz[], text[], bigint[], bigint[],
                                                       bigint[], bigint[], bigint[],
                                                       timestamptz[], text[]) IS
  'lqe''s writers: adds the rollup counts of the insert into logs.edge just made, whose row count '
  'was announced in lqe.edge_rollup_rows and which the rollup trigger therefore skipped.';
