-- Promoted fields: a nested field that filters hit often gets an index on exactly the expression
-- the translator emits for reading it (a jsonb read, wrapped in the tolerant bq.json_* cast of
-- its catalogue type), so consumer queries and LQL use it without any change to them. Postgres
-- also gathers statistics on an index expression, so predicates on the field are estimated from
-- its real distribution instead of a default guess. CREATE INDEX builds it over the existing
-- partitions (no table rewrite) and every later partition inherits it; both lqe load and HTTP
-- ingest maintain it as they insert.
--
-- Declared as rows of logs.promoted_fields; `lqe migrate` creates the missing indexes after the
-- migrations (the bq.* functions the expressions call come with migration 050 onwards), so a
-- field is promoted with INSERT INTO logs.promoted_fields ... and a run of lqe migrate.
CREATE TABLE logs.promoted_fields (
  source text NOT NULL,
  path text NOT NULL,
  bq_type text NOT NULL,
  index_name text,
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

-- The translator's read of a catalogued scalar: metadata.a.b of type INT64 is
-- bq.json_int64(((metadata -> 'a') ->> 'b')). Keep in step with translator/src/pg (emit_access).
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
  expr := quote_ident(parts[1]);
  FOR i IN 2 .. array_length(parts, 1) - 1 LOOP
    expr := '(' || expr || ' -> ' || quote_literal(parts[i]) || ')';
  END LOOP;
  expr := '(' || expr || ' ->> ' || quote_literal(parts[array_length(parts, 1)]) || ')';
  RETURN CASE kind
    WHEN 'INT64' THEN 'bq.json_int64(' || expr || ')'
    WHEN 'FLOAT64' THEN 'bq.json_float64(' || expr || ')'
    WHEN 'BOOL' THEN 'bq.safe_cast_bool(' || expr || ')'
    ELSE expr
  END;
END
$fn$;

-- Creates the indexes of the declared fields that have none yet; returns their names.
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

-- The edge fields Studio's filters use most.
INSERT INTO logs.promoted_fields (source, path, bq_type) VALUES
  ('edge', 'metadata.response.status_code', 'INT64'),
  ('edge', 'metadata.request.method', 'STRING');
