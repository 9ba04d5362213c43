-- The edge rollups of migration 020, cheaper per insert: logs.edge_url_rest_trigrams now holds
-- pg_trgm's trigrams of the URL rests (lower-cased, per alphanumeric word, computed in C by
-- show_trgm) instead of every raw 3-character substring (generate_series in SQL), and only the
-- inner ones (no padding blank) that are plain text (pg_trgm hashes a trigram holding a
-- multibyte character; the chart never asks for one). That suffices for the chart's proof: a
-- plain project found in a rest has each maximal alphanumeric run inside one alphanumeric word
-- of the rest, so every 3-character substring of a lower-cased run is an inner trigram of the
-- rest (see sql/usage.api-counts.sql). The old rows (raw, case-sensitive substrings) mean
-- something else, so the table is rebuilt below.

-- pg_trgm is a trusted extension: a role with CREATE on the database may add it. It goes into
-- logs unless the database has it already (wherever it is).
CREATE EXTENSION IF NOT EXISTS pg_trgm WITH SCHEMA logs;

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
COMMENT ON COLUMN logs.edge_url_rest_trigrams.trigram IS
  'Three consecutive characters of one alphanumeric word (lower-cased, as pg_trgm splits words) '
  'of a URL after its prefix.';
COMMENT ON TABLE logs.edge_url_rest_trigrams IS
  'The inner pg_trgm trigrams of the request URLs after their prefix, per UTC day: lets '
  'usage.api-counts prove that a plain project parameter only ever matches inside a prefix.';

-- The trigram rows of a set of (day, rest) pairs: the rests of a day are joined with blanks
-- (a word never spans two rests) and given to show_trgm at once, in pieces of about 50 MB
-- (show_trgm refuses a text of more than about 240 MB).
CREATE OR REPLACE FUNCTION logs.add_edge_rollups() RETURNS trigger
LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, pg_temp AS $fn$
BEGIN
  -- The same field reads as the translated chart query (t.metadata -> 'request' ->> 'url').
  -- An area is a literal: path ~ '/rest' holds exactly when strpos(path, '/rest') > 0 (both are
  -- null for a null path), and strpos costs less than the regex.
  WITH r AS (
    SELECT n."timestamp" AS ts,
           (n.metadata -> 'request') ->> 'url' AS url,
           (n.metadata -> 'request') ->> 'path' AS path
      FROM new_rows n
  ), s AS (
    SELECT ts, url, path, logs.url_prefix(url) AS prefix FROM r WHERE url IS NOT NULL
  ), minute AS (
    SELECT date_trunc('minute', ts, 'UTC') AS m, prefix,
           count(*) AS requests,
           count(*) FILTER (WHERE strpos(path, '/rest') > 0) AS rest_requests,
           count(*) FILTER (WHERE strpos(path, '/storage') > 0) AS storage_requests,
           count(*) FILTER (WHERE strpos(path, '/auth') > 0) AS auth_requests,
           count(*) FILTER (WHERE strpos(path, '/realtime') > 0) AS realtime_requests
      FROM s GROUP BY 1, 2
  ), upsert AS (
    -- Sorted, so concurrent writers lock rollup rows in the same order.
    INSERT INTO logs.edge_api_minute AS a
    SELECT * FROM minute ORDER BY m, prefix
    ON CONFLICT ("timestamp", url_prefix) DO UPDATE SET
      requests = a.requests + excluded.requests,
      rest_requests = a.rest_requests + excluded.rest_requests,
      storage_requests = a.storage_requests + excluded.storage_requests,
      auth_requests = a.auth_requests + excluded.auth_requests,
      realtime_requests = a.realtime_requests + excluded.realtime_requests
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
  -- Sorted, as above. No NOT EXISTS pre-check of stored trigrams: PL/pgSQL caches its plan,
  -- and one made while the table was small (a fresh database) seq-scans it ever after; with it,
  -- 100-event HTTP batches took 4x longer (bench/ingest/run.sh, p50 42 ms vs 9 ms).
  INSERT INTO logs.edge_url_rest_trigrams (day, trigram)
  SELECT f.day, f.trigram FROM found f
   ORDER BY 2, 1
  ON CONFLICT DO NOTHING;
  RETURN NULL;
END
$fn$;

-- Rebuilds the trigram rollup from logs.edge (the backfill below; also after hand edits).
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

-- Rebuilds both rollups from logs.edge (as in 020, with the trigrams above).
CREATE OR REPLACE FUNCTION logs.rebuild_edge_rollups() RETURNS void
LANGUAGE plpgsql AS $fn$
BEGIN
  LOCK TABLE logs.edge IN SHARE MODE;  -- no insert may slip between the delete and the rebuild
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

SELECT logs.rebuild_edge_url_rest_trigrams();
