-- PARSE_NUMERIC: BigQuery's lenient NUMERIC text. Spaces around the text and between the sign and
-- the digits, the sign before or after the number, commas anywhere in the integer part, an
-- exponent; rounded half away from zero to 9 decimals. Invalid text or a value beyond NUMERIC's
-- 29 integer digits is NULL here, an error in bq.parse_numeric.
CREATE OR REPLACE FUNCTION bq.safe_parse_numeric(s text) RETURNS numeric
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

CREATE OR REPLACE FUNCTION bq.parse_numeric(s text) RETURNS numeric
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
