-- Listings filtered by an equality on a promoted field inside a REPEATED record (migration 028's
-- <base>_min/_max). The translator reads `x = v` as two ordered branches: rows with max = v, on
-- the (project, <base>_max, "timestamp" DESC) index, and rows whose elements differ (min < max)
-- with min <= v < max, which need their own ordered index: (project, (<base>_min < <base>_max),
-- "timestamp" DESC). An expression, not a partial index WHERE min <> max: PostgreSQL estimates
-- `min <> max` as nearly every row and would not pick the partial index, while ANALYZE gathers
-- the expression's statistics, so the (few) rows that differ are estimated as few.
-- logs.create_promoted_differs_indexes() makes the missing ones: here for the fields promoted
-- before, and in every lqe migrate run right after logs.promote_field_columns() for new ones. An
-- existing index is found by name first, so a run that adds nothing takes no lock on the table
-- (CREATE INDEX IF NOT EXISTS would wait for the inserts in progress). Foreign partitions have no
-- local index.

CREATE FUNCTION logs.create_promoted_differs_indexes() RETURNS SETOF text
LANGUAGE plpgsql AS $fn$
DECLARE
  f record;
  idx text;
BEGIN
  FOR f IN SELECT * FROM logs.promoted_fields WHERE column_name IS NOT NULL ORDER BY source, path LOOP
    CONTINUE WHEN NOT logs.promoted_is_nested(f.path);
    idx := left(f.source || '_pd_' || f.column_name, 50) || '_'
           || left(md5(f.source || '.' || f.column_name || '.differs'), 8);
    CONTINUE WHEN to_regclass(format('logs.%I', idx)) IS NOT NULL;
    EXECUTE format('CREATE INDEX %I ON logs.%I (project, (%I < %I), "timestamp" DESC)', idx,
                   f.source, f.column_name || '_min', f.column_name || '_max');
    RETURN NEXT f.source || '.' || idx;
  END LOOP;
END
$fn$;

SELECT logs.create_promoted_differs_indexes();
