-- The bq.* function library (see 009_bq_core.sql): arithmetic with BigQuery's overflow errors
-- and rounding, PARSE_NUMERIC, RANGE_BUCKET and array aggregates and accessors.

-- SUM over INT64 that raises the INT64 overflow while aggregating, as BigQuery does for every
-- group it computes, including groups HAVING then removes. PG's sum(bigint) gives numeric and a
-- ::bigint cast in the select list is only evaluated for the rows that are output. The sum is
-- exact until the end (BigQuery accumulates in 128 bits: MAX + 1 - 1 is MAX, not an error), so
-- the state is numeric and only the final value must fit. The moving-frame functions keep
-- windowed SUM linear.
CREATE FUNCTION bq.sum_int64_final(s numeric) RETURNS bigint
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE AS $$
  SELECT s::bigint
$$;

CREATE AGGREGATE bq.sum_int64(numeric) (
  SFUNC = numeric_add,
  STYPE = numeric,
  COMBINEFUNC = numeric_add,
  FINALFUNC = bq.sum_int64_final,
  MSFUNC = numeric_add,
  MINVFUNC = numeric_sub,
  MSTYPE = numeric,
  MFINALFUNC = bq.sum_int64_final,
  PARALLEL = SAFE
);

-- ROUND / TRUNC of a FLOAT64 act on the double's exact binary value (ROUND(0.075, 2) is 0.07,
-- since 0.075 is 0.07499999...), ties away from zero; PG's float8 -> numeric keeps 15 digits.
-- bq.float_exact reads the magnitude only, so the sign is put back.
CREATE FUNCTION bq.round_float(x double precision, places int DEFAULT 0)
RETURNS double precision
LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT CASE WHEN x IS NULL OR places IS NULL THEN NULL
              WHEN x = 'NaN' OR x IN ('Infinity', '-Infinity') THEN x
              ELSE (sign(x)::numeric * round(bq.float_exact(abs(x)), greatest(least(places, 400), -400)))::double precision END
$$;

CREATE FUNCTION bq.trunc_float(x double precision, places int DEFAULT 0)
RETURNS double precision
LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT CASE WHEN x IS NULL OR places IS NULL THEN NULL
              WHEN x = 'NaN' OR x IN ('Infinity', '-Infinity') THEN x
              ELSE (sign(x)::numeric * trunc(bq.float_exact(abs(x)), greatest(least(places, 400), -400)))::double precision END
$$;

-- INT64 shifts: `>>` is logical (the sign bit is not copied), a shift by 64 or more gives 0, a
-- negative shift is an error.
CREATE FUNCTION bq.shift_right(x bigint, n bigint) RETURNS bigint
LANGUAGE plpgsql IMMUTABLE STRICT PARALLEL SAFE AS $$
BEGIN
  IF n < 0 THEN
    RAISE EXCEPTION 'Bitwise shift by negative offset.' USING ERRCODE = '22003';
  END IF;
  IF n >= 64 THEN RETURN 0; END IF;
  IF n = 0 THEN RETURN x; END IF;
  RETURN (x >> n::int) & ~((-1)::bigint << (64 - n)::int);
END
$$;

CREATE FUNCTION bq.shift_left(x bigint, n bigint) RETURNS bigint
LANGUAGE plpgsql IMMUTABLE STRICT PARALLEL SAFE AS $$
BEGIN
  IF n < 0 THEN
    RAISE EXCEPTION 'Bitwise shift by negative offset.' USING ERRCODE = '22003';
  END IF;
  IF n >= 64 THEN RETURN 0; END IF;
  RETURN x << n::int;
END
$$;

-- CAST(s AS INT64) of hex text (0x1F, -0x10): bq.safe_cast_int64's reading, an error when invalid.
CREATE FUNCTION bq.cast_int64(s text) RETURNS bigint
LANGUAGE plpgsql IMMUTABLE PARALLEL SAFE AS $$
DECLARE
  r bigint := bq.safe_cast_int64(s);
BEGIN
  IF r IS NULL AND s IS NOT NULL THEN
    RAISE EXCEPTION 'Bad int64 value: %', s USING ERRCODE = 'invalid_text_representation';
  END IF;
  RETURN r;
END
$$;

-- SAFE_ADD / SAFE_SUBTRACT / SAFE_MULTIPLY / SAFE_NEGATE: NULL instead of an overflow error.
-- PARALLEL RESTRICTED: the exception block is a subtransaction.
CREATE FUNCTION bq.safe_add(a bigint, b bigint) RETURNS bigint
LANGUAGE plpgsql IMMUTABLE PARALLEL RESTRICTED AS $$
BEGIN RETURN a + b; EXCEPTION WHEN numeric_value_out_of_range THEN RETURN NULL; END
$$;

CREATE FUNCTION bq.safe_add(a double precision, b double precision) RETURNS double precision
LANGUAGE plpgsql IMMUTABLE PARALLEL RESTRICTED AS $$
BEGIN RETURN a + b; EXCEPTION WHEN numeric_value_out_of_range THEN RETURN NULL; END
$$;

CREATE FUNCTION bq.safe_add(a numeric, b numeric) RETURNS numeric
LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$ SELECT a + b $$;

CREATE FUNCTION bq.safe_subtract(a bigint, b bigint) RETURNS bigint
LANGUAGE plpgsql IMMUTABLE PARALLEL RESTRICTED AS $$
BEGIN RETURN a - b; EXCEPTION WHEN numeric_value_out_of_range THEN RETURN NULL; END
$$;

CREATE FUNCTION bq.safe_subtract(a double precision, b double precision)
RETURNS double precision
LANGUAGE plpgsql IMMUTABLE PARALLEL RESTRICTED AS $$
BEGIN RETURN a - b; EXCEPTION WHEN numeric_value_out_of_range THEN RETURN NULL; END
$$;

CREATE FUNCTION bq.safe_subtract(a numeric, b numeric) RETURNS numeric
LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$ SELECT a - b $$;

CREATE FUNCTION bq.safe_multiply(a bigint, b bigint) RETURNS bigint
LANGUAGE plpgsql IMMUTABLE PARALLEL RESTRICTED AS $$
BEGIN RETURN a * b; EXCEPTION WHEN numeric_value_out_of_range THEN RETURN NULL; END
$$;

CREATE FUNCTION bq.safe_multiply(a double precision, b double precision)
RETURNS double precision
LANGUAGE plpgsql IMMUTABLE PARALLEL RESTRICTED AS $$
BEGIN RETURN a * b; EXCEPTION WHEN numeric_value_out_of_range THEN RETURN NULL; END
$$;

CREATE FUNCTION bq.safe_multiply(a numeric, b numeric) RETURNS numeric
LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$ SELECT a * b $$;

CREATE FUNCTION bq.safe_negate(a bigint) RETURNS bigint
LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT CASE WHEN a = -9223372036854775808 THEN NULL ELSE -a END
$$;

CREATE FUNCTION bq.safe_negate(a double precision) RETURNS double precision
LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$ SELECT -a $$;

CREATE FUNCTION bq.safe_negate(a numeric) RETURNS numeric
LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$ SELECT -a $$;

-- IEEE_DIVIDE: division by zero gives +-inf or NaN instead of an error.
CREATE FUNCTION bq.ieee_divide(x double precision, y double precision)
RETURNS double precision
LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT CASE WHEN y <> 0 OR x IS NULL OR y IS NULL THEN x / y
              WHEN x = 'NaN' OR x = 0 THEN 'NaN'::double precision
              WHEN (x > 0) = (float8send(y) = float8send(0::double precision))
                THEN 'Infinity'::double precision
              ELSE '-Infinity'::double precision END
$$;

-- RANGE_BUCKET(point, boundaries): how many boundaries are <= point. The boundaries must be in
-- ascending order, without NULL or NaN (errors as BigQuery's, positions 1-based).
CREATE FUNCTION bq.range_bucket(x anycompatible, a anycompatiblearray) RETURNS bigint
LANGUAGE plpgsql IMMUTABLE STRICT PARALLEL SAFE SET search_path = pg_catalog, pg_temp AS $$
DECLARE
  n int := coalesce(cardinality(a), 0);
  below bigint := 0;
BEGIN
  FOR i IN 1 .. n LOOP
    IF a[i]::text = 'NaN' THEN
      RAISE EXCEPTION 'Elements in input array to RANGE_BUCKET cannot be NaN. NaN element found at position %',
        i USING ERRCODE = 'invalid_parameter_value';
    END IF;
    IF i > 1 AND (a[i] IS NULL OR a[i - 1] IS NULL OR a[i] < a[i - 1]) THEN
      RAISE EXCEPTION 'Elements in input array to RANGE_BUCKET must be in ascending order. Nonconforming elements found at position % and %',
        i - 1, i USING ERRCODE = 'invalid_parameter_value';
    END IF;
    IF a[i] <= x THEN below := below + 1; END IF;
  END LOOP;
  RETURN below;
END
$$;

-- ARRAY_CONCAT_AGG: the arrays concatenated in input order; NULL arrays are skipped, and no
-- (or only NULL) arrays give NULL.
CREATE AGGREGATE bq.array_concat_agg(anycompatiblearray) (
  SFUNC = array_cat,
  STYPE = anycompatiblearray
);

-- PARSE_NUMERIC: BigQuery's lenient NUMERIC text. Spaces around the text and between the sign and
-- the digits, the sign before or after the number, commas anywhere in the integer part, an
-- exponent; rounded half away from zero to 9 decimals. Invalid text or a value beyond NUMERIC's
-- 29 integer digits is NULL here, an error in bq.parse_numeric.
CREATE FUNCTION bq.safe_parse_numeric(s text) RETURNS numeric
LANGUAGE plpgsql IMMUTABLE STRICT PARALLEL SAFE SET search_path = pg_catalog, pg_temp AS $$
DECLARE
  m text[];
  digits text;
  exponent numeric;
  n numeric;
BEGIN
  m := regexp_match(s, '^\s*([+-]?)\s*([0-9,]*)((\.[0-9]*)?)(([eE][+-]?[0-9]+)?)\s*([+-]?)\s*$');
  IF m IS NULL OR (m[1] <> '' AND m[7] <> '') THEN RETURN NULL; END IF;
  digits := replace(m[2], ',', '') || m[3];
  IF digits !~ '[0-9]' THEN RETURN NULL; END IF;
  -- An exponent beyond what 38 digits can reach gives 0 or an overflow either way.
  exponent := CASE WHEN m[5] = '' THEN 0 ELSE greatest(least(substr(m[5], 2)::numeric, 400), -400) END;
  n := round((CASE WHEN m[1] = '-' OR m[7] = '-' THEN -1 ELSE 1 END) * digits::numeric
             * power(10::numeric, exponent), 9);
  IF abs(n) >= 1e29 THEN RETURN NULL; END IF;
  RETURN trim_scale(n);
END
$$;

CREATE FUNCTION bq.parse_numeric(s text) RETURNS numeric
LANGUAGE plpgsql IMMUTABLE STRICT PARALLEL SAFE SET search_path = pg_catalog, pg_temp AS $$
DECLARE
  n numeric := bq.safe_parse_numeric(s);
BEGIN
  IF n IS NULL THEN
    RAISE EXCEPTION 'Invalid input to PARSE_NUMERIC: "%"', s USING ERRCODE = 'invalid_parameter_value';
  END IF;
  RETURN n;
END
$$;

-- ARRAY_FIRST / ARRAY_LAST: an empty array is an error (NULL array: NULL).
CREATE FUNCTION bq.array_first(a anycompatiblearray) RETURNS anycompatible
LANGUAGE plpgsql IMMUTABLE STRICT PARALLEL SAFE SET search_path = pg_catalog, pg_temp AS $$
BEGIN
  IF coalesce(cardinality(a), 0) = 0 THEN
    RAISE EXCEPTION 'ARRAY_FIRST cannot get the first element of an empty array'
      USING ERRCODE = 'invalid_parameter_value';
  END IF;
  RETURN a[array_lower(a, 1)];
END
$$;

CREATE FUNCTION bq.array_last(a anycompatiblearray) RETURNS anycompatible
LANGUAGE plpgsql IMMUTABLE STRICT PARALLEL SAFE SET search_path = pg_catalog, pg_temp AS $$
BEGIN
  IF coalesce(cardinality(a), 0) = 0 THEN
    RAISE EXCEPTION 'ARRAY_LAST cannot get the last element of an empty array'
      USING ERRCODE = 'invalid_parameter_value';
  END IF;
  RETURN a[array_upper(a, 1)];
END
$$;

