-- Size caps on what one call in a caller's query can make PostgreSQL build (the translator's
-- pg/size_caps.h holds the same numbers and refuses constant arguments over them before a query
-- runs). Over a cap these raise SQLSTATE 22023 (invalid_parameter_value), which the gateway
-- answers with 400. Below the caps they return exactly what the plain PostgreSQL call returns.
-- plpgsql, so the error branch is never folded at plan time.

-- REPEAT(s, n): at most 1 MiB (1048576 bytes) of result.
CREATE OR REPLACE FUNCTION bq.repeat(s text, n bigint) RETURNS text
LANGUAGE plpgsql IMMUTABLE PARALLEL SAFE AS $$
BEGIN
  IF n > 0 AND octet_length(s)::numeric * n > 1048576 THEN
    RAISE EXCEPTION 'REPEAT result would exceed the limit of 1048576 bytes'
      USING ERRCODE = 'invalid_parameter_value';
  END IF;
  RETURN repeat(s, n::int);
END
$$;

-- LPAD/RPAD(s, n[, fill]): n at most 1048576 characters.
CREATE OR REPLACE FUNCTION bq.lpad(s text, n bigint, fill text DEFAULT ' ') RETURNS text
LANGUAGE plpgsql IMMUTABLE PARALLEL SAFE AS $$
BEGIN
  IF n > 1048576 THEN
    RAISE EXCEPTION 'LPAD length must be at most 1048576 characters'
      USING ERRCODE = 'invalid_parameter_value';
  END IF;
  RETURN lpad(s, n::int, fill);
END
$$;

CREATE OR REPLACE FUNCTION bq.rpad(s text, n bigint, fill text DEFAULT ' ') RETURNS text
LANGUAGE plpgsql IMMUTABLE PARALLEL SAFE AS $$
BEGIN
  IF n > 1048576 THEN
    RAISE EXCEPTION 'RPAD length must be at most 1048576 characters'
      USING ERRCODE = 'invalid_parameter_value';
  END IF;
  RETURN rpad(s, n::int, fill);
END
$$;

-- GENERATE_ARRAY(start, stop[, step]): at most 1000000 elements. NULL arguments give an empty
-- array, as the translator's earlier ARRAY(SELECT generate_series(...)) did.
CREATE OR REPLACE FUNCTION bq.generate_array(start bigint, stop bigint, step bigint DEFAULT 1)
RETURNS bigint[]
LANGUAGE plpgsql IMMUTABLE PARALLEL SAFE AS $$
BEGIN
  IF step <> 0 AND (stop::numeric - start) / step >= 1000000 THEN
    RAISE EXCEPTION 'GENERATE_ARRAY would produce more than 1000000 elements'
      USING ERRCODE = 'invalid_parameter_value';
  END IF;
  RETURN ARRAY(SELECT generate_series(start, stop, step));
END
$$;

CREATE OR REPLACE FUNCTION bq.generate_array(start double precision, stop double precision,
                                             step double precision DEFAULT 1)
RETURNS double precision[]
LANGUAGE plpgsql IMMUTABLE PARALLEL SAFE AS $$
BEGIN
  IF step <> 0 AND (stop - start) / step >= 1000000 THEN
    RAISE EXCEPTION 'GENERATE_ARRAY would produce more than 1000000 elements'
      USING ERRCODE = 'invalid_parameter_value';
  END IF;
  RETURN ARRAY(SELECT generate_series(start::numeric, stop::numeric, step::numeric)::double precision);
END
$$;

-- GENERATE_TIMESTAMP_ARRAY / GENERATE_DATE_ARRAY: at most 1000000 elements (a month step
-- counted as 30 days, as PostgreSQL's epoch of an interval counts it).
CREATE OR REPLACE FUNCTION bq.generate_timestamp_array(start timestamptz, stop timestamptz,
                                                       step interval)
RETURNS timestamptz[]
LANGUAGE plpgsql STABLE PARALLEL SAFE AS $$
BEGIN
  IF extract(epoch FROM step) <> 0
     AND extract(epoch FROM stop - start) / extract(epoch FROM step) >= 1000000 THEN
    RAISE EXCEPTION 'GENERATE_TIMESTAMP_ARRAY would produce more than 1000000 elements'
      USING ERRCODE = 'invalid_parameter_value';
  END IF;
  RETURN ARRAY(SELECT generate_series(start, stop, step));
END
$$;

CREATE OR REPLACE FUNCTION bq.generate_date_array(start date, stop date,
                                                  step interval DEFAULT interval '1 day')
RETURNS date[]
LANGUAGE plpgsql IMMUTABLE PARALLEL SAFE AS $$
BEGIN
  IF extract(epoch FROM step) <> 0
     AND extract(epoch FROM stop::timestamp - start::timestamp) / extract(epoch FROM step)
         >= 1000000 THEN
    RAISE EXCEPTION 'GENERATE_DATE_ARRAY would produce more than 1000000 elements'
      USING ERRCODE = 'invalid_parameter_value';
  END IF;
  RETURN ARRAY(SELECT generate_series(start::timestamp, stop::timestamp, step)::date);
END
$$;

REVOKE EXECUTE ON ALL FUNCTIONS IN SCHEMA bq FROM PUBLIC;
GRANT EXECUTE ON ALL FUNCTIONS IN SCHEMA bq TO lqe_gateway;
