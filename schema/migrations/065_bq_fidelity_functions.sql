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

-- SAFE_ADD / SAFE_SUBTRACT / SAFE_MULTIPLY / SAFE_NEGATE: NULL instead of an overflow error.
-- PARALLEL RESTRICTED: the exception block is a subtransaction.
CREATE OR REPLACE FUNCTION bq.safe_add(a bigint, b bigint) RETURNS bigint
LANGUAGE plpgsql IMMUTABLE PARALLEL RESTRICTED AS $$
BEGIN RETURN a + b; EXCEPTION WHEN numeric_value_out_of_range THEN RETURN NULL; END
$$;
CREATE OR REPLACE FUNCTION bq.safe_add(a double precision, b double precision) RETURNS double precision
LANGUAGE plpgsql IMMUTABLE PARALLEL RESTRICTED AS $$
BEGIN RETURN a + b; EXCEPTION WHEN numeric_value_out_of_range THEN RETURN NULL; END
$$;
CREATE OR REPLACE FUNCTION bq.safe_add(a numeric, b numeric) RETURNS numeric
LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$ SELECT a + b $$;
CREATE OR REPLACE FUNCTION bq.safe_subtract(a bigint, b bigint) RETURNS bigint
LANGUAGE plpgsql IMMUTABLE PARALLEL RESTRICTED AS $$
BEGIN RETURN a - b; EXCEPTION WHEN numeric_value_out_of_range THEN RETURN NULL; END
$$;
CREATE OR REPLACE FUNCTION bq.safe_subtract(a double precision, b double precision)
RETURNS double precision
LANGUAGE plpgsql IMMUTABLE PARALLEL RESTRICTED AS $$
BEGIN RETURN a - b; EXCEPTION WHEN numeric_value_out_of_range THEN RETURN NULL; END
$$;
CREATE OR REPLACE FUNCTION bq.safe_subtract(a numeric, b numeric) RETURNS numeric
LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$ SELECT a - b $$;
CREATE OR REPLACE FUNCTION bq.safe_multiply(a bigint, b bigint) RETURNS bigint
LANGUAGE plpgsql IMMUTABLE PARALLEL RESTRICTED AS $$
BEGIN RETURN a * b; EXCEPTION WHEN numeric_value_out_of_range THEN RETURN NULL; END
$$;
CREATE OR REPLACE FUNCTION bq.safe_multiply(a double precision, b double precision)
RETURNS double precision
LANGUAGE plpgsql IMMUTABLE PARALLEL RESTRICTED AS $$
BEGIN RETURN a * b; EXCEPTION WHEN numeric_value_out_of_range THEN RETURN NULL; END
$$;
CREATE OR REPLACE FUNCTION bq.safe_multiply(a numeric, b numeric) RETURNS numeric
LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$ SELECT a * b $$;
CREATE OR REPLACE FUNCTION bq.safe_negate(a bigint) RETURNS bigint
LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT CASE WHEN a = -9223372036854775808 THEN NULL ELSE -a END
$$;
CREATE OR REPLACE FUNCTION bq.safe_negate(a double precision) RETURNS double precision
LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$ SELECT -a $$;
CREATE OR REPLACE FUNCTION bq.safe_negate(a numeric) RETURNS numeric
LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$ SELECT -a $$;

-- IEEE_DIVIDE: division by zero gives +-inf or NaN instead of an error.
CREATE OR REPLACE FUNCTION bq.ieee_divide(x double precision, y double precision)
RETURNS double precision
LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT CASE WHEN y <> 0 OR x IS NULL OR y IS NULL THEN x / y
              WHEN x = 'NaN' OR x = 0 THEN 'NaN'::double precision
              WHEN (x > 0) = (float8send(y) = float8send(0::double precision))
                THEN 'Infinity'::double precision
              ELSE '-Infinity'::double precision END
$$;

-- ASCII: the first character's code, 0 for ''; an error for text that is not ASCII.
CREATE OR REPLACE FUNCTION bq.ascii(s text) RETURNS bigint
LANGUAGE plpgsql IMMUTABLE PARALLEL SAFE AS $$
BEGIN
  IF s ~ '[^\x01-\x7f]' THEN
    RAISE EXCEPTION 'Argument to ASCII is not a structurally valid ASCII string: %', s
      USING ERRCODE = 'invalid_parameter_value';
  END IF;
  RETURN ascii(s);
END
$$;

-- CHR: PG text holds no NUL, so CHR(0) is '' (as lqe drops NUL from literals); other invalid
-- code points raise in PG's chr as in BigQuery.
CREATE OR REPLACE FUNCTION bq.chr(n bigint) RETURNS text
LANGUAGE plpgsql IMMUTABLE PARALLEL SAFE AS $$
BEGIN
  IF n = 0 THEN RETURN ''; END IF;
  IF n < 0 OR n > 1114111 OR n BETWEEN 55296 AND 57343 THEN
    RAISE EXCEPTION 'Invalid codepoint %', n USING ERRCODE = 'invalid_parameter_value';
  END IF;
  RETURN chr(n::int);
END
$$;

CREATE OR REPLACE FUNCTION bq.code_points_to_string(a bigint[]) RETURNS text
LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT CASE WHEN a IS NULL OR array_position(a, NULL) IS NOT NULL THEN NULL
              ELSE coalesce((SELECT string_agg(bq.chr(c), '' ORDER BY i)
                             FROM unnest(a) WITH ORDINALITY AS u(c, i)), '') END
$$;

-- TRANSLATE: a character repeated in the source list is an error in BigQuery.
CREATE OR REPLACE FUNCTION bq.translate(s text, source text, target text) RETURNS text
LANGUAGE plpgsql IMMUTABLE PARALLEL SAFE AS $$
BEGIN
  IF source IS NOT NULL AND (SELECT count(DISTINCT c) <> count(*)
                             FROM regexp_split_to_table(source, '') AS c) THEN
    RAISE EXCEPTION 'Duplicate character in TRANSLATE source characters'
      USING ERRCODE = 'invalid_parameter_value';
  END IF;
  RETURN translate(s, source, target);
END
$$;

CREATE OR REPLACE FUNCTION bq.from_base64(s text) RETURNS bytea
LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$ SELECT decode(s, 'base64') $$;

-- NET.HOST: the host of a URL as BigQuery reads it: scheme://, userinfo@ and :port removed,
-- [IPv6] kept with its brackets, case kept; NULL when there is none.
CREATE OR REPLACE FUNCTION bq.net_host(s text) RETURNS text
LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT nullif(CASE WHEN a LIKE '[%' THEN coalesce(substring(a FROM '^\[[^]]*\]'), a)
                     ELSE split_part(a, ':', 1) END, '')
  FROM (SELECT regexp_replace(substring(regexp_replace(btrim(s, E' \t\n\r\x0b\f'),
                                                       '^([A-Za-z][A-Za-z0-9+.-]*:)?//', '')
                                        FROM '^[^/?#]*'), '^.*@', '') AS a) AS x
$$;

CREATE OR REPLACE FUNCTION bq.net_ipv4_to_int64(b bytea) RETURNS bigint
LANGUAGE plpgsql IMMUTABLE PARALLEL SAFE AS $$
BEGIN
  IF b IS NULL THEN RETURN NULL; END IF;
  IF length(b) <> 4 THEN
    RAISE EXCEPTION 'NET.IPV4_TO_INT64() encountered a non-IPv4 address. Expected 4 bytes but got %',
      length(b) USING ERRCODE = 'invalid_parameter_value';
  END IF;
  RETURN (get_byte(b, 0)::bigint << 24) | (get_byte(b, 1) << 16) | (get_byte(b, 2) << 8)
         | get_byte(b, 3);
END
$$;

CREATE OR REPLACE FUNCTION bq.net_ipv4_from_int64(n bigint) RETURNS bytea
LANGUAGE plpgsql IMMUTABLE PARALLEL SAFE AS $$
BEGIN
  IF n IS NULL THEN RETURN NULL; END IF;
  IF n < -2147483648 OR n > 4294967295 THEN
    RAISE EXCEPTION 'NET.IPV4_FROM_INT64() encountered an unsupported integer value: %', n
      USING ERRCODE = 'invalid_parameter_value';
  END IF;
  RETURN decode(lpad(to_hex(n & 4294967295), 8, '0'), 'hex');
END
$$;
