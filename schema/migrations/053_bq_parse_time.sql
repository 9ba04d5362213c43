-- PARSE_TIMESTAMP / PARSE_DATETIME / PARSE_DATE / PARSE_TIME: the translator turns the BigQuery
-- format into an anchored regex with one group per element and a string naming what each group
-- holds (Y year, y two-digit year, m month, b month name, d day, j day of year, H hour, I 12-hour
-- hour, p AM/PM, M minute, S second, f second fraction, s epoch seconds, z UTC offset, Z zone
-- name). This assembles the instant; fields are read in `zone` unless the text gives an offset or
-- zone. Text that does not match is an error, as in BigQuery. plpgsql so errors are raised per
-- row, never folded at plan time.
CREATE OR REPLACE FUNCTION bq.parse_time(input text, parts text[], roles text, zone text, fn text)
RETURNS timestamptz
LANGUAGE plpgsql IMMUTABLE PARALLEL SAFE AS $$
DECLARE
  y int := 1970;
  mo int := 1;
  d int := 1;
  doy int;
  h int := 0;
  h12 int;
  pm boolean;
  mi int := 0;
  sec int := 0;
  frac numeric := 0;
  epoch numeric;
  off_s int;
  zname text := zone;
  r text;
  v text;
  local timestamp;
BEGIN
  IF input IS NULL OR zone IS NULL THEN
    RETURN NULL;
  END IF;
  IF parts IS NULL THEN
    RAISE EXCEPTION '%: failed to parse input string "%"', fn, input
      USING ERRCODE = 'invalid_datetime_format';
  END IF;
  FOR i IN 1 .. length(roles) LOOP
    r := substr(roles, i, 1);
    v := parts[i];
    CONTINUE WHEN v IS NULL;
    CASE r
      WHEN 'Y' THEN y := v::int;
      WHEN 'y' THEN y := v::int; y := CASE WHEN y < 69 THEN 2000 + y ELSE 1900 + y END;
      WHEN 'm' THEN mo := v::int;
      WHEN 'b' THEN
        mo := array_position(ARRAY['jan','feb','mar','apr','may','jun','jul','aug','sep','oct','nov','dec'],
                             lower(substr(v, 1, 3)));
        IF mo IS NULL OR NOT (lower(v) IN (lower(to_char(make_date(2000, mo, 1), 'FMMonth')),
                                           lower(to_char(make_date(2000, mo, 1), 'Mon')))) THEN
          RAISE EXCEPTION '%: failed to parse input string "%": bad month name "%"', fn, input, v
            USING ERRCODE = 'invalid_datetime_format';
        END IF;
      WHEN 'd' THEN d := v::int;
      WHEN 'j' THEN doy := v::int;
      WHEN 'H' THEN h := v::int;
      WHEN 'I' THEN h12 := v::int;
      WHEN 'p' THEN pm := lower(v) = 'pm';
      WHEN 'M' THEN mi := v::int;
      WHEN 'S' THEN sec := v::int;
      WHEN 'f' THEN frac := trunc(('0.' || v)::numeric, 6);
      WHEN 's' THEN epoch := v::numeric;
      WHEN 'z' THEN
        off_s := CASE WHEN upper(v) = 'Z' THEN 0
                      ELSE (CASE WHEN left(v, 1) = '-' THEN -1 ELSE 1 END)
                           * (substr(v, 2, 2)::int * 3600 + right(v, 2)::int * 60) END;
      WHEN 'Z' THEN zname := v;
    END CASE;
  END LOOP;
  IF epoch IS NOT NULL THEN
    RETURN 'epoch'::timestamptz + epoch * interval '1 second';
  END IF;
  IF h12 IS NOT NULL THEN
    IF h12 < 1 OR h12 > 12 THEN
      RAISE EXCEPTION '%: failed to parse input string "%": hour out of range', fn, input
        USING ERRCODE = 'invalid_datetime_format';
    END IF;
    h := h12 % 12 + CASE WHEN pm THEN 12 ELSE 0 END;
  END IF;
  IF h > 23 OR mi > 59 OR sec > 59 OR (doy IS NOT NULL AND (doy < 1 OR doy > 366)) THEN
    RAISE EXCEPTION '%: failed to parse input string "%": field out of range', fn, input
      USING ERRCODE = 'invalid_datetime_format';
  END IF;
  -- Checked here, not by catching make_date's error: an EXCEPTION block costs a subtransaction
  -- per row.
  IF y < 1 OR mo < 1 OR mo > 12 OR d < 1
     OR d > EXTRACT(DAY FROM make_date(y, mo, 1) + interval '1 month' - interval '1 day')
     OR (doy IS NOT NULL AND doy > CASE WHEN make_date(y, 12, 31) - make_date(y, 1, 1) = 365
                                        THEN 366 ELSE 365 END) THEN
    RAISE EXCEPTION '%: failed to parse input string "%": invalid date', fn, input
      USING ERRCODE = 'invalid_datetime_format';
  END IF;
  local := CASE WHEN doy IS NOT NULL THEN make_date(y, 1, 1) + (doy - 1) ELSE make_date(y, mo, d) END
           + make_interval(hours => h, mins => mi) + (sec + frac) * interval '1 second';
  IF off_s IS NOT NULL THEN
    RETURN (local - off_s * interval '1 second') AT TIME ZONE 'UTC';
  END IF;
  RETURN local AT TIME ZONE zname;
END
$$;
