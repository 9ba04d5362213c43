-- SUM over INT64 that raises the INT64 overflow while aggregating, as BigQuery does for every
-- group it computes, including groups HAVING then removes. PG's sum(bigint) gives numeric and a
-- ::bigint cast in the select list is only evaluated for the rows that are output. The sum is
-- exact until the end (BigQuery accumulates in 128 bits: MAX + 1 - 1 is MAX, not an error), so
-- the state is numeric and only the final value must fit. The moving-frame functions keep
-- windowed SUM linear.
CREATE OR REPLACE FUNCTION bq.sum_int64_final(s numeric) RETURNS bigint
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE AS $$
  SELECT s::bigint
$$;

CREATE OR REPLACE AGGREGATE bq.sum_int64(numeric) (
  SFUNC = numeric_add,
  STYPE = numeric,
  COMBINEFUNC = numeric_add,
  FINALFUNC = bq.sum_int64_final,
  MSFUNC = numeric_add,
  MINVFUNC = numeric_sub,
  MSTYPE = numeric,
  MFINALFUNC = bq.sum_int64_final,
  PARALLEL = SAFE
);
