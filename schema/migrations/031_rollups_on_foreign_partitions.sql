-- Inserts routed to a foreign partition (an event for a cold day on a sharded coordinator) on a
-- log table whose rollups are statement triggers with transition tables (migration 020's
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
-- partitions) insertable with its rollups exact: creates logs.<source>_routed once the source
-- has a foreign partition, mirrors onto it the source's AFTER INSERT transition-table triggers
-- (same names and functions; mirrors of removed triggers are dropped), and gives every foreign
-- partition the row trigger above. Idempotent; lqe migrate calls it whenever it moves days or
-- changes a rollup, in the same transaction.
CREATE FUNCTION logs.prepare_routed_inserts(source text) RETURNS void
LANGUAGE plpgsql AS $fn$
DECLARE
  parent regclass := format('logs.%I', source)::regclass;
  feed_name text := source || '_routed';
  feed regclass;
  t record;
BEGIN
  feed := to_regclass(format('logs.%I', feed_name));
  IF feed IS NULL THEN
    IF NOT EXISTS (SELECT 1 FROM pg_partition_tree(parent) p
                     JOIN pg_class c ON c.oid = p.relid WHERE c.relkind = 'f') THEN
      RETURN;
    END IF;
    EXECUTE format('CREATE TABLE logs.%I (LIKE logs.%I)', feed_name, source);
    EXECUTE format('COMMENT ON TABLE logs.%I IS %L', feed_name,
                   'Always empty: rows routed to a foreign partition of logs.' || source ||
                   ' pass through it so its rollup triggers count them (migration 031).');
    feed := format('logs.%I', feed_name)::regclass;
  END IF;
  FOR t IN
    SELECT m.tgname FROM pg_trigger m
     WHERE m.tgrelid = feed AND NOT m.tgisinternal
       AND NOT EXISTS (SELECT 1 FROM pg_trigger s
                        WHERE s.tgrelid = parent AND s.tgname = m.tgname AND s.tgfoid = m.tgfoid)
  LOOP
    EXECUTE format('DROP TRIGGER %I ON logs.%I', t.tgname, feed_name);
  END LOOP;
  -- tgtype: 4 = INSERT; statement-level (bit 1 clear), AFTER (bit 2 clear).
  FOR t IN
    SELECT s.tgname, s.tgfoid::regproc AS fn, s.tgnewtable FROM pg_trigger s
     WHERE s.tgrelid = parent AND NOT s.tgisinternal AND s.tgnewtable IS NOT NULL
       AND s.tgtype & 4 <> 0 AND s.tgtype & 1 = 0 AND s.tgtype & 2 = 0
       AND NOT EXISTS (SELECT 1 FROM pg_trigger m WHERE m.tgrelid = feed AND m.tgname = s.tgname)
  LOOP
    EXECUTE format('CREATE TRIGGER %I AFTER INSERT ON logs.%I REFERENCING NEW TABLE AS %I '
                   'FOR EACH STATEMENT EXECUTE FUNCTION %s()', t.tgname, feed_name, t.tgnewtable,
                   t.fn);
  END LOOP;
  FOR t IN
    SELECT p.relid FROM pg_partition_tree(parent) p JOIN pg_class c ON c.oid = p.relid
     WHERE c.relkind = 'f'
       AND NOT EXISTS (SELECT 1 FROM pg_trigger g
                        WHERE g.tgrelid = p.relid AND g.tgname = 'insert_routed_row')
  LOOP
    EXECUTE format('CREATE TRIGGER insert_routed_row BEFORE INSERT ON %s FOR EACH ROW '
                   'EXECUTE FUNCTION logs.insert_routed_row(%L)', t.relid::regclass, source);
  END LOOP;
END
$fn$;
REVOKE EXECUTE ON FUNCTION logs.prepare_routed_inserts(text) FROM PUBLIC;

-- Coordinators sharded before this migration.
SELECT logs.prepare_routed_inserts(c.relname)
  FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
 WHERE n.nspname = 'logs' AND c.relkind = 'p' AND NOT c.relispartition;
