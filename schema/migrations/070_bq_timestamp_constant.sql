-- CAST(STRING AS TIMESTAMP) of a constant (literals and parameters only, e.g. logs.all's bounds
-- `cast(coalesce(nullif(@iso_timestamp_start, ''), '-infinity') as timestamp)`): the same cast as
-- the plain one under the gateway's session settings (pg_pool.cpp sets these two), pinned here so
-- the function is truly IMMUTABLE. PostgreSQL then evaluates it while planning a statement whose
-- parameters are bound, and prunes day partitions at planning: with the STABLE cast it plans every
-- partition and prunes only when the executor starts (about 3x the planning time of a listing).
-- The translator uses it only for constant arguments: per row, the SET clauses would cost.
CREATE OR REPLACE FUNCTION bq.timestamp_constant(t text) RETURNS timestamptz
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
SET TimeZone = 'UTC' SET DateStyle = 'ISO, YMD' AS $$ SELECT t::timestamptz $$;
