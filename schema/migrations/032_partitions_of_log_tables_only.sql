-- Sharding by project (lqe migrate --config with shards.by: project) turns a cold day partition
-- into a table partitioned by hash (logs.edge_p20261101), so relkind 'p' no longer means "a log
-- table". ensure_partitions took such a day for a log table and tried to give it day partitions
-- ("invalid bound specification for a hash partition"): every lqe migrate and lqe retention
-- after the first move failed. Log tables are the partitioned tables that are no partition.
-- ensure_partition also gets back the owner's rights (SECURITY DEFINER, migration 016) that
-- migration 030's CREATE OR REPLACE dropped: the ingest role could not create a day partition.
CREATE OR REPLACE FUNCTION logs.ensure_partitions(first date, last date) RETURNS SETOF text
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

CREATE OR REPLACE FUNCTION logs.ensure_partition(source text, day date) RETURNS boolean
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
