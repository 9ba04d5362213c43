-- Listings filtered by an equality on a promoted field inside a REPEATED record (migration 028's
-- <base>_min/_max). The translator reads `x = v` as two ordered branches: rows with max = v, on
-- the (project, <base>_max, "timestamp" DESC) index, and rows whose elements differ (min < max)
-- with min <= v < max, which need their own ordered index: (project, (<base>_min < <base>_max),
-- "timestamp" DESC). An expression, not a partial index WHERE min <> max: PostgreSQL estimates
-- `min <> max` as nearly every row and would not pick the partial index, while ANALYZE gathers
-- the expression's statistics, so the (few) rows that differ are estimated as few.
-- New nested promoted fields get it from logs.promote_field_columns (028's, plus this index);
-- the ones promoted before get it here. Foreign partitions have no local index.

CREATE FUNCTION logs.create_promoted_differs_index(src text, base text) RETURNS void
LANGUAGE plpgsql AS $fn$
BEGIN
  EXECUTE format('CREATE INDEX IF NOT EXISTS %I ON logs.%I (project, (%I < %I), "timestamp" DESC)',
                 left(src || '_pd_' || base, 50) || '_' || left(md5(src || '.' || base || '.differs'), 8),
                 src, base || '_min', base || '_max');
END
$fn$;

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
      -- "timestamp" DESC: the listings' order (migration 033; 029 rebuilds 027's indexes so).
      EXECUTE format('CREATE INDEX IF NOT EXISTS %I ON logs.%I '
                     '(project, %I, "timestamp" DESC)', idx, f.source, col);
      RETURN NEXT f.source || '.' || col;
    END LOOP;
    IF logs.promoted_is_nested(f.path) THEN
      PERFORM logs.create_promoted_differs_index(f.source, base);
    END IF;
    UPDATE logs.promoted_fields SET column_name = base, backfilled = false
     WHERE source = f.source AND path = f.path;
    PERFORM logs.create_promoted_trigger(f.source);
  END LOOP;
END
$fn$;

DO $$
DECLARE
  f record;
BEGIN
  FOR f IN SELECT * FROM logs.promoted_fields WHERE column_name IS NOT NULL ORDER BY source, path LOOP
    IF logs.promoted_is_nested(f.path) THEN
      PERFORM logs.create_promoted_differs_index(f.source, f.column_name);
    END IF;
  END LOOP;
END
$$;
