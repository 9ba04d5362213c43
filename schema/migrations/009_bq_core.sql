-- The bq.* function library: helpers the translator's PostgreSQL output calls to keep BigQuery
-- semantics. This file: the core (SAFE_CAST, OFFSET/SAFE_OFFSET, APPROX_QUANTILES and
-- PERCENTILE_*, JSON text, SUBSTR/SPLIT, REPEAT/LPAD/RPAD and GENERATE_*_ARRAY with their size
-- caps); the other bq_ files add text, time, format, math, JSON, regex and network functions.
-- SAFE_CAST helpers validate with guards instead of exception blocks: a plpgsql exception
-- block opens a subtransaction, which PostgreSQL refuses inside a parallel query, so only
-- try_jsonb (no way to validate JSON without parsing it in PG 15) uses one and is PARALLEL UNSAFE.
CREATE SCHEMA IF NOT EXISTS bq;

-- INT64 from text: optional sign, decimal digits or 0x hex, surrounding spaces; NULL otherwise
-- or when outside the INT64 range.
CREATE FUNCTION bq.safe_cast_int64(s text) RETURNS bigint
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
CREATE FUNCTION bq.safe_cast_float64(s text) RETURNS double precision
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
CREATE FUNCTION bq.safe_cast_numeric(s text) RETURNS numeric
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
CREATE FUNCTION bq.safe_cast_bool(s text) RETURNS boolean
LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT CASE lower(s) WHEN 'true' THEN true WHEN 'false' THEN false END
$$;

-- DATE from 'YYYY-[M]M-[D]D', years 1..9999, checked without raising.
CREATE FUNCTION bq.safe_cast_date(s text) RETURNS date
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
CREATE FUNCTION bq.safe_cast_datetime(s text) RETURNS timestamp
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
CREATE FUNCTION bq.safe_cast_timestamp(s text) RETURNS timestamptz
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
CREATE FUNCTION bq.array_at(arr anyarray, i bigint, safe boolean)
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
CREATE FUNCTION bq.jsonb_at(j jsonb, i bigint, safe boolean) RETURNS jsonb
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
CREATE FUNCTION bq.quantile_fractions(n bigint) RETURNS double precision[]
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
CREATE FUNCTION bq.try_jsonb(s text) RETURNS jsonb
LANGUAGE plpgsql IMMUTABLE PARALLEL UNSAFE AS $$
BEGIN
  RETURN s::jsonb;
EXCEPTION
  WHEN invalid_text_representation THEN
    RETURN NULL;
END
$$;

-- SUBSTR(s, pos[, len]): 1-based; pos 0 is 1; a negative pos counts from the end; a negative
-- len is an error in BigQuery. plpgsql, so the error branch is never folded at plan time.
CREATE FUNCTION bq.substr(s text, pos bigint, len bigint DEFAULT NULL) RETURNS text
LANGUAGE plpgsql IMMUTABLE PARALLEL SAFE AS $$
BEGIN
  IF s IS NULL OR pos IS NULL THEN
    RETURN NULL;
  END IF;
  IF len < 0 THEN
    RAISE EXCEPTION 'SUBSTR length must not be negative' USING ERRCODE = 'invalid_parameter_value';
  END IF;
  RETURN substr(s,
                CASE WHEN pos > 0 THEN pos
                     WHEN pos = 0 THEN 1
                     ELSE greatest(char_length(s) + pos + 1, 1) END::int,
                coalesce(len, char_length(s) + 1)::int);
END
$$;

-- SPLIT(s, d): '' splits to [''] and an empty delimiter splits into characters, as in BigQuery.
CREATE FUNCTION bq.split(s text, d text) RETURNS text[]
LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT CASE
    WHEN s IS NULL OR d IS NULL THEN NULL
    WHEN s = '' THEN ARRAY['']
    WHEN d = '' THEN regexp_split_to_array(s, '')
    ELSE string_to_array(s, d)
  END
$$;

-- JSON_VALUE: the text of a JSON scalar; NULL for objects, arrays and JSON null.
CREATE FUNCTION bq.json_scalar(j jsonb) RETURNS text
LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT CASE WHEN jsonb_typeof(j) IN ('object', 'array', 'null') THEN NULL ELSE j #>> '{}' END
$$;

-- JSON text without insignificant whitespace, as BigQuery prints JSON (JSON_QUERY on a STRING,
-- TO_JSON_STRING); PG's jsonb output puts a space after ':' and ','. plpgsql because it recurses.
CREATE FUNCTION bq.json_text(j jsonb) RETURNS text
LANGUAGE plpgsql IMMUTABLE PARALLEL SAFE AS $$
BEGIN
  RETURN CASE jsonb_typeof(j)
    WHEN 'object' THEN '{' || coalesce((SELECT string_agg(to_jsonb(e.k)::text || ':' || bq.json_text(e.v), ',')
                                        FROM jsonb_each(j) AS e(k, v)), '') || '}'
    WHEN 'array' THEN '[' || coalesce((SELECT string_agg(bq.json_text(e.v), ',' ORDER BY e.n)
                                       FROM jsonb_array_elements(j) WITH ORDINALITY AS e(v, n)), '') || ']'
    ELSE j::text
  END;
END
$$;

-- PERCENTILE_CONT(x, p) OVER (PARTITION BY ...): the translator passes the partition's values
-- as array_agg(x) OVER (PARTITION BY ...). NULLs are ignored, as in BigQuery.
CREATE FUNCTION bq.percentile_cont(vals double precision[], p double precision)
RETURNS double precision
LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT percentile_cont(p) WITHIN GROUP (ORDER BY v) FROM unnest(vals) AS v
$$;

CREATE FUNCTION bq.percentile_disc(vals anyarray, p double precision)
RETURNS anyelement
LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT percentile_disc(p) WITHIN GROUP (ORDER BY v) FROM unnest(vals) AS v
$$;

-- REPEAT / LPAD / RPAD: a negative count or an empty pad pattern is an error in BigQuery (PG
-- returns ''), and so is a result above 1 MB.
CREATE FUNCTION bq.repeat(s text, n bigint) RETURNS text
LANGUAGE plpgsql IMMUTABLE PARALLEL SAFE AS $$
BEGIN
  IF n < 0 THEN
    RAISE EXCEPTION 'Second argument (repeat count) for REPEAT cannot be negative'
      USING ERRCODE = 'invalid_parameter_value';
  END IF;
  IF n > 0 AND octet_length(s)::numeric * n > 1048576 THEN
    RAISE EXCEPTION 'REPEAT result would exceed the limit of 1048576 bytes'
      USING ERRCODE = 'invalid_parameter_value';
  END IF;
  RETURN repeat(s, n::int);
END
$$;

CREATE FUNCTION bq.lpad(s text, n bigint, fill text DEFAULT ' ') RETURNS text
LANGUAGE plpgsql IMMUTABLE PARALLEL SAFE AS $$
BEGIN
  PERFORM bq.pad_check(n, fill, 'LPAD');
  RETURN lpad(s, n::int, fill);
END
$$;

CREATE FUNCTION bq.rpad(s text, n bigint, fill text DEFAULT ' ') RETURNS text
LANGUAGE plpgsql IMMUTABLE PARALLEL SAFE AS $$
BEGIN
  PERFORM bq.pad_check(n, fill, 'RPAD');
  RETURN rpad(s, n::int, fill);
END
$$;

-- GENERATE_ARRAY(start, stop[, step]): at most 1000000 elements. NULL arguments give an empty
-- array.
CREATE FUNCTION bq.generate_array(start bigint, stop bigint, step bigint DEFAULT 1)
RETURNS bigint[]
LANGUAGE plpgsql IMMUTABLE PARALLEL SAFE AS $$
BEGIN
  IF step <> 0 AND (stop::numeric - start) / step >= 1000000 THEN
    RAISE EXCEPTION 'GENERATE_ARRAY would produce more than 1000000 elements'
      USING ERRCODE = 'invalid_parameter_value';
  END IF;
  RETURN ARRAY(SELECT generate_series(start, stop, step));
END
$$;

CREATE FUNCTION bq.generate_array(start double precision, stop double precision,
                                             step double precision DEFAULT 1)
RETURNS double precision[]
LANGUAGE plpgsql IMMUTABLE PARALLEL SAFE AS $$
BEGIN
  IF step <> 0 AND (stop - start) / step >= 1000000 THEN
    RAISE EXCEPTION 'GENERATE_ARRAY would produce more than 1000000 elements'
      USING ERRCODE = 'invalid_parameter_value';
  END IF;
  RETURN ARRAY(SELECT generate_series(start::numeric, stop::numeric, step::numeric)::double precision);
END
$$;

-- GENERATE_TIMESTAMP_ARRAY / GENERATE_DATE_ARRAY: at most 1000000 elements (a month step
-- counted as 30 days, as PostgreSQL's epoch of an interval counts it).
CREATE FUNCTION bq.generate_timestamp_array(start timestamptz, stop timestamptz,
                                                       step interval)
RETURNS timestamptz[]
LANGUAGE plpgsql STABLE PARALLEL SAFE AS $$
BEGIN
  IF extract(epoch FROM step) <> 0
     AND extract(epoch FROM stop - start) / extract(epoch FROM step) >= 1000000 THEN
    RAISE EXCEPTION 'GENERATE_TIMESTAMP_ARRAY would produce more than 1000000 elements'
      USING ERRCODE = 'invalid_parameter_value';
  END IF;
  RETURN ARRAY(SELECT generate_series(start, stop, step));
END
$$;

CREATE FUNCTION bq.generate_date_array(start date, stop date,
                                                  step interval DEFAULT interval '1 day')
RETURNS date[]
LANGUAGE plpgsql IMMUTABLE PARALLEL SAFE AS $$
BEGIN
  IF extract(epoch FROM step) <> 0
     AND extract(epoch FROM stop::timestamp - start::timestamp) / extract(epoch FROM step)
         >= 1000000 THEN
    RAISE EXCEPTION 'GENERATE_DATE_ARRAY would produce more than 1000000 elements'
      USING ERRCODE = 'invalid_parameter_value';
  END IF;
  RETURN ARRAY(SELECT generate_series(start::timestamp, stop::timestamp, step)::date);
END
$$;

-- Only the roles lqe configures use the library: PUBLIC has no USAGE on schema bq, nor EXECUTE on
-- the core functions. The gateway roles get both (logs.configure_gateway_role grants every
-- function of the library to this database's role).
REVOKE ALL ON SCHEMA bq FROM PUBLIC;
GRANT USAGE ON SCHEMA bq TO lqe_gateway;
REVOKE EXECUTE ON ALL FUNCTIONS IN SCHEMA bq FROM PUBLIC;
GRANT EXECUTE ON ALL FUNCTIONS IN SCHEMA bq TO lqe_gateway;
