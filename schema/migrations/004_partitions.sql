-- Daily partitions, shared by migrate, load, HTTP ingest and retention. The partition of day D
-- for source S is logs.S_pYYYYMMDD and holds [D 00:00 UTC, D+1 00:00 UTC). On a sharded
-- coordinator (a `shards:` config) a day partition may be a postgres_fdw foreign table, or a
-- table partitioned by project hash (`by: project`): a log table is a partitioned table that is
-- no partition.
--
-- Creates one day partition; false when it exists (however it got there: concurrent loaders race
-- to create the same day). Runs with its owner's rights, so the ingest role may call it. A
-- sharded coordinator keeps the (id, timestamp) unique index on each local partition instead of
-- the parent (PostgreSQL refuses a foreign partition under a unique index of the parent).
CREATE FUNCTION logs.ensure_partition(source text, day date) RETURNS boolean
LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, pg_temp AS $$
DECLARE
  partition_name text := source || '_p' || to_char(day, 'YYYYMMDD');
BEGIN
  IF NOT EXISTS (SELECT 1 FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
                 WHERE n.nspname = 'logs' AND c.relname = source AND c.relkind = 'p'
                   AND NOT c.relispartition) THEN
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
    IF to_regclass(format('logs.%I', source || '_id_ts')) IS NULL THEN
      EXECUTE format('CREATE UNIQUE INDEX %I ON logs.%I (id, "timestamp")',
                     partition_name || '_id_ts', partition_name);
    END IF;
  EXCEPTION
    WHEN duplicate_table OR unique_violation THEN
      RETURN false;
  END;
  RETURN true;
END
$$;
REVOKE EXECUTE ON FUNCTION logs.ensure_partition(text, date) FROM PUBLIC;

-- Creates the partitions of every log table for the days first..last; returns the new names.
CREATE FUNCTION logs.ensure_partitions(first date, last date) RETURNS SETOF text
LANGUAGE plpgsql AS $$
DECLARE
  source text;
  day date;
BEGIN
  FOR source IN SELECT c.relname FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
                WHERE n.nspname = 'logs' AND c.relkind = 'p' AND NOT c.relispartition
                ORDER BY c.relname LOOP
    day := first;
    WHILE day <= last LOOP
      IF logs.ensure_partition(source, day) THEN
        RETURN NEXT source || '_p' || to_char(day, 'YYYYMMDD');
      END IF;
      day := day + 1;
    END LOOP;
  END LOOP;
END
$$;
REVOKE EXECUTE ON FUNCTION logs.ensure_partitions(date, date) FROM PUBLIC;

-- Drops every daily partition (local or foreign) whose whole day lies before cutoff; returns
-- the dropped names.
CREATE FUNCTION logs.drop_partitions_before(cutoff date) RETURNS SETOF text
LANGUAGE plpgsql AS $$
DECLARE
  part record;
BEGIN
  FOR part IN
    SELECT child.relname AS name, child.relkind AS kind
    FROM pg_inherits i
    JOIN pg_class child ON child.oid = i.inhrelid
    JOIN pg_class parent ON parent.oid = i.inhparent
    JOIN pg_namespace n ON n.oid = parent.relnamespace
    WHERE n.nspname = 'logs' AND parent.relkind = 'p'
      AND child.relname ~ ('^' || parent.relname || '_p[0-9]{8}$')
      AND to_date(right(child.relname, 8), 'YYYYMMDD') < cutoff
    ORDER BY child.relname
  LOOP
    IF part.kind = 'f' THEN
      EXECUTE format('DROP FOREIGN TABLE logs.%I', part.name);
    ELSE
      EXECUTE format('DROP TABLE logs.%I', part.name);
    END IF;
    RETURN NEXT part.name;
  END LOOP;
END
$$;
REVOKE EXECUTE ON FUNCTION logs.drop_partitions_before(date) FROM PUBLIC;
