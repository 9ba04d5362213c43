-- The bq.* function library (see 009_bq_core.sql): STRING functions whose PostgreSQL namesakes
-- differ, and BigQuery's canonical text of values. Errors carry BigQuery's messages. No exception
-- blocks: they would make the functions PARALLEL UNSAFE.

-- BigQuery's canonical text of values (CAST(x AS STRING) and FORMAT's %t / %T); the translator
-- calls these from pg/text_render.cpp. PG's own text differs: timestamps print 1-6 fraction
-- digits and +00, floats print Infinity/NaN, bytea prints \x... .

-- Fractional seconds as BigQuery prints them: none for whole seconds, else 3 or 6 digits.
CREATE FUNCTION bq.fraction_text(us bigint) RETURNS text
LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT CASE WHEN us = 0 THEN ''
              WHEN us % 1000 = 0 THEN '.' || lpad((us / 1000)::text, 3, '0')
              ELSE '.' || lpad(us::text, 6, '0') END
$$;

CREATE FUNCTION bq.datetime_text(t timestamp) RETURNS text
LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT to_char(t, 'YYYY-MM-DD HH24:MI:SS')
         || bq.fraction_text(EXTRACT(MICROSECONDS FROM t)::bigint % 1000000)
$$;

-- TIMESTAMP: in UTC with the +00 suffix (2025-01-15 10:00:59.788430+00).
CREATE FUNCTION bq.timestamp_text(t timestamptz) RETURNS text
LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT bq.datetime_text(t AT TIME ZONE 'UTC') || '+00'
$$;

CREATE FUNCTION bq.time_text(t time) RETURNS text
LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT to_char(DATE '1970-01-01' + t, 'HH24:MI:SS')
         || bq.fraction_text(EXTRACT(MICROSECONDS FROM t)::bigint % 1000000)
$$;

-- FLOAT64 text (CAST AS STRING, TO_JSON_STRING): negative zero prints as 0 in BigQuery.
CREATE FUNCTION bq.float_text(x double precision) RETURNS text
LANGUAGE sql IMMUTABLE PARALLEL SAFE SET extra_float_digits = 1 AS $$
  SELECT CASE WHEN x = 'Infinity' THEN 'inf'
              WHEN x = '-Infinity' THEN '-inf'
              WHEN x = 'NaN' THEN 'nan'
              WHEN x = 0 THEN '0'
              ELSE x::text END
$$;

-- FORMAT's %T of a FLOAT64: a literal that reads back as FLOAT64 (1.0, not 1), and the
-- CAST forms of the non-finite values.
CREATE FUNCTION bq.float_literal(x double precision) RETURNS text
LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT CASE WHEN x = 'Infinity' THEN 'CAST("inf" AS FLOAT64)'
              WHEN x = '-Infinity' THEN 'CAST("-inf" AS FLOAT64)'
              WHEN x = 'NaN' THEN 'CAST("nan" AS FLOAT64)'
              WHEN bq.float_text(x) ~ '[.e]' THEN bq.float_text(x)
              ELSE bq.float_text(x) || '.0' END
$$;

-- FORMAT's %T of a STRING: a double-quoted literal with BigQuery's escapes.
CREATE FUNCTION bq.string_literal(s text) RETURNS text
LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT '"' || replace(replace(replace(replace(replace(s, '\', '\\'), '"', '\"'),
                                        E'\n', '\n'), E'\r', '\r'), E'\t', '\t') || '"'
$$;

-- FORMAT's %T of BYTES: b"..." with printable ASCII as is and other bytes as \xNN.
CREATE FUNCTION bq.bytes_literal(b bytea) RETURNS text
LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT 'b"' || coalesce(string_agg(CASE WHEN c = 92 THEN '\\' WHEN c = 34 THEN '\"'
                                          WHEN c BETWEEN 32 AND 126 THEN chr(c)
                                          ELSE '\x' || lpad(to_hex(c), 2, '0') END, '' ORDER BY i), '')
         || '"'
  FROM generate_series(0, length(b) - 1) AS i, LATERAL (SELECT get_byte(b, i) AS c) AS byte
$$;

-- INITCAP: a word starts after whitespace or one of BigQuery's delimiters (not ' = or `), or
-- after any character of `delims` when given (a NULL `delims` gives NULL); the rest of each word
-- is lower-cased.
CREATE FUNCTION bq.initcap(s text, delims text) RETURNS text
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE AS $$
  SELECT coalesce((
    SELECT string_agg(CASE WHEN i = 1 OR strpos(d, substr(s, i - 1, 1)) > 0
                           THEN upper(substr(s, i, 1)) ELSE lower(substr(s, i, 1)) END, ''
                      ORDER BY i)
    FROM (SELECT delims AS d) AS x, generate_series(1, length(s)) AS i), '')
$$;

CREATE FUNCTION bq.initcap(s text) RETURNS text
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE AS $$
  SELECT bq.initcap(s, E' \t\n\r\x0b\f[](){}/|\\<>!?@"^#$&~_,.:;*%+-')
$$;

CREATE FUNCTION bq.pad_check(n bigint, fill text, fn text) RETURNS void
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

-- UPPER / LOWER with Unicode's full case mappings, as BigQuery (ICU) applies them: PG maps one
-- character to one (upper('ß') stays 'ß'). The one-to-many mappings of SpecialCasing.txt outside
-- Greek extended, and LOWER's final sigma and dotted capital I. The pattern test keeps the common
-- case to one pass; not STRICT, so PG inlines them.
CREATE FUNCTION bq.upper(s text) RETURNS text
LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT CASE WHEN s !~ '[ßŉǰΐΰևẖẗẘẙẚﬀﬁﬂﬃﬄﬅﬆﬓﬔﬕﬖﬗ]' THEN upper(s)
              ELSE upper(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(s, 'ß', 'SS'), 'ŉ', 'ʼN'), 'ǰ', 'J̌'), 'ΐ', 'Ϊ́'), 'ΰ', 'Ϋ́'), 'և', 'ԵՒ'), 'ẖ', 'H̱'), 'ẗ', 'T̈'), 'ẘ', 'W̊'), 'ẙ', 'Y̊'), 'ẚ', 'Aʾ'), 'ﬀ', 'FF'), 'ﬁ', 'FI'), 'ﬂ', 'FL'), 'ﬃ', 'FFI'), 'ﬄ', 'FFL'), 'ﬅ', 'ST'), 'ﬆ', 'ST'), 'ﬓ', 'ՄՆ'), 'ﬔ', 'ՄԵ'), 'ﬕ', 'ՄԻ'), 'ﬖ', 'ՎՆ'), 'ﬗ', 'ՄԽ')) END
$$;

CREATE FUNCTION bq.lower(s text) RETURNS text
LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT CASE WHEN s !~ '[İΣ]' THEN lower(s)
              ELSE regexp_replace(lower(replace(s, 'İ', 'i̇')),
                                  '(?<=[[:alpha:]])σ(?![[:alpha:]])', 'ς', 'g') END
$$;

-- ASCII: the first character's code, 0 for ''; an error for text that is not ASCII.
CREATE FUNCTION bq.ascii(s text) RETURNS bigint
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
CREATE FUNCTION bq.chr(n bigint) RETURNS text
LANGUAGE plpgsql IMMUTABLE PARALLEL SAFE AS $$
BEGIN
  IF n = 0 THEN RETURN ''; END IF;
  IF n < 0 OR n > 1114111 OR n BETWEEN 55296 AND 57343 THEN
    RAISE EXCEPTION 'Invalid codepoint %', n USING ERRCODE = 'invalid_parameter_value';
  END IF;
  RETURN chr(n::int);
END
$$;

CREATE FUNCTION bq.code_points_to_string(a bigint[]) RETURNS text
LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT CASE WHEN a IS NULL OR array_position(a, NULL) IS NOT NULL THEN NULL
              ELSE coalesce((SELECT string_agg(bq.chr(c), '' ORDER BY i)
                             FROM unnest(a) WITH ORDINALITY AS u(c, i)), '') END
$$;

-- TRANSLATE: a character repeated in the source list is an error in BigQuery.
CREATE FUNCTION bq.translate(s text, source text, target text) RETURNS text
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

CREATE FUNCTION bq.from_base64(s text) RETURNS bytea
LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$ SELECT decode(s, 'base64') $$;

-- INSTR(source, search, position, occurrence) over STRING (characters) or BYTES (bytes).
-- Occurrences may overlap. A negative position searches backwards from the end: a match counts
-- when it starts at or before length + position + 1 (+ 2 for an empty search, as BigQuery).
CREATE FUNCTION bq.instr(s anycompatible, sub anycompatible, pos bigint, occ bigint)
RETURNS bigint
LANGUAGE plpgsql IMMUTABLE STRICT PARALLEL SAFE SET search_path = pg_catalog, pg_temp AS $$
DECLARE
  n bigint := length(s);
  m bigint := length(sub);
  found bigint := 0;
  i bigint;
  r bigint;
BEGIN
  IF pos = 0 THEN
    RAISE EXCEPTION 'Position must be non-zero' USING ERRCODE = 'invalid_parameter_value';
  END IF;
  IF occ <= 0 THEN
    RAISE EXCEPTION 'Occurrence must be positive' USING ERRCODE = 'invalid_parameter_value';
  END IF;
  IF pos > 0 THEN
    i := pos;
    LOOP
      IF i > n - m + 1 THEN RETURN 0; END IF;
      r := position(sub IN substr(s, i::int));
      IF r = 0 THEN RETURN 0; END IF;
      i := i + r - 1;
      found := found + 1;
      IF found = occ THEN RETURN i; END IF;
      i := i + 1;
    END LOOP;
  END IF;
  i := least(n + pos + 1 + (m = 0)::int, n - m + 1);
  WHILE i >= 1 LOOP
    IF substr(s, i::int, m::int) = sub THEN
      found := found + 1;
      IF found = occ THEN RETURN i; END IF;
    END IF;
    i := i - 1;
  END LOOP;
  RETURN 0;
END
$$;

