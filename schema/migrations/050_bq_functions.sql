-- Helper functions the translator's PostgreSQL output calls to keep BigQuery semantics
-- (SAFE_CAST, OFFSET/SAFE_OFFSET, APPROX_QUANTILES, JSON functions on text).
-- SAFE_CAST helpers validate with guards instead of exception blocks: a plpgsql exception
-- block opens a subtransaction, which PostgreSQL refuses inside a parallel query, so only
-- try_jsonb (no way to validate JSON without parsing it in PG 15) uses one and is PARALLEL UNSAFE.
CREATE SCHEMA IF NOT EXISTS bq;

-- INT64 from text: optional sign, decimal digits or 0x hex, surrounding spaces; NULL otherwise
-- or when outside the INT64 range.
CREATE OR REPLACE FUNCTION bq.safe_cast_int64(s text) RETURNS bigint
LANGUAGE plpgsql IMMUTABLE PARALLEL SAFE AS $$
DECLARE
  m text[];
  n numeric;
BEGIN
  IF s ~ '^\s*[+-]?[0-9]{1,40}\s*$' THEN
    n := btrim(s)::numeric;
  ELSE
    m := regexp_match(s, '^\s*([+-]?)0[xX]0*([0-9a-fA-F]{1,17})\s*$');
    IF m IS NULL THEN
      RETURN NULL;
    END IF;
    IF length(m[2]) > 16 THEN
      RETURN NULL;
    END IF;
    n := ('x' || lpad(m[2], 16, '0'))::bit(64)::bigint::numeric;
    IF n < 0 THEN  -- 16 hex digits from 8...: above INT64's maximum
      n := n + 18446744073709551616;
    END IF;
    IF m[1] = '-' THEN
      n := -n;
    END IF;
  END IF;
  IF n < -9223372036854775808 OR n > 9223372036854775807 THEN
    RETURN NULL;
  END IF;
  RETURN n::bigint;
END
$$;

-- FLOAT64 from text: decimal or exponent notation, inf/infinity/nan in any case.
CREATE OR REPLACE FUNCTION bq.safe_cast_float64(s text) RETURNS double precision
LANGUAGE plpgsql IMMUTABLE PARALLEL SAFE AS $$
DECLARE
  n numeric;
BEGIN
  IF s ~* '^\s*[+-]?(inf|infinity|nan)\s*$' THEN
    RETURN btrim(s)::double precision;
  END IF;
  IF s !~ '^\s*[+-]?([0-9]+\.?[0-9]*|\.[0-9]+)([eE][+-]?[0-9]{1,4})?\s*$' THEN
    RETURN NULL;
  END IF;
  n := btrim(s)::numeric;
  IF abs(n) > 1.7976931348623157e308 OR (n <> 0 AND abs(n) < 2.5e-324) THEN
    RETURN NULL;
  END IF;
  RETURN n::double precision;
END
$$;

-- NUMERIC (precision 38, scale 9): more than 9 decimals are rounded; NULL beyond 29 integer
-- digits.
CREATE OR REPLACE FUNCTION bq.safe_cast_numeric(s text) RETURNS numeric
LANGUAGE plpgsql IMMUTABLE PARALLEL SAFE AS $$
DECLARE
  n numeric;
BEGIN
  IF s !~ '^\s*[+-]?([0-9]+\.?[0-9]*|\.[0-9]+)([eE][+-]?[0-9]{1,4})?\s*$' THEN
    RETURN NULL;
  END IF;
  n := btrim(s)::numeric;
  IF scale(n) > 9 THEN
    n := trim_scale(round(n, 9));
  END IF;
  IF abs(n) >= 1e29 THEN
    RETURN NULL;
  END IF;
  RETURN n;
END
$$;

-- BOOL: BigQuery accepts exactly 'true' and 'false', in any case.
CREATE OR REPLACE FUNCTION bq.safe_cast_bool(s text) RETURNS boolean
LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT CASE lower(s) WHEN 'true' THEN true WHEN 'false' THEN false END
$$;

-- DATE from 'YYYY-[M]M-[D]D', years 1..9999, checked without raising.
CREATE OR REPLACE FUNCTION bq.safe_cast_date(s text) RETURNS date
LANGUAGE plpgsql IMMUTABLE PARALLEL SAFE AS $$
DECLARE
  m text[] := regexp_match(s, '^\s*([0-9]{4})-([0-9]{1,2})-([0-9]{1,2})\s*$');
  y int;
  mo int;
  d int;
BEGIN
  IF m IS NULL THEN
    RETURN NULL;
  END IF;
  y := m[1]::int;
  mo := m[2]::int;
  d := m[3]::int;
  IF y < 1 OR mo NOT BETWEEN 1 AND 12 OR d < 1
     OR d > extract(day FROM make_date(y, mo, 1) + interval '1 month' - interval '1 day') THEN
    RETURN NULL;
  END IF;
  RETURN make_date(y, mo, d);
END
$$;

-- DATETIME from 'YYYY-[M]M-[D]D[( |T)[H]H:[M]M:[S]S[.F{1,6}]]' (no time zone).
CREATE OR REPLACE FUNCTION bq.safe_cast_datetime(s text) RETURNS timestamp
LANGUAGE plpgsql IMMUTABLE PARALLEL SAFE AS $$
DECLARE
  m text[] := regexp_match(s, '^\s*([0-9]{4}-[0-9]{1,2}-[0-9]{1,2})'
                              '(?:[Tt ]([0-9]{1,2}):([0-9]{1,2}):([0-9]{1,2}(?:\.[0-9]{1,6})?))?'
                              '\s*$');
  d date;
BEGIN
  IF m IS NULL THEN
    RETURN NULL;
  END IF;
  d := bq.safe_cast_date(m[1]);
  IF d IS NULL OR coalesce(m[2]::int, 0) > 23 OR coalesce(m[3]::int, 0) > 59
     OR coalesce(m[4]::numeric, 0) >= 60 THEN
    RETURN NULL;
  END IF;
  RETURN d + make_interval(hours => coalesce(m[2]::int, 0), mins => coalesce(m[3]::int, 0),
                           secs => coalesce(m[4]::double precision, 0));
END
$$;

-- TIMESTAMP from a canonical datetime with an optional zone: Z, +HH[[:]MM], or a zone name
-- (after a space); no zone means UTC. Offsets are applied by hand: PostgreSQL reads '+05' as a
-- POSIX zone (west of Greenwich), the opposite of ISO 8601.
CREATE OR REPLACE FUNCTION bq.safe_cast_timestamp(s text) RETURNS timestamptz
LANGUAGE plpgsql STABLE PARALLEL SAFE AS $$
DECLARE
  parts text[] := regexp_match(s, '^\s*([0-9]{4}-[0-9]{1,2}-[0-9]{1,2}'
                                  '(?:[Tt ][0-9]{1,2}:[0-9]{1,2}:[0-9]{1,2}(?:\.[0-9]{1,6})?)?)'
                                  '(.*)$');
  local timestamp;
  zone text;
  m text[];
BEGIN
  IF parts IS NULL THEN
    RETURN NULL;
  END IF;
  local := bq.safe_cast_datetime(parts[1]);
  zone := btrim(parts[2]);
  IF local IS NULL THEN
    RETURN NULL;
  END IF;
  IF zone = '' OR zone IN ('Z', 'z') THEN
    RETURN local AT TIME ZONE 'UTC';
  END IF;
  m := regexp_match(zone, '^([+-])([0-9]{1,2})(?::?([0-9]{2}))?$');
  IF m IS NOT NULL THEN
    IF m[2]::int > 14 OR coalesce(m[3]::int, 0) > 59 THEN
      RETURN NULL;
    END IF;
    RETURN (local AT TIME ZONE 'UTC')
           - (CASE m[1] WHEN '-' THEN -1 ELSE 1 END)
             * make_interval(hours => m[2]::int, mins => coalesce(m[3]::int, 0));
  END IF;
  IF parts[2] !~ '^\s' OR zone !~ '^[A-Za-z][A-Za-z0-9_/+-]*$'
     OR NOT EXISTS (SELECT 1 FROM pg_catalog.pg_timezone_names WHERE name = zone) THEN
    RETURN NULL;
  END IF;
  RETURN local AT TIME ZONE zone;
END
$$;

-- arr[OFFSET(i)] / arr[SAFE_OFFSET(i)]: 0-based; out of range is NULL when safe, else an error.
CREATE OR REPLACE FUNCTION bq.array_at(arr anyarray, i bigint, safe boolean)
RETURNS anyelement
LANGUAGE plpgsql IMMUTABLE PARALLEL SAFE AS $$
BEGIN
  IF arr IS NULL OR i IS NULL THEN
    RETURN NULL;
  END IF;
  IF i < 0 OR i >= cardinality(arr) THEN
    IF safe THEN
      RETURN NULL;
    END IF;
    RAISE EXCEPTION 'array index % is out of bounds', i USING ERRCODE = 'array_subscript_error';
  END IF;
  RETURN arr[array_lower(arr, 1) + i::int];
END
$$;

-- The same on JSON: an array is indexed; a single object (a NULLABLE RECORD, which BigQuery
-- shows as a one-element array) has only offset 0; JSON null or SQL NULL gives NULL.
CREATE OR REPLACE FUNCTION bq.jsonb_at(j jsonb, i bigint, safe boolean) RETURNS jsonb
LANGUAGE plpgsql IMMUTABLE PARALLEL SAFE AS $$
DECLARE
  n bigint;
BEGIN
  IF j IS NULL OR i IS NULL OR jsonb_typeof(j) = 'null' THEN
    RETURN NULL;
  END IF;
  n := CASE WHEN jsonb_typeof(j) = 'array' THEN jsonb_array_length(j) ELSE 1 END;
  IF i < 0 OR i >= n THEN
    IF safe THEN
      RETURN NULL;
    END IF;
    RAISE EXCEPTION 'array index % is out of bounds', i USING ERRCODE = 'array_subscript_error';
  END IF;
  RETURN CASE WHEN jsonb_typeof(j) = 'array' THEN j -> i::int ELSE j END;
END
$$;

-- APPROX_QUANTILES(x, n): the fractions {0, 1/n, ..., 1} for percentile_disc.
CREATE OR REPLACE FUNCTION bq.quantile_fractions(n bigint) RETURNS double precision[]
LANGUAGE plpgsql IMMUTABLE PARALLEL SAFE AS $$
BEGIN
  IF n IS NULL THEN
    RETURN NULL;
  END IF;
  IF n < 1 OR n > 100000 THEN
    RAISE EXCEPTION 'APPROX_QUANTILES number of quantiles must be between 1 and 100000, got %', n
      USING ERRCODE = 'invalid_parameter_value';
  END IF;
  RETURN ARRAY(SELECT g::double precision / n FROM generate_series(0, n) AS g ORDER BY g);
END
$$;

-- JSON text to jsonb, NULL when the text is not valid JSON (JSON_VALUE & co. on a STRING).
CREATE OR REPLACE FUNCTION bq.try_jsonb(s text) RETURNS jsonb
LANGUAGE plpgsql IMMUTABLE PARALLEL UNSAFE AS $$
BEGIN
  RETURN s::jsonb;
EXCEPTION
  WHEN invalid_text_representation THEN
    RETURN NULL;
END
$$;

REVOKE ALL ON SCHEMA bq FROM PUBLIC;
GRANT USAGE ON SCHEMA bq TO lqe_gateway;
REVOKE EXECUTE ON ALL FUNCTIONS IN SCHEMA bq FROM PUBLIC;
GRANT EXECUTE ON ALL FUNCTIONS IN SCHEMA bq TO lqe_gateway;
