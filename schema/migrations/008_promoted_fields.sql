-- Promoted fields: a metadata field that filters hit often gets a typed column on its log table
-- holding exactly what the translator's jsonb read gives (a value that cannot be read as the
-- type is NULL), so a query reads the column instead of detoasting and parsing metadata, and
-- (project, column, timestamp) is a plain b-tree index on it.
--   - A field directly under metadata gets one column: metadata.status -> logs.auth.p_status.
--   - A field inside metadata's nested records (REPEATED: an object is one element, an array
--     many, absent none; a query reads it through UNNEST, one value per element) gets the lowest
--     and highest value over the elements: metadata.response.status_code -> logs.edge columns
--     p_response_status_code_min and _max (NULL when no element has a readable value). An
--     element matching `status >= 500` means the row's max is >= 500, so the translator adds
--     that row condition (index-usable) next to the exact UNNEST predicate, which it keeps.
--     STRING columns are collated "C": the translator compares strings byte-wise.
--
-- Declared as rows of logs.promoted_fields; `lqe migrate` adds the missing columns after the
-- migrations (logs.promote_field_columns: ADD COLUMN of a nullable column rewrites nothing), a
-- BEFORE INSERT OR UPDATE row trigger fills them for every writer, and the rows stored before
-- are backfilled one partition per transaction (logs.backfill_promoted_partition, called in a
-- loop by lqe migrate: resumable, and idempotent because it only touches rows whose column
-- differs from the read). The translator reads a column once its field is backfilled
-- (logs.promoted_fields.backfilled, loaded with the catalogue).
CREATE TABLE logs.promoted_fields (
  source text NOT NULL,
  path text NOT NULL,
  bq_type text NOT NULL,
  index_name text,
  column_name text,
  backfilled boolean NOT NULL DEFAULT false,
  PRIMARY KEY (source, path)
);
COMMENT ON TABLE logs.promoted_fields IS
  'Promoted fields: lqe migrate indexes (project, field, timestamp) on logs.<source>, with the '
  'field read by the expression the translator emits for it (logs.field_read_expression).';
COMMENT ON COLUMN logs.promoted_fields.source IS 'Log source (table in schema logs).';
COMMENT ON COLUMN logs.promoted_fields.path IS 'Field path as in logs.field_catalogue.';
COMMENT ON COLUMN logs.promoted_fields.bq_type IS
  'The field''s catalogue type: STRING, INT64, FLOAT64 or BOOL.';
COMMENT ON COLUMN logs.promoted_fields.index_name IS
  'The partitioned index on logs.<source>, once lqe migrate created it.';
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

-- The translator's read of a field directly under metadata: metadata.status of type INT64 is
-- bq.json_int64((metadata ->> 'status')). Keep in step with translator/src/pg (emit_access).
CREATE FUNCTION logs.field_read_expression(path text, kind text) RETURNS text
LANGUAGE plpgsql IMMUTABLE AS $fn$
DECLARE
  parts text[] := string_to_array(path, '.');
  expr text;
BEGIN
  IF kind IS NULL OR kind NOT IN ('STRING', 'INT64', 'FLOAT64', 'BOOL') THEN
    RAISE EXCEPTION 'promoted field % is typed %, not STRING, INT64, FLOAT64 or BOOL', path, kind;
  END IF;
  IF coalesce(array_length(parts, 1), 0) < 2 THEN
    RAISE EXCEPTION 'promoted field % is a column already', path;
  END IF;
  IF array_length(parts, 1) > 2 THEN
    RAISE EXCEPTION 'promoted field % lies inside a nested record, which is REPEATED and read '
                    'through UNNEST: only a field directly under % can be promoted', path, parts[1];
  END IF;
  expr := '(' || quote_ident(parts[1]) || ' ->> ' || quote_literal(parts[2]) || ')';
  RETURN CASE kind
    WHEN 'INT64' THEN 'bq.json_int64(' || expr || ')'
    WHEN 'FLOAT64' THEN 'bq.json_float64(' || expr || ')'
    WHEN 'BOOL' THEN 'bq.safe_cast_bool(' || expr || ')'
    ELSE expr
  END;
END
$fn$;

-- Expression indexes on the read of each declared field that has none yet (index_name); the
-- typed columns below replace them. Returns the names created.
CREATE FUNCTION logs.create_promoted_field_indexes() RETURNS SETOF text
LANGUAGE plpgsql AS $fn$
DECLARE
  f record;
  name text;
BEGIN
  FOR f IN SELECT * FROM logs.promoted_fields WHERE index_name IS NULL ORDER BY source, path LOOP
    name := left(f.source || '_pf_' || replace(f.path, '.', '_'), 50) || '_'
            || left(md5(f.source || '.' || f.path), 8);
    EXECUTE format('CREATE INDEX IF NOT EXISTS %I ON logs.%I '
                   '(project, (%s), "timestamp" DESC NULLS LAST)',
                   name, f.source, logs.field_read_expression(f.path, f.bq_type));
    UPDATE logs.promoted_fields SET index_name = name
     WHERE source = f.source AND path = f.path;
    RETURN NEXT name;
  END LOOP;
END
$fn$;

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

-- The elements' values of a nested field as a query over the record `record_sql` (NEW.metadata
-- in the trigger, metadata in the backfill): one row per element, column v.
CREATE FUNCTION logs.promoted_nested_values(record_sql text, path text, kind text) RETURNS text
LANGUAGE plpgsql IMMUTABLE AS $fn$
DECLARE
  parts text[] := string_to_array(path, '.');
  n int := array_length(string_to_array(path, '.'), 1);
  from_sql text := '';
  prev text := record_sql;
  leaf text;
BEGIN
  FOR i IN 2 .. n - 1 LOOP
    from_sql := from_sql || CASE WHEN i = 2 THEN '' ELSE ' CROSS JOIN LATERAL ' END
                || format('bq.json_record_elements((%s -> %L)) AS e%s(j)', prev, parts[i], i - 1);
    prev := format('e%s.j', i - 1);
  END LOOP;
  leaf := format('(%s ->> %L)', prev, parts[n]);
  RETURN 'SELECT ' || CASE kind
      WHEN 'INT64' THEN 'bq.json_int64(' || leaf || ')'
      WHEN 'FLOAT64' THEN 'bq.json_float64(' || leaf || ')'
      WHEN 'BOOL' THEN 'bq.safe_cast_bool(' || leaf || ')'
      ELSE leaf || ' COLLATE "C"'
    END || ' AS v FROM ' || from_sql;
END
$fn$;

-- The aggregate giving the low (is_min) or high end of a kind's values: BOOL orders false first.
CREATE FUNCTION logs.promoted_nested_aggregate(kind text, is_min boolean) RETURNS text
LANGUAGE sql IMMUTABLE AS $$
  SELECT CASE WHEN kind = 'BOOL' THEN CASE WHEN is_min THEN 'bool_and' ELSE 'bool_or' END
              WHEN is_min THEN 'min' ELSE 'max' END
$$;

-- Fast path of the trigger: every record level is one object, so there is one element and its
-- value is read directly. Returns the condition and the read, over `record_sql`.
CREATE FUNCTION logs.promoted_nested_single(record_sql text, path text, kind text,
                                            OUT condition text, OUT read text)
LANGUAGE plpgsql IMMUTABLE AS $fn$
DECLARE
  parts text[] := string_to_array(path, '.');
  n int := array_length(string_to_array(path, '.'), 1);
  prev text := record_sql;
BEGIN
  condition := '';
  FOR i IN 2 .. n - 1 LOOP
    prev := format('(%s -> %L)', prev, parts[i]);
    condition := condition || CASE WHEN i = 2 THEN '' ELSE ' AND ' END
                 || format('jsonb_typeof(%s) = ''object''', prev);
  END LOOP;
  read := format('(%s ->> %L)', prev, parts[n]);
  read := CASE kind
    WHEN 'INT64' THEN 'bq.json_int64(' || read || ')'
    WHEN 'FLOAT64' THEN 'bq.json_float64(' || read || ')'
    WHEN 'BOOL' THEN 'bq.safe_cast_bool(' || read || ')'
    ELSE read || ' COLLATE "C"'
  END;
END
$fn$;

CREATE FUNCTION logs.promoted_is_nested(path text) RETURNS boolean
LANGUAGE sql IMMUTABLE AS $$
  SELECT coalesce(array_length(string_to_array(path, '.'), 1), 0) > 2
$$;

-- Refuses a nested declaration that cannot be promoted: not a scalar of a promotable type, not
-- under metadata, under a field that is not a record, or itself REPEATED (an array).
CREATE FUNCTION logs.check_promoted_nested(src text, path text, kind text) RETURNS void
LANGUAGE plpgsql AS $fn$
DECLARE
  parts text[] := string_to_array(path, '.');
  c record;
BEGIN
  IF kind IS NULL OR kind NOT IN ('STRING', 'INT64', 'FLOAT64', 'BOOL') THEN
    RAISE EXCEPTION 'promoted field % is typed %, not STRING, INT64, FLOAT64 or BOOL', path, kind;
  END IF;
  IF parts[1] <> 'metadata' THEN
    RAISE EXCEPTION 'promoted field % is not under metadata', path;
  END IF;
  FOR c IN SELECT f.path, f.bq_type, f.mode FROM logs.field_catalogue f
            WHERE f.source = src AND starts_with(check_promoted_nested.path, f.path || '.')
              AND f.bq_type <> 'RECORD' LOOP
    RAISE EXCEPTION 'promoted field % lies under %, which is typed %, not a record', path, c.path,
                    c.bq_type;
  END LOOP;
  IF EXISTS (SELECT 1 FROM logs.field_catalogue f
              WHERE f.source = src AND f.path = check_promoted_nested.path
                AND f.mode = 'REPEATED') THEN
    RAISE EXCEPTION 'promoted field % is REPEATED (an array of values): only a single value per '
                    'record element can be promoted', path;
  END IF;
END
$fn$;

-- (Re)creates the fill trigger of one source from its promoted columns (a nested field's min/max
-- read directly when each record level is one object, else over the elements).
CREATE FUNCTION logs.create_promoted_trigger(src text) RETURNS void
LANGUAGE plpgsql AS $fn$
DECLARE
  f record;
  single record;
  body text := '';
  fn text := 'fill_promoted_' || src;
BEGIN
  FOR f IN SELECT * FROM logs.promoted_fields
            WHERE source = src AND column_name IS NOT NULL ORDER BY path LOOP
    IF logs.promoted_is_nested(f.path) THEN
      single := logs.promoted_nested_single('NEW.metadata', f.path, f.bq_type);
      body := body || format(E'  IF %s THEN\n    NEW.%I := %s;\n    NEW.%I := NEW.%I;\n  ELSE\n'
                             || E'    SELECT %s(v), %s(v) INTO NEW.%I, NEW.%I FROM (%s) AS s;\n'
                             || E'  END IF;\n',
                             single.condition, f.column_name || '_max', single.read,
                             f.column_name || '_min', f.column_name || '_max',
                             logs.promoted_nested_aggregate(f.bq_type, true),
                             logs.promoted_nested_aggregate(f.bq_type, false),
                             f.column_name || '_min', f.column_name || '_max',
                             logs.promoted_nested_values('NEW.metadata', f.path, f.bq_type));
    ELSE
      body := body || format('  NEW.%I := %s;', f.column_name,
                             logs.promoted_read_on('NEW.metadata', f.path, f.bq_type)) || E'\n';
    END IF;
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

-- Adds the column(s), trigger and index(es) of every declared field that has none yet; returns
-- the columns added. A nested field gets <base>_min and <base>_max (base at most 59 characters,
-- so both names fit PostgreSQL's 63).
CREATE FUNCTION logs.promote_field_columns() RETURNS SETOF text
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
      -- "timestamp" DESC: the listings' order (as the log tables' (project, "timestamp") indexes).
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

-- Fills the promoted columns of one partition that has not been filled yet, in the caller's
-- transaction; returns its name, or NULL when every partition is done (the fields are then
-- marked backfilled and their expression indexes, which no query uses any more, dropped).
CREATE FUNCTION logs.backfill_promoted_partition() RETURNS text
LANGUAGE plpgsql AS $fn$
DECLARE
  p record;
  f record;
  sets text := '';
  differs text := '';
  reads text[];
  targets text[];
  single record;
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
    IF logs.promoted_is_nested(f.path) THEN
      -- As the trigger: the one object's value read directly, else the aggregate over elements.
      single := logs.promoted_nested_single('metadata', f.path, f.bq_type);
      targets := ARRAY[f.column_name || '_min', f.column_name || '_max'];
      reads := ARRAY[
        format('CASE WHEN %s THEN %s ELSE (SELECT %s(v) FROM (%s) AS s) END', single.condition,
               single.read, logs.promoted_nested_aggregate(f.bq_type, true),
               logs.promoted_nested_values('metadata', f.path, f.bq_type)),
        format('CASE WHEN %s THEN %s ELSE (SELECT %s(v) FROM (%s) AS s) END', single.condition,
               single.read, logs.promoted_nested_aggregate(f.bq_type, false),
               logs.promoted_nested_values('metadata', f.path, f.bq_type))];
    ELSE
      targets := ARRAY[f.column_name];
      reads := ARRAY[logs.field_read_expression(f.path, f.bq_type)];
    END IF;
    FOR i IN 1 .. array_length(targets, 1) LOOP
      sets := sets || CASE WHEN sets = '' THEN '' ELSE ', ' END
              || format('%I = %s', targets[i], reads[i]);
      differs := differs || CASE WHEN differs = '' THEN '' ELSE ' OR ' END
                 || format('%I IS DISTINCT FROM %s', targets[i], reads[i]);
    END LOOP;
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

-- Listings filtered by an equality on a promoted field inside a REPEATED record (its
-- <base>_min/_max). The translator reads `x = v` as two ordered branches: rows with max = v, on
-- the (project, <base>_max, "timestamp" DESC) index, and rows whose elements differ (min < max)
-- with min <= v < max, which need their own ordered index: (project, (<base>_min < <base>_max),
-- "timestamp" DESC). An expression, not a partial index WHERE min <> max: PostgreSQL estimates
-- `min <> max` as nearly every row and would not pick the partial index, while ANALYZE gathers
-- the expression's statistics, so the (few) rows that differ are estimated as few.
-- logs.create_promoted_differs_indexes() makes the missing ones, in every lqe migrate run right
-- after logs.promote_field_columns(). An existing index is found by name first, so a run that
-- adds nothing takes no lock on the table (CREATE INDEX IF NOT EXISTS would wait for the inserts
-- in progress). Foreign partitions have no local index.

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

-- Studio's auth report filters on metadata.status (>= 400).
INSERT INTO logs.promoted_fields (source, path, bq_type) VALUES ('auth', 'metadata.status', 'INT64');
