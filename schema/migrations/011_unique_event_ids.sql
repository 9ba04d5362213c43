-- Idempotent loads under concurrency: an event is identified by (id, timestamp), enforced by a
-- unique index on every log table (a unique index on a partitioned table must contain the
-- partition key). It replaces the plain id index: lookups by id alone use its first column.
-- Copies left by earlier concurrent loads are removed first, keeping one row of each.
DO $$
DECLARE
  source text;
  removed bigint;
BEGIN
  FOREACH source IN ARRAY ARRAY['edge', 'postgres', 'function_edge', 'function_events', 'auth',
                                'realtime', 'storage', 'restapi', 'pooler'] LOOP
    EXECUTE format($sql$
      DELETE FROM logs.%1$I a USING logs.%1$I b
      WHERE a.tableoid = b.tableoid AND a.id = b.id AND a."timestamp" = b."timestamp"
        AND a.ctid > b.ctid$sql$, source);
    GET DIAGNOSTICS removed = ROW_COUNT;
    IF removed > 0 THEN
      RAISE NOTICE 'logs.%: removed % duplicate events', source, removed;
    END IF;
    EXECUTE format('CREATE UNIQUE INDEX %1$I ON logs.%2$I (id, "timestamp")',
                   source || '_id_ts', source);
    EXECUTE format('DROP INDEX logs.%I', source || '_id');
  END LOOP;
END
$$;
