-- Declared rollups (the `rollups:` section of a gateway config): `lqe migrate --config` creates
-- logs.rollup_<name>, its statement trigger on the source table and its backfill, and records
-- them here. The checksum covers the generated SQL, so a changed declaration (or a catalogue type
-- that changed what a field reads as) is rebuilt on the next run; an unchanged one is left alone.
CREATE TABLE logs.rollups (
  name text PRIMARY KEY,
  source text NOT NULL,
  bucket text NOT NULL,
  checksum text NOT NULL,
  definition text NOT NULL,
  backfill_sql text NOT NULL,
  built_at timestamptz NOT NULL DEFAULT now()
);

COMMENT ON TABLE logs.rollups IS
  'Declared rollups (lqe migrate --config): each is the table logs.rollup_<name>, maintained by '
  'the trigger logs.rollup_<name>_add on logs.<source> in the inserting transaction.';
COMMENT ON COLUMN logs.rollups.name IS 'The declared name; the table is logs.rollup_<name>.';
COMMENT ON COLUMN logs.rollups.source IS 'The log table it aggregates.';
COMMENT ON COLUMN logs.rollups.bucket IS 'second, minute, hour or day (UTC).';
COMMENT ON COLUMN logs.rollups.checksum IS 'SHA-256 of definition; a different one is rebuilt.';
COMMENT ON COLUMN logs.rollups.definition IS 'The generated table, trigger and backfill SQL.';
COMMENT ON COLUMN logs.rollups.backfill_sql IS 'Inserts the aggregate of every stored row.';
COMMENT ON COLUMN logs.rollups.built_at IS 'When it was created or last rebuilt and backfilled.';

-- Rebuilds one declared rollup from its source table (after hand edits or deletes of the source,
-- which the insert trigger does not follow).
CREATE FUNCTION logs.rebuild_rollup(rollup_name text) RETURNS void
LANGUAGE plpgsql AS $fn$
DECLARE
  r logs.rollups;
BEGIN
  SELECT * INTO r FROM logs.rollups WHERE name = rollup_name;
  IF NOT FOUND THEN
    RAISE EXCEPTION 'no declared rollup named %', rollup_name;
  END IF;
  EXECUTE format('LOCK TABLE logs.%I IN SHARE MODE', r.source);
  EXECUTE format('DELETE FROM logs.%I', 'rollup_' || r.name);
  EXECUTE r.backfill_sql;
END
$fn$;
REVOKE EXECUTE ON FUNCTION logs.rebuild_rollup(text) FROM PUBLIC;

-- Retention (lqe retention): the rows of the days whose partitions are dropped, in the edge
-- rollups (the delta included) and in every declared rollup. Buckets are at most a UTC day, so
-- a bucket before the cutoff holds only events of dropped days.
CREATE FUNCTION logs.drop_rollups_before(cutoff date) RETURNS bigint
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
