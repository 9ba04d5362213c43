-- Promoted fields as typed columns. A promoted field directly under metadata gets a real column
-- on its log table (metadata.status -> logs.auth.p_status bigint) holding exactly what the
-- translator's jsonb read gives (logs.field_read_expression: a value that cannot be read as the
-- type is NULL), so a query reads the column instead of detoasting and parsing metadata, and the
-- (project, column, timestamp) index is a plain b-tree on it.
--
-- ADD COLUMN of a nullable column without a default rewrites nothing. A BEFORE INSERT OR UPDATE
-- row trigger fills the columns for every writer (lqe load and HTTP ingest through COPY, plain
-- SQL), and the rows that existed before are backfilled one partition per transaction
-- (logs.backfill_promoted_partition, called in a loop by lqe migrate: resumable, and idempotent
-- because it only touches rows whose column differs from the read). The translator reads the
-- column once the field is backfilled (logs.promoted_fields.backfilled, loaded with the
-- catalogue). The bq.* readers come with migration 050 onwards, so the work itself happens in
-- lqe migrate after the migrations (logs.promote_field_columns).
ALTER TABLE logs.promoted_fields
  ADD COLUMN column_name text,
  ADD COLUMN backfilled boolean NOT NULL DEFAULT false;
COMMENT ON COLUMN logs.promoted_fields.column_name IS
  'The typed column on logs.<source> holding the field (p_<name>), once lqe migrate added it.';
COMMENT ON COLUMN logs.promoted_fields.backfilled IS
  'Every partition that existed when the column was added is filled: the translator reads the '
  'column from now on.';

CREATE TABLE logs.promoted_backfill (
  source text NOT NULL,
  partition_name text NOT NULL,
  column_name text NOT NULL,
  rows_updated bigint NOT NULL,
  done_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (source, partition_name, column_name)
);
COMMENT ON TABLE logs.promoted_backfill IS
  'Partitions whose rows were filled for a promoted column (so a stopped backfill resumes).';
COMMENT ON COLUMN logs.promoted_backfill.source IS 'Log source (table in schema logs).';
COMMENT ON COLUMN logs.promoted_backfill.partition_name IS 'The filled partition of logs.<source>.';
COMMENT ON COLUMN logs.promoted_backfill.column_name IS 'The promoted column that was filled.';
COMMENT ON COLUMN logs.promoted_backfill.rows_updated IS
  'Rows whose value differed from the read (0 for rows the trigger had filled already).';
COMMENT ON COLUMN logs.promoted_backfill.done_at IS 'When the partition was filled.';

-- The column holding metadata.<name>: p_ and the name folded to lower-case [a-z0-9_].
CREATE FUNCTION logs.promoted_column_name(path text) RETURNS text
LANGUAGE sql IMMUTABLE AS $$
  SELECT left('p_' || lower(regexp_replace(substr(path, strpos(path, '.') + 1),
                                           '[^A-Za-z0-9]+', '_', 'g')), 63)
$$;

CREATE FUNCTION logs.promoted_column_type(kind text) RETURNS text
LANGUAGE sql IMMUTABLE AS $$
  SELECT CASE kind WHEN 'INT64' THEN 'bigint' WHEN 'FLOAT64' THEN 'double precision'
                   WHEN 'BOOL' THEN 'boolean' ELSE 'text' END
$$;

-- The read of the field on the record `record_sql` (NEW.metadata in the trigger): the same text
-- as logs.field_read_expression, which reads it on the row's metadata column.
CREATE FUNCTION logs.promoted_read_on(record_sql text, path text, kind text) RETURNS text
LANGUAGE sql IMMUTABLE AS $$
  SELECT regexp_replace(logs.field_read_expression(path, kind), '\(metadata ->> ',
                        '(' || record_sql || ' ->> ')
$$;

-- (Re)creates the fill trigger of one source from its promoted columns.
CREATE FUNCTION logs.create_promoted_trigger(src text) RETURNS void
LANGUAGE plpgsql AS $fn$
DECLARE
  f record;
  body text := '';
  fn text := 'fill_promoted_' || src;
BEGIN
  FOR f IN SELECT * FROM logs.promoted_fields
            WHERE source = src AND column_name IS NOT NULL ORDER BY path LOOP
    body := body || format('  NEW.%I := %s;', f.column_name,
                           logs.promoted_read_on('NEW.metadata', f.path, f.bq_type)) || E'\n';
  END LOOP;
  EXECUTE format('DROP TRIGGER IF EXISTS fill_promoted ON logs.%I', src);
  IF body = '' THEN
    EXECUTE format('DROP FUNCTION IF EXISTS logs.%I()', fn);
    RETURN;
  END IF;
  EXECUTE format('CREATE OR REPLACE FUNCTION logs.%I() RETURNS trigger LANGUAGE plpgsql AS %L',
                 fn, E'BEGIN\n' || body || E'  RETURN NEW;\nEND');
  EXECUTE format('COMMENT ON FUNCTION logs.%I() IS %L', fn,
                 'Fills the promoted columns of logs.' || src || ' (logs.promoted_fields).');
  EXECUTE format('CREATE TRIGGER fill_promoted BEFORE INSERT OR UPDATE OF metadata ON logs.%I '
                 'FOR EACH ROW EXECUTE FUNCTION logs.%I()', src, fn);
END
$fn$;

-- Adds the column, trigger and index of every declared field that has no column yet (and the
-- expression index for one that cannot have a column); returns the columns added.
CREATE FUNCTION logs.promote_field_columns() RETURNS SETOF text
LANGUAGE plpgsql AS $fn$
DECLARE
  f record;
  col text;
  idx text;
BEGIN
  FOR f IN SELECT * FROM logs.promoted_fields WHERE column_name IS NULL ORDER BY source, path LOOP
    PERFORM logs.field_read_expression(f.path, f.bq_type);  -- refuses what cannot be promoted
    col := logs.promoted_column_name(f.path);
    EXECUTE format('ALTER TABLE logs.%I ADD COLUMN IF NOT EXISTS %I %s', f.source, col,
                   logs.promoted_column_type(f.bq_type));
    EXECUTE format('COMMENT ON COLUMN logs.%I.%I IS %L', f.source, col,
                   'Promoted field ' || f.path || ' (' || f.bq_type || '), filled by trigger '
                   'fill_promoted: NULL when absent or not readable as that type.');
    idx := left(f.source || '_pc_' || col, 50) || '_' || left(md5(f.source || '.' || col), 8);
    EXECUTE format('CREATE INDEX IF NOT EXISTS %I ON logs.%I '
                   '(project, %I, "timestamp" DESC NULLS LAST)', idx, f.source, col);
    UPDATE logs.promoted_fields SET column_name = col, backfilled = false
     WHERE source = f.source AND path = f.path;
    PERFORM logs.create_promoted_trigger(f.source);
    RETURN NEXT f.source || '.' || col;
  END LOOP;
END
$fn$;

-- Fills the promoted columns of one partition that has not been filled yet, in the caller's
-- transaction; returns its name, or NULL when every partition is done (the fields are then
-- marked backfilled and their old expression indexes, which no query uses any more, dropped).
CREATE FUNCTION logs.backfill_promoted_partition() RETURNS text
LANGUAGE plpgsql AS $fn$
DECLARE
  p record;
  f record;
  sets text := '';
  differs text := '';
  n bigint;
BEGIN
  SELECT pf.source, c.relname, c.relkind INTO p
    FROM logs.promoted_fields pf
    JOIN pg_inherits i ON i.inhparent = format('logs.%I', pf.source)::regclass
    JOIN pg_class c ON c.oid = i.inhrelid
   WHERE pf.column_name IS NOT NULL AND NOT pf.backfilled
     AND NOT EXISTS (SELECT 1 FROM logs.promoted_backfill b
                      WHERE b.source = pf.source AND b.partition_name = c.relname
                        AND b.column_name = pf.column_name)
   ORDER BY pf.source, c.relname DESC
   LIMIT 1;
  IF NOT FOUND THEN
    FOR f IN SELECT * FROM logs.promoted_fields
              WHERE column_name IS NOT NULL AND NOT backfilled AND index_name IS NOT NULL LOOP
      EXECUTE format('DROP INDEX IF EXISTS logs.%I', f.index_name);
    END LOOP;
    UPDATE logs.promoted_fields SET backfilled = true, index_name = NULL
     WHERE column_name IS NOT NULL AND NOT backfilled;
    RETURN NULL;
  END IF;
  IF p.relkind = 'f' THEN
    RAISE EXCEPTION 'partition logs.% is a foreign table (a shard): add and fill its promoted '
                    'columns on its node, then record it in logs.promoted_backfill', p.relname;
  END IF;
  FOR f IN SELECT * FROM logs.promoted_fields
            WHERE source = p.source AND column_name IS NOT NULL AND NOT backfilled LOOP
    sets := sets || CASE WHEN sets = '' THEN '' ELSE ', ' END
            || format('%I = %s', f.column_name, logs.field_read_expression(f.path, f.bq_type));
    differs := differs || CASE WHEN differs = '' THEN '' ELSE ' OR ' END
               || format('%I IS DISTINCT FROM %s', f.column_name,
                         logs.field_read_expression(f.path, f.bq_type));
  END LOOP;
  EXECUTE format('UPDATE logs.%I SET %s WHERE %s', p.relname, sets, differs);
  GET DIAGNOSTICS n = ROW_COUNT;
  INSERT INTO logs.promoted_backfill (source, partition_name, column_name, rows_updated)
  SELECT p.source, p.relname, column_name, n FROM logs.promoted_fields
   WHERE source = p.source AND column_name IS NOT NULL AND NOT backfilled
  ON CONFLICT DO NOTHING;
  RETURN p.relname;
END
$fn$;
