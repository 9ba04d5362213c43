-- BOOL, INT64, FLOAT64 and STRING of a JSON value: the strict converters, an error (BigQuery's
-- message) when the JSON value is not of the type (JSON null included); SQL NULL gives NULL.
-- And TIME(hour, minute, second) with BigQuery's ranges, ARRAY_FIRST and ARRAY_LAST.

-- C's %g (6 significant digits), as BigQuery prints a JSON number in its errors.
CREATE OR REPLACE FUNCTION bq.printf_g(x double precision) RETURNS text
LANGUAGE plpgsql IMMUTABLE STRICT PARALLEL SAFE SET search_path = pg_catalog, pg_temp AS $$
DECLARE
  e int;
  m numeric;
BEGIN
  IF x = 0 THEN RETURN '0'; END IF;
  e := floor(log(abs(x)::numeric))::int;
  -- x / 10^e, exactly (a negative power of ten would be rounded by numeric's power()).
  m := CASE WHEN e >= 0 THEN x::numeric / power(10::numeric, e)
            ELSE x::numeric * power(10::numeric, -e) END;
  IF abs(round(m, 5)) >= 10 THEN
    e := e + 1;
    m := m / 10;
  END IF;
  IF e < -4 OR e >= 6 THEN
    RETURN trim_scale(round(m, 5))::text
           || 'e' || CASE WHEN e < 0 THEN '-' ELSE '+' END || CASE WHEN abs(e) < 10 THEN '0' ELSE '' END
           || abs(e);
  END IF;
  RETURN trim_scale(round(x::numeric, 5 - e))::text;
END
$$;

CREATE OR REPLACE FUNCTION bq.json_bool(j jsonb) RETURNS boolean
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
CREATE OR REPLACE FUNCTION bq.json_to_int64(j jsonb) RETURNS bigint
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

CREATE OR REPLACE FUNCTION bq.json_to_float64(j jsonb) RETURNS double precision
LANGUAGE plpgsql IMMUTABLE STRICT PARALLEL SAFE SET search_path = pg_catalog, pg_temp AS $$
BEGIN
  IF jsonb_typeof(j) <> 'number' THEN
    RAISE EXCEPTION 'The provided JSON input is not a number' USING ERRCODE = 'invalid_parameter_value';
  END IF;
  RETURN (j #>> '{}')::double precision;
END
$$;

CREATE OR REPLACE FUNCTION bq.json_to_string(j jsonb) RETURNS text
LANGUAGE plpgsql IMMUTABLE STRICT PARALLEL SAFE SET search_path = pg_catalog, pg_temp AS $$
BEGIN
  IF jsonb_typeof(j) <> 'string' THEN
    RAISE EXCEPTION 'The provided JSON input is not a string' USING ERRCODE = 'invalid_parameter_value';
  END IF;
  RETURN j #>> '{}';
END
$$;

-- TIME(hour, minute, second): BigQuery's ranges (a second of 60 carries into the next minute,
-- wrapping past midnight), else its error.
CREATE OR REPLACE FUNCTION bq.make_time(h bigint, m bigint, s bigint) RETURNS time
LANGUAGE plpgsql IMMUTABLE STRICT PARALLEL SAFE SET search_path = pg_catalog, pg_temp AS $$
BEGIN
  IF h NOT BETWEEN 0 AND 23 OR m NOT BETWEEN 0 AND 59 OR s NOT BETWEEN 0 AND 60 THEN
    RAISE EXCEPTION 'Input calculates to invalid time: %:%:%',
      lpad(h::text, 2, '0'), lpad(m::text, 2, '0'), lpad(s::text, 2, '0')
      USING ERRCODE = 'invalid_parameter_value';
  END IF;
  RETURN make_time(h::int, m::int, 0) + make_interval(secs => s);
END
$$;

-- ARRAY_FIRST / ARRAY_LAST: an empty array is an error (NULL array: NULL).
CREATE OR REPLACE FUNCTION bq.array_first(a anycompatiblearray) RETURNS anycompatible
LANGUAGE plpgsql IMMUTABLE STRICT PARALLEL SAFE SET search_path = pg_catalog, pg_temp AS $$
BEGIN
  IF coalesce(cardinality(a), 0) = 0 THEN
    RAISE EXCEPTION 'ARRAY_FIRST cannot get the first element of an empty array'
      USING ERRCODE = 'invalid_parameter_value';
  END IF;
  RETURN a[array_lower(a, 1)];
END
$$;

CREATE OR REPLACE FUNCTION bq.array_last(a anycompatiblearray) RETURNS anycompatible
LANGUAGE plpgsql IMMUTABLE STRICT PARALLEL SAFE SET search_path = pg_catalog, pg_temp AS $$
BEGIN
  IF coalesce(cardinality(a), 0) = 0 THEN
    RAISE EXCEPTION 'ARRAY_LAST cannot get the last element of an empty array'
      USING ERRCODE = 'invalid_parameter_value';
  END IF;
  RETURN a[array_upper(a, 1)];
END
$$;
