-- Rollups of logs.edge behind the usage.api-counts chart, maintained by a statement trigger in
-- the transaction that inserts the events (every writer: lqe load, HTTP ingest, psql).
--
-- logs.edge_api_minute: requests per minute and URL prefix (scheme://host), with the counts per
-- API area the chart shows. It counts exactly the rows the raw chart query counts: those whose
-- metadata.request.url is not null; an area counts when metadata.request.path contains it.
--
-- logs.edge_url_rest_trigrams: every 3-character substring of the rest of those URLs (path and
-- query, after the prefix), per UTC day. It proves, for a project parameter made of letters,
-- digits, '_' and '-' only, that no URL contains it outside its prefix: if one of the
-- parameter's substrings of 3 never occurs in a rest, the parameter does not either. Only then
-- does the chart read the rollup (see sql/usage.api-counts.sql); otherwise it reads logs.edge.
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
COMMENT ON COLUMN logs.edge_url_rest_trigrams.day IS 'Start of the UTC day.';
COMMENT ON COLUMN logs.edge_url_rest_trigrams.trigram IS
  'Three consecutive characters of a URL after its prefix.';
COMMENT ON COLUMN logs.edge_api_minute.requests IS 'Events with a request URL in this minute.';
COMMENT ON TABLE logs.edge_url_rest_trigrams IS
  'Each 3-character substring of the request URLs after their prefix, per UTC day: lets '
  'usage.api-counts prove that a plain project parameter only ever matches inside a prefix.';

-- The URL prefix: everything before the first '/', '?' or '#' that follows the '//' of the
-- authority. A character outside [A-Za-z0-9_-] always follows it, so a match of a parameter made
-- of those characters lies wholly in the prefix or wholly in the rest.
CREATE FUNCTION logs.url_prefix(url text) RETURNS text
LANGUAGE sql IMMUTABLE PARALLEL SAFE
RETURN coalesce(substring(url FROM '^[^/?#]*//[^/?#]*'), '');

CREATE FUNCTION logs.add_edge_rollups() RETURNS trigger
LANGUAGE plpgsql AS $fn$
BEGIN
  -- The same field reads as the translated chart query (t.metadata -> 'request' ->> 'url').
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
           count(*) FILTER (WHERE path ~ '/rest') AS rest_requests,
           count(*) FILTER (WHERE path ~ '/storage') AS storage_requests,
           count(*) FILTER (WHERE path ~ '/auth') AS auth_requests,
           count(*) FILTER (WHERE path ~ '/realtime') AS realtime_requests
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
  )
  INSERT INTO logs.edge_url_rest_trigrams (day, trigram)
  SELECT DISTINCT day, substr(rest, i, 3)
    FROM rests, generate_series(1, length(rest) - 2) AS i
   ORDER BY 2, 1
  ON CONFLICT DO NOTHING;
  RETURN NULL;
END
$fn$;

CREATE TRIGGER edge_rollups AFTER INSERT ON logs.edge
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION logs.add_edge_rollups();

-- Rebuilds both rollups from logs.edge (the backfill; also after hand edits of logs.edge).
CREATE FUNCTION logs.rebuild_edge_rollups() RETURNS void
LANGUAGE plpgsql AS $fn$
BEGIN
  LOCK TABLE logs.edge IN SHARE MODE;  -- no insert may slip between the delete and the rebuild
  DELETE FROM logs.edge_api_minute;
  DELETE FROM logs.edge_url_rest_trigrams;
  INSERT INTO logs.edge_api_minute
  SELECT date_trunc('minute', ts, 'UTC'), logs.url_prefix(url), count(*),
         count(*) FILTER (WHERE path ~ '/rest'), count(*) FILTER (WHERE path ~ '/storage'),
         count(*) FILTER (WHERE path ~ '/auth'), count(*) FILTER (WHERE path ~ '/realtime')
    FROM (SELECT e."timestamp" AS ts, (e.metadata -> 'request') ->> 'url' AS url,
                 (e.metadata -> 'request') ->> 'path' AS path FROM logs.edge e) r
   WHERE url IS NOT NULL
   GROUP BY 1, 2;
  INSERT INTO logs.edge_url_rest_trigrams (day, trigram)
  SELECT DISTINCT day, substr(rest, i, 3)
    FROM (SELECT DISTINCT date_trunc('day', e."timestamp", 'UTC') AS day,
                 substr(u.url, length(logs.url_prefix(u.url)) + 1) AS rest
            FROM logs.edge e, LATERAL (SELECT (e.metadata -> 'request') ->> 'url' AS url) u
           WHERE u.url IS NOT NULL) x,
         generate_series(1, length(rest) - 2) AS i;
END
$fn$;

-- Retention: rollup rows of days whose partitions are dropped (lqe retention).
CREATE FUNCTION logs.drop_rollups_before(cutoff date) RETURNS bigint
LANGUAGE plpgsql AS $fn$
DECLARE
  removed bigint;
BEGIN
  DELETE FROM logs.edge_api_minute WHERE "timestamp" < cutoff::timestamp AT TIME ZONE 'UTC';
  GET DIAGNOSTICS removed = ROW_COUNT;
  DELETE FROM logs.edge_url_rest_trigrams WHERE day < cutoff::timestamp AT TIME ZONE 'UTC';
  RETURN removed;
END
$fn$;

SELECT logs.rebuild_edge_rollups();

-- The chart's partial first minute is read from logs.edge by time alone.
CREATE INDEX edge_timestamp ON logs.edge ("timestamp");
