-- The translator orders a log table's NOT NULL "timestamp" with plain DESC since migration 033
-- (the order of the day partitions, so a listing reads the newest day first and stops at the
-- LIMIT). The promoted columns' indexes (migrations 027, 028) still ended in "timestamp" DESC
-- NULLS LAST, which no longer gives a listing's order: a listing filtered on a promoted field
-- sorted the matching rows. New promoted columns get (project, <column>, "timestamp" DESC), and
-- the existing indexes are rebuilt so, under the same names (in this transaction: on a large
-- table that blocks writes while it runs). Foreign partitions have no local index.

CREATE OR REPLACE FUNCTION logs.promote_field_columns() RETURNS SETOF text
LANGUAGE plpgsql AS $fn$
DECLARE
  f record;
  base text;
  col text;
  idx text;
  cols text[];
BEGIN
  FOR f IN SELECT * FROM logs.promoted_fields WHERE column_name IS NULL ORDER BY source, path LOOP
    IF logs.promoted_is_nested(f.path) THEN
      PERFORM logs.check_promoted_nested(f.source, f.path, f.bq_type);
      base := left(logs.promoted_column_name(f.path), 59);
      cols := ARRAY[base || '_min', base || '_max'];
    ELSE
      PERFORM logs.field_read_expression(f.path, f.bq_type);  -- refuses what cannot be promoted
      base := logs.promoted_column_name(f.path);
      cols := ARRAY[base];
    END IF;
    FOREACH col IN ARRAY cols LOOP
      EXECUTE format('ALTER TABLE logs.%I ADD COLUMN IF NOT EXISTS %I %s', f.source, col,
                     logs.promoted_column_type(f.bq_type)
                     || CASE WHEN f.bq_type = 'STRING' AND logs.promoted_is_nested(f.path)
                             THEN ' COLLATE "C"' ELSE '' END);
      EXECUTE format('COMMENT ON COLUMN logs.%I.%I IS %L', f.source, col,
                     CASE WHEN logs.promoted_is_nested(f.path)
                          THEN 'Promoted field ' || f.path || ' (' || f.bq_type || '): the '
                               || CASE WHEN col LIKE '%\_min' THEN 'lowest' ELSE 'highest' END
                               || ' value over the nested records'' elements, filled by trigger '
                               'fill_promoted: NULL when no element has a value of that type.'
                          ELSE 'Promoted field ' || f.path || ' (' || f.bq_type || '), filled by '
                               'trigger fill_promoted: NULL when absent or not readable as that '
                               'type.' END);
      idx := left(f.source || '_pc_' || col, 50) || '_' || left(md5(f.source || '.' || col), 8);
      EXECUTE format('CREATE INDEX IF NOT EXISTS %I ON logs.%I '
                     '(project, %I, "timestamp" DESC)', idx, f.source, col);
      RETURN NEXT f.source || '.' || col;
    END LOOP;
    UPDATE logs.promoted_fields SET column_name = base, backfilled = false
     WHERE source = f.source AND path = f.path;
    PERFORM logs.create_promoted_trigger(f.source);
  END LOOP;
END
$fn$;

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
