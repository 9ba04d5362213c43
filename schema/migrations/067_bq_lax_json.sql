-- LAX_BOOL, LAX_INT64, LAX_FLOAT64 and LAX_STRING: a JSON value converted leniently, NULL when
-- it cannot be (tests/oracle/cases/functions_more.sql). A JSON number is a FLOAT64 in BigQuery
-- unless it is an integer within INT64; a JSON string is read as text.

-- A decimal or exponent number in text (spaces around it allowed), exactly; NULL otherwise.
CREATE OR REPLACE FUNCTION bq.lax_numeric_text(s text) RETURNS numeric
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE SET search_path = pg_catalog, pg_temp AS $$
  SELECT CASE WHEN s ~ '^\s*[+-]?([0-9]+\.?[0-9]*|\.[0-9]+)([eE][+-]?[0-9]{1,4})?\s*$'
              THEN btrim(s, E' \t\n\r\x0b\f')::numeric END
$$;

-- A JSON number as BigQuery holds it: exact when an integer within INT64, else the double.
CREATE OR REPLACE FUNCTION bq.json_number_is_int64(n numeric) RETURNS boolean
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE SET search_path = pg_catalog, pg_temp AS $$
  SELECT n = trunc(n) AND n BETWEEN -9223372036854775808 AND 9223372036854775807
$$;

-- INT64 from a number rounded half away from zero; NULL outside INT64.
CREATE OR REPLACE FUNCTION bq.lax_int64_of(n numeric) RETURNS bigint
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE SET search_path = pg_catalog, pg_temp AS $$
  SELECT CASE WHEN round(n) BETWEEN -9223372036854775808 AND 9223372036854775807
              THEN round(n)::bigint END
$$;

CREATE OR REPLACE FUNCTION bq.lax_bool(j jsonb) RETURNS boolean
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE SET search_path = pg_catalog, pg_temp AS $$
  SELECT CASE jsonb_typeof(j)
           WHEN 'boolean' THEN (j #>> '{}')::boolean
           WHEN 'number' THEN (j #>> '{}')::numeric <> 0
           WHEN 'string' THEN CASE lower(j #>> '{}') WHEN 'true' THEN true WHEN 'false' THEN false END
         END
$$;

CREATE OR REPLACE FUNCTION bq.lax_int64(j jsonb) RETURNS bigint
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

CREATE OR REPLACE FUNCTION bq.lax_float64(j jsonb) RETURNS double precision
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
CREATE OR REPLACE FUNCTION bq.json_float_text(x double precision) RETURNS text
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE SET search_path = pg_catalog, pg_temp AS $$
  SELECT CASE WHEN abs(x) >= 1e15 AND abs(x) < 1e17 THEN bq.float_text(x)::numeric::text
              ELSE bq.float_text(x) END
$$;

CREATE OR REPLACE FUNCTION bq.lax_string(j jsonb) RETURNS text
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
