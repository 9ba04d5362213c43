-- Migration 031's row trigger costs every routed row a round trip of its own (postgres_fdw does
-- not batch inserts into a table with row triggers) and, with the feed, about 2 ms a row. A
-- source without transition-table triggers (no rollup) needs none of it: PostgreSQL routes its
-- rows natively, in batches. So the trigger and the feed's mirrors are kept only while the source
-- has such triggers; lqe migrate calls this whenever a rollup is created or dropped.
CREATE OR REPLACE FUNCTION logs.prepare_routed_inserts(source text) RETURNS void
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

SELECT logs.prepare_routed_inserts(c.relname)
  FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
 WHERE n.nspname = 'logs' AND c.relkind = 'p' AND NOT c.relispartition;
