-- The bq.* function library (see 009_bq_core.sql): PARSE_*, time zones, TIME and constants.

-- PARSE_TIMESTAMP / PARSE_DATETIME / PARSE_DATE / PARSE_TIME: the translator turns the BigQuery
-- format into an anchored regex with one group per element and a string naming what each group
-- holds (Y year, y two-digit year, m month, b month name, d day, j day of year, H hour, I 12-hour
-- hour, p AM/PM, M minute, S second, f second fraction, s epoch seconds, z UTC offset, Z zone
-- name). This assembles the instant; fields are read in `zone` unless the text gives an offset or
-- zone. Text that does not match is an error, as in BigQuery. plpgsql so errors are raised per
-- row, never folded at plan time.
CREATE FUNCTION bq.parse_time(input text, parts text[], roles text, zone text, fn text)
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

-- A civil time in a zone as an instant. In the repeated hour when clocks go back BigQuery takes
-- the earlier instant (PG's AT TIME ZONE the later); in a skipped hour both read the time with
-- the offset in force before the change.
CREATE FUNCTION bq.local_to_timestamp(l timestamp, z text) RETURNS timestamptz
LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT CASE WHEN b < a AND (b AT TIME ZONE z) = l THEN b ELSE a END
  FROM (SELECT l AT TIME ZONE z AS a,
               ((l - interval '1 hour') AT TIME ZONE z) + interval '1 hour' AS b) AS x
$$;

-- %Z of FORMAT_TIMESTAMP with a zone: BigQuery prints the offset, UTC, UTC-4, UTC+0530.
CREATE FUNCTION bq.utc_offset_name(seconds int) RETURNS text
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE AS $$
  SELECT CASE WHEN seconds = 0 THEN 'UTC'
              WHEN seconds % 3600 = 0
                THEN 'UTC' || CASE WHEN seconds < 0 THEN '-' ELSE '+' END || (abs(seconds) / 3600)
              ELSE 'UTC' || CASE WHEN seconds < 0 THEN '-' ELSE '+' END
                   || lpad((abs(seconds) / 3600)::text, 2, '0')
                   || lpad((abs(seconds) % 3600 / 60)::text, 2, '0') END
$$;

-- TIME(hour, minute, second): BigQuery's ranges (a second of 60 carries into the next minute,
-- wrapping past midnight), else its error.
CREATE FUNCTION bq.make_time(h bigint, m bigint, s bigint) RETURNS time
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

-- CAST(STRING AS TIMESTAMP) of a constant (literals and parameters only, e.g. logs.all's bounds
-- `cast(coalesce(nullif(@iso_timestamp_start, ''), '-infinity') as timestamp)`): the same cast as
-- the plain one under the gateway's session settings (pg_pool.cpp sets these two), pinned here so
-- the function is truly IMMUTABLE. PostgreSQL then evaluates it while planning a statement whose
-- parameters are bound, and prunes day partitions at planning: with the STABLE cast it plans every
-- partition and prunes only when the executor starts (about 3x the planning time of a listing).
-- The translator uses it only for constant arguments: per row, the SET clauses would cost.
CREATE FUNCTION bq.timestamp_constant(t text) RETURNS timestamptz
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
SET TimeZone = 'UTC' SET DateStyle = 'ISO, YMD' AS $$ SELECT t::timestamptz $$;

