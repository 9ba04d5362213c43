-- The bq.* function library (see 009_bq_core.sql): FORMAT and printf-style number text.

-- FORMAT(format, ...): the translator splits the format string at translation time and calls
-- one of these per specifier with its flags ('-', '+', ' ', '#', '0', ''''), width and
-- precision (NULL when absent). A NULL value gives NULL, which makes FORMAT's result NULL, as in
-- BigQuery (only %t and %T print NULL, and the translator handles those itself).

-- Pads sign||body to `width`: '-' pads on the right, '0' (numbers without a precision) with
-- zeros after the sign, otherwise spaces on the left.
CREATE FUNCTION bq.format_pad(body text, sign text, flags text, width int, zero_ok boolean)
RETURNS text
LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT CASE
    WHEN width IS NULL OR length(sign) + length(body) >= width THEN sign || body
    WHEN position('-' IN flags) > 0 THEN sign || body || repeat(' ', width - length(sign) - length(body))
    WHEN zero_ok AND position('0' IN flags) > 0 THEN sign || repeat('0', width - length(sign) - length(body)) || body
    ELSE repeat(' ', width - length(sign) - length(body)) || sign || body
  END
$$;

-- Groups the digits of a non-negative integer's text by thousands (the ' flag).
CREATE FUNCTION bq.format_group(digits text) RETURNS text
LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT regexp_replace(digits, '([0-9])(?=([0-9]{3})+$)', '\1,', 'g')
$$;

CREATE FUNCTION bq.format_sign(negative boolean, flags text) RETURNS text
LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT CASE WHEN negative THEN '-' WHEN position('+' IN flags) > 0 THEN '+'
              WHEN position(' ' IN flags) > 0 THEN ' ' ELSE '' END
$$;

-- %d %i %o %x %X of an INT64. Negative values print a minus sign and the magnitude.
CREATE FUNCTION bq.format_int(x bigint, conv text, flags text, width int, prec int)
RETURNS text
LANGUAGE plpgsql IMMUTABLE PARALLEL SAFE AS $$
DECLARE
  mag numeric := abs(x::numeric);
  body text := '';
  prefix text := '';
  digit int;
BEGIN
  IF x IS NULL THEN
    RETURN NULL;
  END IF;
  IF conv IN ('d', 'i') THEN
    body := mag::text;
  ELSE
    IF mag = 0 THEN
      body := '0';
    END IF;
    WHILE mag > 0 LOOP
      digit := (mag % CASE WHEN conv = 'o' THEN 8 ELSE 16 END)::int;
      body := substr('0123456789abcdef', digit + 1, 1) || body;
      mag := trunc(mag / CASE WHEN conv = 'o' THEN 8 ELSE 16 END);
    END LOOP;
    IF conv = 'X' THEN
      body := upper(body);
    END IF;
    IF position('#' IN flags) > 0 AND x <> 0 THEN
      prefix := CASE conv WHEN 'o' THEN '0' WHEN 'x' THEN '0x' ELSE '0X' END;
    END IF;
  END IF;
  IF prec IS NOT NULL AND length(body) < prec THEN
    body := lpad(body, prec, '0');
  ELSIF prec = 0 AND x = 0 THEN
    body := '';
  END IF;
  IF position('''' IN flags) > 0 AND conv IN ('d', 'i') THEN
    body := bq.format_group(body);
  END IF;
  RETURN bq.format_pad(body, bq.format_sign(x < 0, flags) || prefix, flags, width, prec IS NULL);
END
$$;

-- The exact decimal value of a double (m * 2^e from its bits), so %f/%e/%g round the value C's
-- printf rounds, not PG's 15-digit float8 -> numeric conversion.
CREATE FUNCTION bq.float_exact(x double precision) RETURNS numeric
LANGUAGE plpgsql IMMUTABLE PARALLEL SAFE AS $$
DECLARE
  bits bigint := ('x' || encode(float8send(x), 'hex'))::bit(64)::bigint;
  biased int := ((bits >> 52) & 2047)::int;
  m numeric := (bits & 4503599627370495)::numeric;
  e int;
  digits text;
BEGIN
  IF biased = 0 THEN
    e := -1074;
  ELSE
    m := m + 4503599627370496;
    e := biased - 1075;
  END IF;
  IF e >= 0 THEN
    RETURN trunc(m * power(2::numeric, e));
  END IF;
  -- m / 2^k = m * 5^k / 10^k: an integer's digits with the point k places from the right.
  digits := trunc(m * power(5::numeric, -e))::text;
  digits := repeat('0', greatest(-e + 1 - length(digits), 0)) || digits;  -- lpad would cut
  RETURN (left(digits, length(digits) + e) || '.' || right(digits, -e))::numeric;
END
$$;

-- Rounds a non-negative exact value to `places` decimals (negative: tens, hundreds...), ties to
-- even as C's printf does for exact ties.
CREATE FUNCTION bq.round_half_even(a numeric, places int) RETURNS numeric
LANGUAGE plpgsql IMMUTABLE STRICT PARALLEL SAFE AS $$
DECLARE
  scaled numeric := a * ('1e' || places)::numeric;
  whole numeric := trunc(scaled);
BEGIN
  IF scaled - whole = 0.5 AND mod(whole, 2) = 0 THEN
    RETURN round(whole * ('1e' || -places)::numeric, greatest(places, 0));
  END IF;
  RETURN round(a, places);
END
$$;

-- d.ddd…e±XX of a non-negative exact value with `prec` fraction digits.
CREATE FUNCTION bq.format_sci(a numeric, prec int) RETURNS text
LANGUAGE plpgsql IMMUTABLE STRICT PARALLEL SAFE AS $$
DECLARE
  e int := 0;
  r numeric;
  ds text := '0';
BEGIN
  IF a > 0 THEN
    e := floor(log(a))::int;
    IF a < ('1e' || e)::numeric THEN
      e := e - 1;
    ELSIF a >= ('1e' || (e + 1))::numeric THEN
      e := e + 1;
    END IF;
    r := bq.round_half_even(a, prec - e);
    IF r >= ('1e' || (e + 1))::numeric THEN
      e := e + 1;
    END IF;
    ds := ltrim(regexp_replace(r::text, '[^0-9]', '', 'g'), '0');
  END IF;
  ds := rpad(ds, prec + 1, '0');
  RETURN substr(ds, 1, 1) || CASE WHEN prec > 0 THEN '.' || substr(ds, 2, prec) ELSE '' END
         || 'e' || CASE WHEN e < 0 THEN '-' ELSE '+' END
         || CASE WHEN abs(e) < 10 THEN '0' ELSE '' END || abs(e)::text;
END
$$;

-- Drops trailing fraction zeros (and a bare point) of %g output, keeping any exponent.
CREATE FUNCTION bq.format_trim_zeros(body text) RETURNS text
LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT CASE WHEN position('.' IN body) = 0 THEN body
              ELSE regexp_replace(body, '\.?0*(e.*)?$', '') || coalesce(substring(body FROM 'e.*$'), '')
         END
$$;

-- %f %F %e %E %g %G of a FLOAT64 (NUMERIC and INT64 arrive converted). Default precision 6.
CREATE FUNCTION bq.format_float(x double precision, conv text, flags text, width int, prec int)
RETURNS text
LANGUAGE plpgsql IMMUTABLE PARALLEL SAFE AS $$
DECLARE
  p int := coalesce(prec, 6);
  a numeric;
  body text;
  g_prec int;
  exp10 int;
  int_part text;
BEGIN
  IF x IS NULL THEN
    RETURN NULL;
  END IF;
  IF x = 'NaN' OR x = 'Infinity' OR x = '-Infinity' THEN
    body := CASE WHEN x = 'NaN' THEN 'nan' ELSE 'inf' END;
    IF conv IN ('F', 'E', 'G') THEN
      body := upper(body);
    END IF;
    RETURN bq.format_pad(body, bq.format_sign(x = '-Infinity', flags), flags, width, false);
  END IF;
  a := bq.float_exact(abs(x));
  IF lower(conv) = 'f' THEN
    body := bq.round_half_even(a, p)::text;
  ELSIF lower(conv) = 'e' THEN
    body := bq.format_sci(a, p);
  ELSE
    g_prec := CASE WHEN p = 0 THEN 1 ELSE p END;
    exp10 := substring(bq.format_sci(a, g_prec - 1) FROM 'e([+-][0-9]+)$')::int;
    IF g_prec > exp10 AND exp10 >= -4 THEN
      body := bq.round_half_even(a, g_prec - 1 - exp10)::text;
    ELSE
      body := bq.format_sci(a, g_prec - 1);
    END IF;
    IF position('#' IN flags) = 0 THEN
      body := bq.format_trim_zeros(body);
    END IF;
  END IF;
  IF position('#' IN flags) > 0 AND position('.' IN body) = 0 THEN
    body := regexp_replace(body, '^([0-9]+)', '\1.');
  END IF;
  IF position('''' IN flags) > 0 AND lower(conv) IN ('f', 'g') AND position('e' IN body) = 0 THEN
    int_part := substring(body FROM '^[0-9]+');
    body := bq.format_group(int_part) || substr(body, length(int_part) + 1);
  END IF;
  IF conv IN ('E', 'G') THEN
    body := upper(body);
  END IF;
  RETURN bq.format_pad(body, bq.format_sign(x < 0 OR (x = 0 AND x::text LIKE '-%'), flags), flags,
                       width, true);
END
$$;

-- %s %t %T: precision truncates, width pads with spaces.
CREATE FUNCTION bq.format_str(s text, flags text, width int, prec int) RETURNS text
LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT CASE WHEN s IS NULL THEN NULL ELSE bq.format_pad(CASE WHEN prec IS NULL THEN s ELSE left(s, prec) END, '', flags, width, false) END
$$;

-- C's %g (6 significant digits), as BigQuery prints a JSON number in its errors.
CREATE FUNCTION bq.printf_g(x double precision) RETURNS text
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

