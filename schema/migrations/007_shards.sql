-- Sharded storage (lqe migrate/retention with a `shards:` config): a day partition of a log table
-- may be a postgres_fdw foreign table whose rows live on a shard node (see logs.ensure_partition).
--
-- Inserts routed to a foreign partition (an event for a cold day on a sharded coordinator) on a
-- log table whose rollups are statement triggers with transition tables (logs.edge's
-- edge_rollups, every declared rollup). PostgreSQL 15 cannot collect transition tuples for a
-- row routed to a foreign partition and refuses the whole statement. So every foreign partition
-- gets a BEFORE INSERT row trigger that takes the row over before it is routed:
--   1. it inserts the row into the foreign table itself (an insert naming the foreign table
--      collects no transition tuples; the trigger lets that nested insert through), then
--   2. it passes the row through logs.<source>_routed, a local table that carries the same
--      transition-table triggers as logs.<source>, so each rollup adds the row exactly as it
--      adds a hot row, in the same transaction, and deletes it again, and
--   3. it returns NULL, so PostgreSQL does not insert the row a second time.
-- The rollup functions are shared with logs.<source>, not copied, so a new body (CREATE OR
-- REPLACE FUNCTION) applies to both. Every writer gets this: lqe load and HTTP ingest (COPY)
-- and plain SQL. A statement's row count (INSERT 0 n, COPY n) leaves such rows out.

-- The row trigger of every foreign partition. TG_ARGV[0] is the log source.
CREATE FUNCTION logs.insert_routed_row() RETURNS trigger
LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, pg_temp AS $fn$
DECLARE
  feed regclass := format('logs.%I', TG_ARGV[0] || '_routed')::regclass;
  fed tid;
BEGIN
  -- The nested insert below (this trigger fired again, one level deeper) goes to the node.
  IF pg_trigger_depth() > 1 THEN
    RETURN NEW;
  END IF;
  EXECUTE format('INSERT INTO %s SELECT ($1).*', TG_RELID::regclass) USING NEW;
  -- By column name: the feed holds the columns the rollups read, whatever columns the
  -- partition gained later (promoted columns).
  EXECUTE format('INSERT INTO %s SELECT * FROM jsonb_populate_record(NULL::%s, $1) '
                 'RETURNING ctid', feed, feed) INTO fed USING to_jsonb(NEW);
  EXECUTE format('DELETE FROM %s WHERE ctid = $1', feed) USING fed;
  RETURN NULL;
END
$fn$;
REVOKE EXECUTE ON FUNCTION logs.insert_routed_row() FROM PUBLIC;

-- Makes logs.<source>'s foreign partitions (at any depth: by project they sit under a day's hash
-- partitions) insertable with its rollups exact. Each routed row costs a round trip of its own
-- (postgres_fdw does not batch inserts into a table with row triggers), so this is done only
-- while the source has AFTER INSERT transition-table triggers (a rollup): then it creates
-- logs.<source>_routed, mirrors onto it those triggers (same names and functions; mirrors of
-- removed triggers are dropped) and gives every foreign partition the row trigger above;
-- otherwise it drops the row triggers and PostgreSQL routes the rows natively, in batches.
-- Idempotent; lqe migrate calls it whenever it moves days or creates or drops a rollup, in the
-- same transaction.
CREATE FUNCTION logs.prepare_routed_inserts(source text) RETURNS void
LANGUAGE plpgsql AS $fn$
DECLARE
  parent regclass := format('logs.%I', source)::regclass;
  feed_name text := source || '_routed';
  feed regclass;
  needed boolean;
  t record;
BEGIN
  -- tgtype: 4 = INSERT; statement-level (bit 1 clear), AFTER (bit 2 clear).
  needed := EXISTS (SELECT 1 FROM pg_trigger s
                     WHERE s.tgrelid = parent AND NOT s.tgisinternal AND s.tgnewtable IS NOT NULL
                       AND s.tgtype & 4 <> 0 AND s.tgtype & 1 = 0 AND s.tgtype & 2 = 0)
            AND EXISTS (SELECT 1 FROM pg_partition_tree(parent) p
                          JOIN pg_class c ON c.oid = p.relid WHERE c.relkind = 'f');
  feed := to_regclass(format('logs.%I', feed_name));
  IF feed IS NULL AND needed THEN
    EXECUTE format('CREATE TABLE logs.%I (LIKE logs.%I)', feed_name, source);
    EXECUTE format('COMMENT ON TABLE logs.%I IS %L', feed_name,
                   'Always empty: rows routed to a foreign partition of logs.' || source ||
                   ' pass through it so its rollup triggers count them (migration 031).');
    feed := format('logs.%I', feed_name)::regclass;
  END IF;
  IF feed IS NOT NULL THEN
    FOR t IN
      SELECT m.tgname FROM pg_trigger m
       WHERE m.tgrelid = feed AND NOT m.tgisinternal
         AND NOT EXISTS (SELECT 1 FROM pg_trigger s
                          WHERE s.tgrelid = parent AND s.tgname = m.tgname
                            AND s.tgfoid = m.tgfoid)
    LOOP
      EXECUTE format('DROP TRIGGER %I ON logs.%I', t.tgname, feed_name);
    END LOOP;
    FOR t IN
      SELECT s.tgname, s.tgfoid::regproc AS fn, s.tgnewtable FROM pg_trigger s
       WHERE s.tgrelid = parent AND NOT s.tgisinternal AND s.tgnewtable IS NOT NULL
         AND s.tgtype & 4 <> 0 AND s.tgtype & 1 = 0 AND s.tgtype & 2 = 0
         AND NOT EXISTS (SELECT 1 FROM pg_trigger m WHERE m.tgrelid = feed AND m.tgname = s.tgname)
    LOOP
      EXECUTE format('CREATE TRIGGER %I AFTER INSERT ON logs.%I REFERENCING NEW TABLE AS %I '
                     'FOR EACH STATEMENT EXECUTE FUNCTION %s()', t.tgname, feed_name,
                     t.tgnewtable, t.fn);
    END LOOP;
  END IF;
  FOR t IN
    SELECT p.relid, EXISTS (SELECT 1 FROM pg_trigger g WHERE g.tgrelid = p.relid
                              AND g.tgname = 'insert_routed_row') AS has
      FROM pg_partition_tree(parent) p JOIN pg_class c ON c.oid = p.relid
     WHERE c.relkind = 'f'
  LOOP
    IF needed AND NOT t.has THEN
      EXECUTE format('CREATE TRIGGER insert_routed_row BEFORE INSERT ON %s FOR EACH ROW '
                     'EXECUTE FUNCTION logs.insert_routed_row(%L)', t.relid::regclass, source);
    ELSIF t.has AND NOT needed THEN
      EXECUTE format('DROP TRIGGER insert_routed_row ON %s', t.relid::regclass);
    END IF;
  END LOOP;
END
$fn$;
REVOKE EXECUTE ON FUNCTION logs.prepare_routed_inserts(text) FROM PUBLIC;

-- logs.count_by_bucket: a count chart counted on the shard nodes. PostgreSQL 15's postgres_fdw
-- never pushes a partial aggregate, so `count(*) ... GROUP BY bucket` over a partitioned log
-- table ships every matching row to the coordinator. An aggregate over one foreign table is
-- shipped whole ("Relations: Aggregate on"), so this counts each leaf partition in the time range
-- as its own UNION ALL branch (the nodes count at once, async) and sums the branches.
-- `date_bin` with a UTC-midnight origin equals `date_trunc(unit, ts, 'UTC')` for one second,
-- minute, hour or day, and is immutable, so postgres_fdw ships it (date_trunc with a text unit it
-- does not). Rows counted: project = `project`, after < timestamp <= upto (logs.all's bounds).
-- Leaves are pruned by their range bound, and on a day split by project hash (`by: project`) to
-- the project's remainder. SECURITY INVOKER: the caller needs SELECT on the leaves, which the
-- gateway role has (GRANT SELECT ON ALL TABLES IN SCHEMA logs and default privileges).
-- logs.count_by_bucket_sql gives the statement (parameters $1 bucket, $2 project, $3 after, $4
-- upto; NULL when no leaf is in range) so its plan can be inspected with EXPLAIN.
CREATE FUNCTION logs.count_by_bucket_sql(source text, project text, after timestamptz,
                                         upto timestamptz)
RETURNS text
LANGUAGE plpgsql STABLE SET search_path = pg_catalog, pg_temp AS $fn$
DECLARE
  parent oid;
  day record;
  leaf record;
  range_bound text[];
  hash_bound text[];
  by_project boolean;
  branches text[] := '{}';
BEGIN
  SELECT c.oid INTO parent
  FROM pg_class c JOIN pg_namespace s ON s.oid = c.relnamespace
  WHERE s.nspname = 'logs' AND c.relname = source AND c.relkind = 'p' AND NOT c.relispartition;
  IF parent IS NULL THEN
    RAISE EXCEPTION 'logs.count_by_bucket: % is not a log table', source;
  END IF;
  FOR day IN
    SELECT c.oid, c.relkind, pg_get_expr(c.relpartbound, c.oid) AS bound
    FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid
    WHERE i.inhparent = parent ORDER BY c.relname
  LOOP
    -- A day holds [FROM, TO); it can hold a row of (after, upto] unless TO <= after or FROM > upto.
    range_bound := regexp_match(day.bound, '^FOR VALUES FROM \(''([^'']*)''\) TO \(''([^'']*)''\)$');
    IF range_bound IS NOT NULL
       AND (range_bound[2]::timestamptz <= after OR range_bound[1]::timestamptz > upto) THEN
      CONTINUE;
    END IF;
    IF day.relkind <> 'p' THEN
      branches := branches || day.oid::regclass::text;
      CONTINUE;
    END IF;
    -- A day split by project hash: only the partition that can hold the project (any, if the
    -- hash key is not the project column).
    by_project := pg_get_partkeydef(day.oid) = 'HASH (project)';
    FOR leaf IN
      SELECT c.oid, pg_get_expr(c.relpartbound, c.oid) AS bound
      FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid
      WHERE i.inhparent = day.oid ORDER BY c.relname
    LOOP
      hash_bound := regexp_match(leaf.bound, 'modulus (\d+), remainder (\d+)');
      IF by_project AND hash_bound IS NOT NULL AND project IS NOT NULL
         AND NOT satisfies_hash_partition(day.oid, hash_bound[1]::int, hash_bound[2]::int,
                                          project) THEN
        CONTINUE;
      END IF;
      branches := branches || leaf.oid::regclass::text;
    END LOOP;
  END LOOP;
  IF cardinality(branches) = 0 THEN
    RETURN NULL;
  END IF;
  RETURN 'SELECT b, sum(c)::bigint FROM ('
    || (SELECT string_agg(format(
          'SELECT date_bin($1, "timestamp", timestamptz ''1970-01-01 00:00:00+00'') AS b, '
          'count(*) AS c FROM %s WHERE project = $2 AND "timestamp" > $3 AND "timestamp" <= $4 '
          'GROUP BY 1', b), ' UNION ALL ')
        FROM unnest(branches) AS b)
    || ') AS counted GROUP BY b';
END
$fn$;

CREATE FUNCTION logs.count_by_bucket(source text, bucket interval, project text,
                                     after timestamptz, upto timestamptz)
RETURNS TABLE (bucket_start timestamptz, n bigint)
LANGUAGE plpgsql STABLE SET search_path = pg_catalog, pg_temp AS $fn$
DECLARE
  statement text;
BEGIN
  IF bucket IS NULL OR bucket NOT IN (interval '1 second', interval '1 minute', interval '1 hour',
                                      interval '1 day') THEN
    RAISE EXCEPTION 'logs.count_by_bucket: bucket must be 1 second, minute, hour or day, not %',
      bucket;
  END IF;
  statement := logs.count_by_bucket_sql(source, project, after, upto);
  IF statement IS NOT NULL THEN
    RETURN QUERY EXECUTE statement USING bucket, project, after, upto;
  END IF;
END
$fn$;
