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

-- REPEAT / LPAD / RPAD: a negative count or an empty pad pattern is an error in BigQuery (PG
-- returns ''); otherwise as 052's versions, with their size caps.
CREATE OR REPLACE FUNCTION bq.repeat(s text, n bigint) RETURNS text
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

CREATE OR REPLACE FUNCTION bq.pad_check(n bigint, fill text, fn text) RETURNS void
LANGUAGE plpgsql IMMUTABLE PARALLEL SAFE AS $$
BEGIN
  IF n < 0 THEN
    RAISE EXCEPTION 'Second argument (output size) for LPAD/RPAD cannot be negative'
      USING ERRCODE = 'invalid_parameter_value';
  END IF;
  IF fill = '' THEN
    RAISE EXCEPTION 'Third argument (pad pattern) for LPAD/RPAD cannot be empty'
      USING ERRCODE = 'invalid_parameter_value';
  END IF;
  IF n > 1048576 THEN
    RAISE EXCEPTION '% length must be at most 1048576 characters', fn
      USING ERRCODE = 'invalid_parameter_value';
  END IF;
END
$$;

CREATE OR REPLACE FUNCTION bq.lpad(s text, n bigint, fill text DEFAULT ' ') RETURNS text
LANGUAGE plpgsql IMMUTABLE PARALLEL SAFE AS $$
BEGIN
  PERFORM bq.pad_check(n, fill, 'LPAD');
  RETURN lpad(s, n::int, fill);
END
$$;

CREATE OR REPLACE FUNCTION bq.rpad(s text, n bigint, fill text DEFAULT ' ') RETURNS text
LANGUAGE plpgsql IMMUTABLE PARALLEL SAFE AS $$
BEGIN
  PERFORM bq.pad_check(n, fill, 'RPAD');
  RETURN rpad(s, n::int, fill);
END
$$;

-- A civil time in a zone as an instant. In the repeated hour when clocks go back BigQuery takes
-- the earlier instant (PG's AT TIME ZONE the later); in a skipped hour both read the time with
-- the offset in force before the change.
CREATE OR REPLACE FUNCTION bq.local_to_timestamp(l timestamp, z text) RETURNS timestamptz
LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT CASE WHEN b < a AND (b AT TIME ZONE z) = l THEN b ELSE a END
  FROM (SELECT l AT TIME ZONE z AS a,
               ((l - interval '1 hour') AT TIME ZONE z) + interval '1 hour' AS b) AS x
$$;

-- %Z of FORMAT_TIMESTAMP with a zone: BigQuery prints the offset, UTC, UTC-4, UTC+0530.
CREATE OR REPLACE FUNCTION bq.utc_offset_name(seconds int) RETURNS text
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE AS $$
  SELECT CASE WHEN seconds = 0 THEN 'UTC'
              WHEN seconds % 3600 = 0
                THEN 'UTC' || CASE WHEN seconds < 0 THEN '-' ELSE '+' END || (abs(seconds) / 3600)
              ELSE 'UTC' || CASE WHEN seconds < 0 THEN '-' ELSE '+' END
                   || lpad((abs(seconds) / 3600)::text, 2, '0')
                   || lpad((abs(seconds) % 3600 / 60)::text, 2, '0') END
$$;

-- CAST(s AS INT64) of hex text (0x1F, -0x10): bq.safe_cast_int64's reading, an error when invalid.
CREATE OR REPLACE FUNCTION bq.cast_int64(s text) RETURNS bigint
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

-- FLOAT64 text (CAST AS STRING, TO_JSON_STRING): negative zero prints as 0 in BigQuery.
CREATE OR REPLACE FUNCTION bq.float_text(x double precision) RETURNS text
LANGUAGE sql IMMUTABLE PARALLEL SAFE SET extra_float_digits = 1 AS $$
  SELECT CASE WHEN x = 'Infinity' THEN 'inf'
              WHEN x = '-Infinity' THEN '-inf'
              WHEN x = 'NaN' THEN 'nan'
              WHEN x = 0 THEN '0'
              ELSE x::text END
$$;

-- TO_JSON_STRING of scalars, as BigQuery writes them: INT64 beyond +-2^53 as a string, the
-- non-finite FLOAT64s as "NaN" / "Infinity" / "-Infinity", NUMERIC as a string, BYTES as base64,
-- TIMESTAMP as RFC 3339 in UTC with 0, 3 or 6 fraction digits, DATETIME and TIME likewise.
CREATE OR REPLACE FUNCTION bq.to_json_int64(x bigint) RETURNS text
LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT CASE WHEN x IS NULL THEN 'null'
              WHEN x BETWEEN -9007199254740992 AND 9007199254740992 THEN x::text
              ELSE '"' || x::text || '"' END
$$;

CREATE OR REPLACE FUNCTION bq.to_json_float64(x double precision) RETURNS text
LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT CASE WHEN x IS NULL THEN 'null'
              WHEN x = 'NaN' THEN '"NaN"'
              WHEN x = 'Infinity' THEN '"Infinity"'
              WHEN x = '-Infinity' THEN '"-Infinity"'
              ELSE bq.float_text(x) END
$$;

CREATE OR REPLACE FUNCTION bq.json_quoted(s text) RETURNS text
LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT coalesce(to_jsonb(s)::text, 'null')
$$;

-- UPPER / LOWER with Unicode's full case mappings, as BigQuery (ICU) applies them: PG maps one
-- character to one (upper('ß') stays 'ß'). The one-to-many mappings of SpecialCasing.txt outside
-- Greek extended, and LOWER's final sigma and dotted capital I. The pattern test keeps the common
-- case to one pass; not STRICT, so PG inlines them.
CREATE OR REPLACE FUNCTION bq.upper(s text) RETURNS text
LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT CASE WHEN s !~ '[ßŉǰΐΰևẖẗẘẙẚﬀﬁﬂﬃﬄﬅﬆﬓﬔﬕﬖﬗ]' THEN upper(s)
              ELSE upper(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(s, 'ß', 'SS'), 'ŉ', 'ʼN'), 'ǰ', 'J̌'), 'ΐ', 'Ϊ́'), 'ΰ', 'Ϋ́'), 'և', 'ԵՒ'), 'ẖ', 'H̱'), 'ẗ', 'T̈'), 'ẘ', 'W̊'), 'ẙ', 'Y̊'), 'ẚ', 'Aʾ'), 'ﬀ', 'FF'), 'ﬁ', 'FI'), 'ﬂ', 'FL'), 'ﬃ', 'FFI'), 'ﬄ', 'FFL'), 'ﬅ', 'ST'), 'ﬆ', 'ST'), 'ﬓ', 'ՄՆ'), 'ﬔ', 'ՄԵ'), 'ﬕ', 'ՄԻ'), 'ﬖ', 'ՎՆ'), 'ﬗ', 'ՄԽ')) END
$$;

CREATE OR REPLACE FUNCTION bq.lower(s text) RETURNS text
LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT CASE WHEN s !~ '[İΣ]' THEN lower(s)
              ELSE regexp_replace(lower(replace(s, 'İ', 'i̇')),
                                  '(?<=[[:alpha:]])σ(?![[:alpha:]])', 'ς', 'g') END
$$;
