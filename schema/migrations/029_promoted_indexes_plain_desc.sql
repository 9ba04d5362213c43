-- The translator orders a log table's NOT NULL "timestamp" with plain DESC since migration 033
-- (the order of the day partitions, so a listing reads the newest day first and stops at the
-- LIMIT). The promoted columns' indexes of migration 027 ended in "timestamp" DESC
-- NULLS LAST, which no longer gives a listing's order: a listing filtered on a promoted field
-- sorted the matching rows. New promoted columns get (project, <column>, "timestamp" DESC) from
-- migration 028's logs.promote_field_columns; the indexes made before are rebuilt so here, under
-- the same names (in this transaction: on a large table that blocks writes while it runs).
-- Foreign partitions have no local index.

DO $$
DECLARE
  ix record;
BEGIN
  FOR ix IN
    SELECT i.indexname, i.tablename, a.attname
      FROM pg_indexes i
      JOIN pg_class c ON c.relname = i.indexname AND c.relnamespace = 'logs'::regnamespace
      JOIN pg_index x ON x.indexrelid = c.oid
      JOIN pg_attribute a ON a.attrelid = x.indrelid AND a.attnum = x.indkey[1]
     WHERE i.schemaname = 'logs' AND c.relkind = 'I' AND x.indnatts = 3
       AND a.attname LIKE 'p\_%'
       AND i.indexdef LIKE '%"timestamp" DESC NULLS LAST)'
  LOOP
    EXECUTE format('DROP INDEX logs.%I', ix.indexname);
    EXECUTE format('CREATE INDEX %I ON logs.%I (project, %I, "timestamp" DESC)', ix.indexname,
                   ix.tablename, ix.attname);
  END LOOP;
END
$$;
