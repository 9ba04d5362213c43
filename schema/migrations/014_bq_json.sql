-- The bq.* function library (see 009_bq_core.sql): reads of catalogued JSON values, REPEATED
-- records, TO_JSON, the LAX_ and strict converters of a JSON value.

-- Reads of catalogued scalars out of jsonb (the translator emits these for INT64 and FLOAT64
-- fields). A stored value may disagree with the catalogue (lqe keeps such events whole and counts
-- them in logs.catalogue_conflicts), so a value that cannot be read as the type is NULL instead
-- of an error that fails the whole query. The common case (a JSON number's text) takes a plain
-- cast; plain SQL so the planner inlines it.
CREATE FUNCTION bq.json_int64(s text) RETURNS bigint
LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT CASE WHEN s ~ '^-?[0-9]{1,18}$' THEN s::bigint ELSE bq.safe_cast_int64(s) END
$$;

CREATE FUNCTION bq.json_float64(s text) RETURNS double precision
LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT CASE WHEN s ~ '^-?[0-9]{1,255}(\.[0-9]{1,255})?$' THEN s::double precision
              ELSE bq.safe_cast_float64(s) END
$$;

-- UNNEST of a REPEATED field: a stored value that is not a JSON array gives no rows (NULL)
-- instead of jsonb_array_elements' error.
CREATE FUNCTION bq.json_array(j jsonb) RETURNS jsonb
LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT CASE WHEN jsonb_typeof(j) = 'array' THEN j END
$$;

-- A REPEATED record read out of jsonb (the translator emits this for every nested record, which
-- is REPEATED as in Logflare's BigQuery schema). Events send a record as an object or as an array
-- of objects: an object is the array of that one record, an array stays as it is, and a missing
-- (or any other) value is BigQuery's empty array. Plain SQL so the planner inlines it.
CREATE FUNCTION bq.json_records(j jsonb) RETURNS jsonb
LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT CASE jsonb_typeof(j)
           WHEN 'object' THEN jsonb_build_array(j)
           WHEN 'array' THEN j
           ELSE '[]'::jsonb
         END
$$;

-- UNNEST of a REPEATED record: its elements, by the same rules (an object is one element; a
-- missing value none). PL/pgSQL, so it is not inlined and the planner keeps its estimate of one
-- row per event (the usual case): with jsonb_array_elements' 100 it would sort a whole project
-- instead of reading the (project, timestamp) index up to the LIMIT.
CREATE FUNCTION bq.json_record_elements(j jsonb) RETURNS SETOF jsonb
LANGUAGE plpgsql IMMUTABLE PARALLEL SAFE ROWS 1 AS $$
BEGIN
  IF jsonb_typeof(j) = 'object' THEN
    RETURN NEXT j;
  ELSIF jsonb_typeof(j) = 'array' THEN
    RETURN QUERY SELECT e FROM jsonb_array_elements(j) AS e;
  END IF;
END
$$;

-- TO_JSON_STRING of scalars, as BigQuery writes them: INT64 beyond +-2^53 as a string, the
-- non-finite FLOAT64s as "NaN" / "Infinity" / "-Infinity", NUMERIC as a string, BYTES as base64,
-- TIMESTAMP as RFC 3339 in UTC with 0, 3 or 6 fraction digits, DATETIME and TIME likewise.
CREATE FUNCTION bq.to_json_int64(x bigint) RETURNS text
LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT CASE WHEN x IS NULL THEN 'null'
              WHEN x BETWEEN -9007199254740992 AND 9007199254740992 THEN x::text
              ELSE '"' || x::text || '"' END
$$;

CREATE FUNCTION bq.to_json_float64(x double precision) RETURNS text
LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT CASE WHEN x IS NULL THEN 'null'
              WHEN x = 'NaN' THEN '"NaN"'
              WHEN x = 'Infinity' THEN '"Infinity"'
              WHEN x = '-Infinity' THEN '"-Infinity"'
              ELSE bq.float_text(x) END
$$;

CREATE FUNCTION bq.json_quoted(s text) RETURNS text
LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT coalesce(to_jsonb(s)::text, 'null')
$$;

-- The same over arrays held as jsonb (an ARRAY field of a STRUCT): a value that is not a JSON
-- array (SQL NULL, JSON null) is skipped.
CREATE FUNCTION bq.json_array_cat(acc jsonb, a jsonb) RETURNS jsonb
LANGUAGE sql IMMUTABLE PARALLEL SAFE SET search_path = pg_catalog, pg_temp AS $$
  SELECT CASE WHEN a IS NULL OR jsonb_typeof(a) <> 'array' THEN acc
              WHEN acc IS NULL THEN a
              ELSE acc || a END
$$;

CREATE AGGREGATE bq.json_array_concat_agg(jsonb) (
  SFUNC = bq.json_array_cat,
  STYPE = jsonb
);

-- LAX_BOOL, LAX_INT64, LAX_FLOAT64 and LAX_STRING: a JSON value converted leniently, NULL when
-- it cannot be (tests/oracle/cases/functions_more.sql). A JSON number is a FLOAT64 in BigQuery
-- unless it is an integer within INT64; a JSON string is read as text.

-- A decimal or exponent number in text (spaces around it allowed), exactly; NULL otherwise.
CREATE FUNCTION bq.lax_numeric_text(s text) RETURNS numeric
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE SET search_path = pg_catalog, pg_temp AS $$
  SELECT CASE WHEN s ~ '^\s*[+-]?([0-9]+\.?[0-9]*|\.[0-9]+)([eE][+-]?[0-9]{1,4})?\s*$'
              THEN btrim(s, E' \t\n\r\x0b\f')::numeric END
$$;

-- A JSON number as BigQuery holds it: exact when an integer within INT64, else the double.
CREATE FUNCTION bq.json_number_is_int64(n numeric) RETURNS boolean
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE SET search_path = pg_catalog, pg_temp AS $$
  SELECT n = trunc(n) AND n BETWEEN -9223372036854775808 AND 9223372036854775807
$$;

-- INT64 from a number rounded half away from zero; NULL outside INT64.
CREATE FUNCTION bq.lax_int64_of(n numeric) RETURNS bigint
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE SET search_path = pg_catalog, pg_temp AS $$
  SELECT CASE WHEN round(n) BETWEEN -9223372036854775808 AND 9223372036854775807
              THEN round(n)::bigint END
$$;

CREATE FUNCTION bq.lax_bool(j jsonb) RETURNS boolean
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE SET search_path = pg_catalog, pg_temp AS $$
  SELECT CASE jsonb_typeof(j)
           WHEN 'boolean' THEN (j #>> '{}')::boolean
           WHEN 'number' THEN (j #>> '{}')::numeric <> 0
           WHEN 'string' THEN CASE lower(j #>> '{}') WHEN 'true' THEN true WHEN 'false' THEN false END
         END
$$;

CREATE FUNCTION bq.lax_int64(j jsonb) RETURNS bigint
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE SET search_path = pg_catalog, pg_temp AS $$
  SELECT CASE jsonb_typeof(j)
           WHEN 'boolean' THEN CASE WHEN (j #>> '{}')::boolean THEN 1 ELSE 0 END
           WHEN 'number' THEN
             CASE WHEN bq.json_number_is_int64((j #>> '{}')::numeric) THEN (j #>> '{}')::numeric::bigint
                  WHEN abs((j #>> '{}')::numeric) < 1e19
                    THEN bq.lax_int64_of(((j #>> '{}')::double precision)::numeric) END
           WHEN 'string' THEN bq.lax_int64_of(bq.lax_numeric_text(j #>> '{}'))
         END
$$;

CREATE FUNCTION bq.lax_float64(j jsonb) RETURNS double precision
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE SET search_path = pg_catalog, pg_temp AS $$
  SELECT CASE jsonb_typeof(j)
           WHEN 'number' THEN
             CASE WHEN abs((j #>> '{}')::numeric) <= 1.7976931348623157e308
                  THEN (j #>> '{}')::double precision END
           WHEN 'string' THEN
             coalesce(bq.safe_cast_float64(j #>> '{}'),
                      CASE WHEN (j #>> '{}') ~* '^\s*[+-]?0x[0-9a-f]+\s*$'
                           THEN bq.safe_cast_int64(j #>> '{}')::double precision END)
         END
$$;

-- A FLOAT64 as BigQuery writes a JSON number: shortest round-trip digits, in exponent form
-- below 1e-5 or from 1e17 on (PostgreSQL's float text switches at 1e15).
CREATE FUNCTION bq.json_float_text(x double precision) RETURNS text
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE SET search_path = pg_catalog, pg_temp AS $$
  SELECT CASE WHEN abs(x) >= 1e15 AND abs(x) < 1e17 THEN bq.float_text(x)::numeric::text
              ELSE bq.float_text(x) END
$$;

CREATE FUNCTION bq.lax_string(j jsonb) RETURNS text
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE SET search_path = pg_catalog, pg_temp AS $$
  SELECT CASE jsonb_typeof(j)
           WHEN 'string' THEN j #>> '{}'
           WHEN 'boolean' THEN j #>> '{}'
           WHEN 'number' THEN
             CASE WHEN bq.json_number_is_int64((j #>> '{}')::numeric) THEN ((j #>> '{}')::numeric::bigint)::text
                  WHEN abs((j #>> '{}')::numeric) <= 1.7976931348623157e308
                    THEN bq.json_float_text((j #>> '{}')::double precision) END
         END
$$;

CREATE FUNCTION bq.json_bool(j jsonb) RETURNS boolean
LANGUAGE plpgsql IMMUTABLE STRICT PARALLEL SAFE SET search_path = pg_catalog, pg_temp AS $$
BEGIN
  IF jsonb_typeof(j) <> 'boolean' THEN
    RAISE EXCEPTION 'The provided JSON input is not a boolean' USING ERRCODE = 'invalid_parameter_value';
  END IF;
  RETURN (j #>> '{}')::boolean;
END
$$;

-- An integer literal converts exactly; a number written with a fraction or an exponent is read
-- as a double first (so 9223372036854775807.0 is out of range, as in BigQuery).
CREATE FUNCTION bq.json_to_int64(j jsonb) RETURNS bigint
LANGUAGE plpgsql IMMUTABLE STRICT PARALLEL SAFE SET search_path = pg_catalog, pg_temp AS $$
DECLARE
  t text := j #>> '{}';
  n numeric;
BEGIN
  IF jsonb_typeof(j) <> 'number' THEN
    RAISE EXCEPTION 'The provided JSON input is not an integer' USING ERRCODE = 'invalid_parameter_value';
  END IF;
  n := t::numeric;
  IF t !~ '^-?[0-9]+$' AND abs(n) <= 1.7976931348623157e308 THEN
    n := t::double precision::numeric;
  END IF;
  IF n <> trunc(n) OR n < -9223372036854775808 OR n > 9223372036854775807 THEN
    RAISE EXCEPTION 'The provided JSON number: % cannot be converted to an integer',
      bq.printf_g(t::numeric::double precision) USING ERRCODE = 'invalid_parameter_value';
  END IF;
  RETURN n::bigint;
END
$$;

CREATE FUNCTION bq.json_to_float64(j jsonb) RETURNS double precision
LANGUAGE plpgsql IMMUTABLE STRICT PARALLEL SAFE SET search_path = pg_catalog, pg_temp AS $$
BEGIN
  IF jsonb_typeof(j) <> 'number' THEN
    RAISE EXCEPTION 'The provided JSON input is not a number' USING ERRCODE = 'invalid_parameter_value';
  END IF;
  RETURN (j #>> '{}')::double precision;
END
$$;

CREATE FUNCTION bq.json_to_string(j jsonb) RETURNS text
LANGUAGE plpgsql IMMUTABLE STRICT PARALLEL SAFE SET search_path = pg_catalog, pg_temp AS $$
BEGIN
  IF jsonb_typeof(j) <> 'string' THEN
    RAISE EXCEPTION 'The provided JSON input is not a string' USING ERRCODE = 'invalid_parameter_value';
  END IF;
  RETURN j #>> '{}';
END
$$;

