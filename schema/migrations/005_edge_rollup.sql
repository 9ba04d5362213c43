-- The edge rollups behind the usage.api-counts chart, kept in the transaction that inserts the
-- events (every writer: lqe load, HTTP ingest, psql).
--
-- logs.edge_api_minute: requests per minute and URL prefix (scheme://host), with the counts per
-- API area the chart shows. It counts exactly the rows the raw chart query counts: those whose
-- metadata.request.url is not null; an area counts when metadata.request.path contains it.
-- Inserts append their counts to logs.edge_api_minute_delta (no index, no conflict check: an
-- upsert per (minute, prefix) cost most of the trigger); logs.compact_edge_rollups() folds the
-- delta into the rollup (the gateway calls it in the background, lqe load when it finishes) and
-- the chart sums both tables in one statement.
--
-- logs.edge_url_rest_trigrams: pg_trgm's inner trigrams of the rest of those URLs (path and
-- query, after the prefix; lower-cased, per alphanumeric word), per UTC day. It proves, for a
-- project parameter made of letters, digits, '_' and '-' only, that no URL contains it outside
-- its prefix: a plain project found in a rest has each maximal alphanumeric run inside one word
-- of the rest, so every 3-character substring of the lower-cased run is an inner trigram of the
-- rest. Only then does the chart read the rollup (see sql/usage.api-counts.sql); otherwise it
-- reads logs.edge.

-- pg_trgm is a trusted extension: a role with CREATE on the database may add it. It goes into
-- logs unless the database has it already (wherever it is).
CREATE EXTENSION IF NOT EXISTS pg_trgm WITH SCHEMA logs;

CREATE TABLE logs.edge_api_minute (
  "timestamp" timestamptz NOT NULL,
  url_prefix text NOT NULL,
  requests bigint NOT NULL,
  rest_requests bigint NOT NULL,
  storage_requests bigint NOT NULL,
  auth_requests bigint NOT NULL,
  realtime_requests bigint NOT NULL,
  PRIMARY KEY ("timestamp", url_prefix)
);

CREATE TABLE logs.edge_url_rest_trigrams (
  day timestamptz NOT NULL,
  trigram text NOT NULL,
  PRIMARY KEY (trigram, day)
);

COMMENT ON TABLE logs.edge_api_minute IS
  'Rollup of logs.edge: requests per UTC minute and URL prefix (scheme://host of '
  'metadata.request.url), with per-area counts (metadata.request.path contains /rest, /storage, '
  '/auth, /realtime). Maintained in the inserting transaction; read by usage.api-counts.';
COMMENT ON COLUMN logs.edge_api_minute."timestamp" IS 'Start of the UTC minute.';
COMMENT ON COLUMN logs.edge_api_minute.url_prefix IS
  'The URL up to its path, query or fragment (scheme://host[:port]); empty when it has no //.';
COMMENT ON COLUMN logs.edge_api_minute.rest_requests IS 'Of those, paths containing /rest.';
COMMENT ON COLUMN logs.edge_api_minute.storage_requests IS 'Of those, paths containing /storage.';
COMMENT ON COLUMN logs.edge_api_minute.auth_requests IS 'Of those, paths containing /auth.';
COMMENT ON COLUMN logs.edge_api_minute.realtime_requests IS
  'Of those, paths containing /realtime.';
COMMENT ON COLUMN logs.edge_api_minute.requests IS 'Events with a request URL in this minute.';
COMMENT ON COLUMN logs.edge_url_rest_trigrams.day IS 'Start of the UTC day.';
COMMENT ON COLUMN logs.edge_url_rest_trigrams.trigram IS
  'Three consecutive characters of one alphanumeric word (lower-cased, as pg_trgm splits words) '
  'of a URL after its prefix.';
COMMENT ON TABLE logs.edge_url_rest_trigrams IS
  'The inner pg_trgm trigrams of the request URLs after their prefix, per UTC day: lets '
  'usage.api-counts prove that a plain project parameter only ever matches inside a prefix.';

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

-- The URL prefix: everything before the first '/', '?' or '#' that follows the '//' of the
-- authority. A character outside [A-Za-z0-9_-] always follows it, so a match of a parameter made
-- of those characters lies wholly in the prefix or wholly in the rest.
CREATE FUNCTION logs.url_prefix(url text) RETURNS text
LANGUAGE sql IMMUTABLE PARALLEL SAFE
RETURN coalesce(substring(url FROM '^[^/?#]*//[^/?#]*'), '');

-- The inner, plain trigrams of a text's words, as pg_trgm forms them. The body is bound to
-- pg_trgm's show_trgm when created (a SQL-standard body), so it needs no search_path.
DO $do$
BEGIN
  EXECUTE format(
    $f$CREATE FUNCTION logs.url_rest_trigrams(rests text) RETURNS text[]
       LANGUAGE sql IMMUTABLE PARALLEL SAFE
       RETURN ARRAY(SELECT t FROM unnest(%I.show_trgm(rests)) AS t
                     WHERE octet_length(t) = 3 AND strpos(t, ' ') = 0)$f$,
    (SELECT n.nspname FROM pg_extension e JOIN pg_namespace n ON n.oid = e.extnamespace
      WHERE e.extname = 'pg_trgm'));
END
$do$;

COMMENT ON FUNCTION logs.url_rest_trigrams(text) IS
  'The trigrams pg_trgm forms of the words of a text (lower-cased alphanumeric runs) that hold '
  'no padding blank and no hashed multibyte character.';

-- usage.api-counts lower-cases @project with the database's lower() and looks for its trigrams in
-- logs.edge_url_rest_trigrams, which pg_trgm lower-cased with its own routine (the database's
-- LC_CTYPE; lower() follows the default collation, which may be ICU). The proof above
-- holds only if both map every ASCII letter and digit alike (an ASCII one mapped to a non-ASCII
-- one by both is fine: the chart then reads the raw rows). They agree in every ordinary locale;
-- a database where they do not (ICU root collation over a Turkish LC_CTYPE) is refused here
-- rather than given wrong charts.
DO $do$
DECLARE
  word constant text := 'abcdefghijklmnopqrstuvwxyz0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ';
  expected text[];
  stored text[];
BEGIN
  SELECT array_agg(DISTINCT t ORDER BY t) INTO expected
    FROM (SELECT substr(lower(word), i, 3) AS t FROM generate_series(1, length(word) - 2) AS i) s
   WHERE octet_length(t) = 3;
  SELECT array_agg(DISTINCT t ORDER BY t) INTO stored
    FROM unnest(logs.url_rest_trigrams(word)) AS t;
  IF stored IS DISTINCT FROM expected THEN
    RAISE EXCEPTION 'pg_trgm lower-cases ASCII letters unlike lower() in this database (LC_CTYPE %), '
                    'so usage.api-counts could not prove a project absent from its trigrams',
                    current_setting('lc_ctype');
  END IF;
END
$do$;

-- Counts rows given as parallel arrays (timestamp, request URL, request path) into the minute
-- delta and the trigram rollup: the trigger's work, with its reads of metadata -> 'request'
-- left to the callers. The rests of a day are joined with blanks (a word never spans two rests)
-- and given to show_trgm at once, in pieces of about 50 MB (show_trgm refuses a text of more
-- than about 240 MB). Rows with a NULL URL count nothing.
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

-- The statement trigger of logs.edge. lqe's writers hand the rollups their inputs instead of
-- making the trigger dig them out (they hold request.url and request.path already while they
-- form the events; re-reading every row's metadata and spilling the transition table cost a
-- fifth of a COPY's time):
--   1. the writer sets lqe.edge_rollup_rows to the number of rows its COPY inserts
--      (transaction-local);
--   2. it COPYs: the trigger sees that many rows in new_rows, counts nothing and marks the
--      setting 'counted' (it does its usual work whenever the number differs, or the statement
--      is not on logs.edge itself, e.g. the feed of rows routed to a foreign partition);
--   3. the writer calls logs.add_written_edge_rollup_counts with the minute counts and trigrams
--      it made of those rows (exactly what the trigger would have made), which adds them only
--      when the trigger marked the setting 'counted' in this transaction (so nothing is counted
--      twice, nor skipped).
-- Every other writer (plain SQL, psql \copy) sets nothing and keeps the trigger's own counting.
CREATE FUNCTION logs.add_edge_rollups() RETURNS trigger
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

CREATE TRIGGER edge_rollups AFTER INSERT ON logs.edge
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION logs.add_edge_rollups();

-- Step 3 of the trigger's protocol, with the counting done by the writer: the delta rows (one
-- per minute and URL prefix, as add_edge_rollup_rows groups them) and the distinct (day, trigram)
-- pairs of the rows.
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

-- Rebuilds the trigram rollup from logs.edge (also after hand edits of logs.edge).
CREATE FUNCTION logs.rebuild_edge_url_rest_trigrams() RETURNS void
LANGUAGE plpgsql AS $fn$
BEGIN
  LOCK TABLE logs.edge IN SHARE MODE;  -- no insert may slip between the delete and the rebuild
  DELETE FROM logs.edge_url_rest_trigrams;
  WITH rests AS (
    SELECT DISTINCT date_trunc('day', e."timestamp", 'UTC') AS day,
           substr(u.url, length(logs.url_prefix(u.url)) + 1) AS rest
      FROM logs.edge e, LATERAL (SELECT (e.metadata -> 'request') ->> 'url' AS url) u
     WHERE u.url IS NOT NULL
  ), pieces AS (
    SELECT day, string_agg(rest, ' ') AS rests
      FROM (SELECT day, rest,
                   sum(octet_length(rest)) OVER (ROWS UNBOUNDED PRECEDING) / 50000000 AS piece
              FROM rests) p
     GROUP BY day, piece
  )
  INSERT INTO logs.edge_url_rest_trigrams (day, trigram)
  SELECT DISTINCT p.day, t.trigram
    FROM pieces p, unnest(logs.url_rest_trigrams(p.rests)) AS t(trigram);
END
$fn$;

-- Rebuilds both rollups from logs.edge (the backfill; also after hand edits of logs.edge),
-- emptying the delta too.
CREATE FUNCTION logs.rebuild_edge_rollups() RETURNS void
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
