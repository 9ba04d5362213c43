-- BigQuery functions whose PostgreSQL namesakes differ (found by the oracle suite, tests/oracle):
-- INITCAP's word boundaries, ROUND/TRUNC of a double, and the INT64 shifts.

-- INITCAP: a word starts after whitespace or one of BigQuery's delimiters (not ' = or `), or
-- after any character of `delims` when given (a NULL `delims` gives NULL); the rest of each word
-- is lower-cased.
CREATE OR REPLACE FUNCTION bq.initcap(s text, delims text) RETURNS text
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE AS $$
  SELECT coalesce((
    SELECT string_agg(CASE WHEN i = 1 OR strpos(d, substr(s, i - 1, 1)) > 0
                           THEN upper(substr(s, i, 1)) ELSE lower(substr(s, i, 1)) END, ''
                      ORDER BY i)
    FROM (SELECT delims AS d) AS x, generate_series(1, length(s)) AS i), '')
$$;

CREATE OR REPLACE FUNCTION bq.initcap(s text) RETURNS text
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE AS $$
  SELECT bq.initcap(s, E' \t\n\r\x0b\f[](){}/|\\<>!?@"^#$&~_,.:;*%+-')
$$;

-- ROUND / TRUNC of a FLOAT64 act on the double's exact binary value (ROUND(0.075, 2) is 0.07,
-- since 0.075 is 0.07499999...), ties away from zero; PG's float8 -> numeric keeps 15 digits.
-- bq.float_exact (055) reads the magnitude only, so the sign is put back.
CREATE OR REPLACE FUNCTION bq.round_float(x double precision, places int DEFAULT 0)
RETURNS double precision
LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT CASE WHEN x IS NULL OR places IS NULL THEN NULL
              WHEN x = 'NaN' OR x IN ('Infinity', '-Infinity') THEN x
              ELSE (sign(x)::numeric * round(bq.float_exact(abs(x)), greatest(least(places, 400), -400)))::double precision END
$$;

CREATE OR REPLACE FUNCTION bq.trunc_float(x double precision, places int DEFAULT 0)
RETURNS double precision
LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT CASE WHEN x IS NULL OR places IS NULL THEN NULL
              WHEN x = 'NaN' OR x IN ('Infinity', '-Infinity') THEN x
              ELSE (sign(x)::numeric * trunc(bq.float_exact(abs(x)), greatest(least(places, 400), -400)))::double precision END
$$;

-- INT64 shifts: `>>` is logical (the sign bit is not copied), a shift by 64 or more gives 0, a
-- negative shift is an error.
CREATE OR REPLACE FUNCTION bq.shift_right(x bigint, n bigint) RETURNS bigint
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

CREATE OR REPLACE FUNCTION bq.shift_left(x bigint, n bigint) RETURNS bigint
LANGUAGE plpgsql IMMUTABLE STRICT PARALLEL SAFE AS $$
BEGIN
  IF n < 0 THEN
    RAISE EXCEPTION 'Bitwise shift by negative offset.' USING ERRCODE = '22003';
  END IF;
  IF n >= 64 THEN RETURN 0; END IF;
  RETURN x << n::int;
END
$$;
