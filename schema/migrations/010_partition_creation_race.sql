-- Two loaders that need the same new day partition both passed the existence check: the second
-- waited on the advisory lock, its catalogue view was still the one from before the first
-- committed, and CREATE TABLE failed with "already exists", losing the batch. Creation now
-- treats an existing partition (however it got there) as success.
CREATE OR REPLACE FUNCTION logs.ensure_partition(source text, day date) RETURNS boolean
LANGUAGE plpgsql AS $$
DECLARE
  partition_name text := source || '_p' || to_char(day, 'YYYYMMDD');
BEGIN
  IF NOT EXISTS (SELECT 1 FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
                 WHERE n.nspname = 'logs' AND c.relname = source AND c.relkind = 'p') THEN
    RAISE EXCEPTION 'unknown log source "%"', source;
  END IF;
  IF to_regclass(format('logs.%I', partition_name)) IS NOT NULL THEN
    RETURN false;
  END IF;
  PERFORM pg_advisory_xact_lock(hashtext('lqe.ensure_partition'));
  BEGIN
    EXECUTE format('CREATE TABLE logs.%I PARTITION OF logs.%I FOR VALUES FROM (%L) TO (%L)',
                   partition_name, source, day::text || ' 00:00:00+00',
                   (day + 1)::text || ' 00:00:00+00');
  EXCEPTION
    -- duplicate_table: another session created it; unique_violation: it did so concurrently.
    WHEN duplicate_table OR unique_violation THEN
      RETURN false;
  END;
  RETURN true;
END
$$;
REVOKE EXECUTE ON FUNCTION logs.ensure_partition(text, date) FROM PUBLIC;
