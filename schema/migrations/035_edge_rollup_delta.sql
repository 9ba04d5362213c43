-- The minute rollup of migration 020 without its upsert at ingest. The statement trigger upserted
-- each statement's (minute, prefix) counts into logs.edge_api_minute; with events spread over
-- days nearly every event made a row of its own, and the ON CONFLICT insert cost about 10 us an
-- event (bench/ingest/edge_trigger_cpu.sh), most of the trigger. Now the trigger appends those
-- counts to logs.edge_api_minute_delta (no index, no conflict check), in the same transaction as
-- the events, so a committed event is always counted; the chart (sql/usage.api-counts.sql) sums
-- both tables in one statement. logs.compact_edge_rollups() folds the delta into the rollup in one
-- transaction; the gateway calls it in the background and lqe load when it finishes. The trigram
-- rollup keeps its ON CONFLICT DO NOTHING insert: its rows are per day, so most exist already.
CREATE TABLE logs.edge_api_minute_delta (
  "timestamp" timestamptz NOT NULL,
  url_prefix text NOT NULL,
  requests bigint NOT NULL,
  rest_requests bigint NOT NULL,
  storage_requests bigint NOT NULL,
  auth_requests bigint NOT NULL,
  realtime_requests bigint NOT NULL
) WITH (autovacuum_vacuum_scale_factor = 0, autovacuum_vacuum_threshold = 20000);

COMMENT ON TABLE logs.edge_api_minute_delta IS
  'Counts of logs.edge_api_minute not folded into it yet: each insert into logs.edge appends its '
  'own per (minute, prefix) here; logs.compact_edge_rollups() moves them into the rollup. A '
  'bucket''s count is the sum over both tables (several rows per key may be here).';
COMMENT ON COLUMN logs.edge_api_minute_delta."timestamp" IS 'Start of the UTC minute.';
COMMENT ON COLUMN logs.edge_api_minute_delta.url_prefix IS
  'The URL up to its path, query or fragment, as in logs.edge_api_minute.';
COMMENT ON COLUMN logs.edge_api_minute_delta.requests IS
  'Events with a request URL in this minute, of one insert statement.';
COMMENT ON COLUMN logs.edge_api_minute_delta.rest_requests IS 'Of those, paths containing /rest.';
COMMENT ON COLUMN logs.edge_api_minute_delta.storage_requests IS
  'Of those, paths containing /storage.';
COMMENT ON COLUMN logs.edge_api_minute_delta.auth_requests IS 'Of those, paths containing /auth.';
COMMENT ON COLUMN logs.edge_api_minute_delta.realtime_requests IS
  'Of those, paths containing /realtime.';

-- As migration 025's body, with the minute counts appended instead of upserted.
CREATE OR REPLACE FUNCTION logs.add_edge_rollups() RETURNS trigger
LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, pg_temp AS $fn$
BEGIN
  WITH r AS (
    SELECT n."timestamp" AS ts,
           (n.metadata -> 'request') ->> 'url' AS url,
           (n.metadata -> 'request') ->> 'path' AS path
      FROM new_rows n
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
  RETURN NULL;
END
$fn$;

-- Folds the delta into logs.edge_api_minute in one transaction (a reader's snapshot sees a delta
-- row either still in the delta or already in the rollup, never both or neither) and returns how
-- many delta rows it moved. Compactors take turns (the lock); inserts go on meanwhile, and a
-- delta row committed after the DELETE's snapshot waits for the next compaction. Any role may
-- call it: it changes no answer.
CREATE FUNCTION logs.compact_edge_rollups() RETURNS bigint
LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, pg_temp AS $fn$
DECLARE
  moved bigint;
BEGIN
  LOCK TABLE logs.edge_api_minute_delta IN SHARE UPDATE EXCLUSIVE MODE;
  WITH taken AS (
    DELETE FROM logs.edge_api_minute_delta RETURNING *
  ), folded AS (
    -- Sorted, so the rollup's rows are locked in one order (as by rebuilds and retention).
    INSERT INTO logs.edge_api_minute AS a
    SELECT "timestamp", url_prefix, sum(requests)::bigint, sum(rest_requests)::bigint,
           sum(storage_requests)::bigint, sum(auth_requests)::bigint,
           sum(realtime_requests)::bigint
      FROM taken GROUP BY 1, 2 ORDER BY 1, 2
    ON CONFLICT ("timestamp", url_prefix) DO UPDATE SET
      requests = a.requests + excluded.requests,
      rest_requests = a.rest_requests + excluded.rest_requests,
      storage_requests = a.storage_requests + excluded.storage_requests,
      auth_requests = a.auth_requests + excluded.auth_requests,
      realtime_requests = a.realtime_requests + excluded.realtime_requests
  )
  SELECT count(*) INTO moved FROM taken;
  RETURN moved;
END
$fn$;

COMMENT ON FUNCTION logs.compact_edge_rollups() IS
  'Moves logs.edge_api_minute_delta into logs.edge_api_minute (one transaction; answers do not '
  'change); returns the number of delta rows moved.';

-- Rebuilds both rollups from logs.edge (as in 025), emptying the delta too.
CREATE OR REPLACE FUNCTION logs.rebuild_edge_rollups() RETURNS void
LANGUAGE plpgsql AS $fn$
BEGIN
  LOCK TABLE logs.edge IN SHARE MODE;  -- no insert may slip between the delete and the rebuild
  LOCK TABLE logs.edge_api_minute_delta IN SHARE UPDATE EXCLUSIVE MODE;  -- nor a compaction
  DELETE FROM logs.edge_api_minute_delta;
  DELETE FROM logs.edge_api_minute;
  INSERT INTO logs.edge_api_minute
  SELECT date_trunc('minute', ts, 'UTC'), logs.url_prefix(url), count(*),
         count(*) FILTER (WHERE strpos(path, '/rest') > 0),
         count(*) FILTER (WHERE strpos(path, '/storage') > 0),
         count(*) FILTER (WHERE strpos(path, '/auth') > 0),
         count(*) FILTER (WHERE strpos(path, '/realtime') > 0)
    FROM (SELECT e."timestamp" AS ts, (e.metadata -> 'request') ->> 'url' AS url,
                 (e.metadata -> 'request') ->> 'path' AS path FROM logs.edge e) r
   WHERE url IS NOT NULL
   GROUP BY 1, 2;
  PERFORM logs.rebuild_edge_url_rest_trigrams();
END
$fn$;

-- Retention (as in 024), dropping the delta's rows of dropped days too.
CREATE OR REPLACE FUNCTION logs.drop_rollups_before(cutoff date) RETURNS bigint
LANGUAGE plpgsql AS $fn$
DECLARE
  removed bigint;
  more bigint;
  r record;
BEGIN
  -- No compaction may fold old delta rows into the rollup after its rows are deleted.
  LOCK TABLE logs.edge_api_minute_delta IN SHARE UPDATE EXCLUSIVE MODE;
  DELETE FROM logs.edge_api_minute_delta WHERE "timestamp" < cutoff::timestamp AT TIME ZONE 'UTC';
  DELETE FROM logs.edge_api_minute WHERE "timestamp" < cutoff::timestamp AT TIME ZONE 'UTC';
  GET DIAGNOSTICS removed = ROW_COUNT;
  DELETE FROM logs.edge_url_rest_trigrams WHERE day < cutoff::timestamp AT TIME ZONE 'UTC';
  FOR r IN SELECT name FROM logs.rollups ORDER BY name LOOP
    EXECUTE format('DELETE FROM logs.%I WHERE "timestamp" < $1', 'rollup_' || r.name)
      USING cutoff::timestamp AT TIME ZONE 'UTC';
    GET DIAGNOSTICS more = ROW_COUNT;
    removed := removed + more;
  END LOOP;
  RETURN removed;
END
$fn$;
