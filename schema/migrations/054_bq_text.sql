-- BigQuery's canonical text of values (CAST(x AS STRING) and FORMAT's %t / %T); the translator
-- calls these from pg/text_render.cpp. PG's own text differs: timestamps print 1-6 fraction
-- digits and +00, floats print Infinity/NaN, bytea prints \x... .

-- Fractional seconds as BigQuery prints them: none for whole seconds, else 3 or 6 digits.
CREATE OR REPLACE FUNCTION bq.fraction_text(us bigint) RETURNS text
LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT CASE WHEN us = 0 THEN ''
              WHEN us % 1000 = 0 THEN '.' || lpad((us / 1000)::text, 3, '0')
              ELSE '.' || lpad(us::text, 6, '0') END
$$;

CREATE OR REPLACE FUNCTION bq.datetime_text(t timestamp) RETURNS text
LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT to_char(t, 'YYYY-MM-DD HH24:MI:SS')
         || bq.fraction_text(EXTRACT(MICROSECONDS FROM t)::bigint % 1000000)
$$;

-- TIMESTAMP: in UTC with the +00 suffix (2025-01-15 10:00:59.788430+00).
CREATE OR REPLACE FUNCTION bq.timestamp_text(t timestamptz) RETURNS text
LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT bq.datetime_text(t AT TIME ZONE 'UTC') || '+00'
$$;

CREATE OR REPLACE FUNCTION bq.time_text(t time) RETURNS text
LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT to_char(DATE '1970-01-01' + t, 'HH24:MI:SS')
         || bq.fraction_text(EXTRACT(MICROSECONDS FROM t)::bigint % 1000000)
$$;

-- FLOAT64: the shortest text that reads back the same (PG's float8 output with
-- extra_float_digits = 1, pinned here), exponent from 1e+15 and below 1e-04 as BigQuery prints,
-- and inf / -inf / nan.
CREATE OR REPLACE FUNCTION bq.float_text(x double precision) RETURNS text
LANGUAGE sql IMMUTABLE PARALLEL SAFE SET extra_float_digits = 1 AS $$
  SELECT CASE WHEN x = 'Infinity' THEN 'inf'
              WHEN x = '-Infinity' THEN '-inf'
              WHEN x = 'NaN' THEN 'nan'
              ELSE x::text END
$$;

-- FORMAT's %T of a FLOAT64: a literal that reads back as FLOAT64 (1.0, not 1), and the
-- CAST forms of the non-finite values.
CREATE OR REPLACE FUNCTION bq.float_literal(x double precision) RETURNS text
LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT CASE WHEN x = 'Infinity' THEN 'CAST("inf" AS FLOAT64)'
              WHEN x = '-Infinity' THEN 'CAST("-inf" AS FLOAT64)'
              WHEN x = 'NaN' THEN 'CAST("nan" AS FLOAT64)'
              WHEN bq.float_text(x) ~ '[.e]' THEN bq.float_text(x)
              ELSE bq.float_text(x) || '.0' END
$$;

-- FORMAT's %T of a STRING: a double-quoted literal with BigQuery's escapes.
CREATE OR REPLACE FUNCTION bq.string_literal(s text) RETURNS text
LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT '"' || replace(replace(replace(replace(replace(s, '\', '\\'), '"', '\"'),
                                        E'\n', '\n'), E'\r', '\r'), E'\t', '\t') || '"'
$$;

-- FORMAT's %T of BYTES: b"..." with printable ASCII as is and other bytes as \xNN.
CREATE OR REPLACE FUNCTION bq.bytes_literal(b bytea) RETURNS text
LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT 'b"' || coalesce(string_agg(CASE WHEN c = 92 THEN '\\' WHEN c = 34 THEN '\"'
                                          WHEN c BETWEEN 32 AND 126 THEN chr(c)
                                          ELSE '\x' || lpad(to_hex(c), 2, '0') END, '' ORDER BY i), '')
         || '"'
  FROM generate_series(0, length(b) - 1) AS i, LATERAL (SELECT get_byte(b, i) AS c) AS byte
$$;
