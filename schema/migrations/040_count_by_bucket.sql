-- logs.count_by_bucket: a count chart counted on the shard nodes. PostgreSQL 15's postgres_fdw
-- never pushes a partial aggregate, so `count(*) ... GROUP BY bucket` over a partitioned log
-- table ships every matching row to the coordinator. An aggregate over one foreign table is
-- shipped whole ("Relations: Aggregate on"), so this counts each leaf partition in the time range
-- as its own UNION ALL branch (the nodes count at once, async) and sums the branches.
-- `date_bin` with a UTC-midnight origin equals `date_trunc(unit, ts, 'UTC')` for one second,
-- minute, hour or day, and is immutable, so postgres_fdw ships it (date_trunc with a text unit it
-- does not). Rows counted: project = `project`, after < timestamp <= upto (logs.all's bounds).
-- Leaves are pruned by their range bound, and on a day split by project hash (`by: project`) to
-- the project's remainder. SECURITY INVOKER: the caller needs SELECT on the leaves, which the
-- gateway role has (GRANT SELECT ON ALL TABLES IN SCHEMA logs and default privileges).
-- logs.count_by_bucket_sql gives the statement (parameters $1 bucket, $2 project, $3 after, $4
-- upto; NULL when no leaf is in range) so its plan can be inspected with EXPLAIN.
CREATE FUNCTION logs.count_by_bucket_sql(source text, project text, after timestamptz,
                                         upto timestamptz)
RETURNS text
LANGUAGE plpgsql STABLE SET search_path = pg_catalog, pg_temp AS $fn$
DECLARE
  parent oid;
  day record;
  leaf record;
  range_bound text[];
  hash_bound text[];
  by_project boolean;
  branches text[] := '{}';
BEGIN
  SELECT c.oid INTO parent
  FROM pg_class c JOIN pg_namespace s ON s.oid = c.relnamespace
  WHERE s.nspname = 'logs' AND c.relname = source AND c.relkind = 'p' AND NOT c.relispartition;
  IF parent IS NULL THEN
    RAISE EXCEPTION 'logs.count_by_bucket: % is not a log table', source;
  END IF;
  FOR day IN
    SELECT c.oid, c.relkind, pg_get_expr(c.relpartbound, c.oid) AS bound
    FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid
    WHERE i.inhparent = parent ORDER BY c.relname
  LOOP
    -- A day holds [FROM, TO); it can hold a row of (after, upto] unless TO <= after or FROM > upto.
    range_bound := regexp_match(day.bound, '^FOR VALUES FROM \(''([^'']*)''\) TO \(''([^'']*)''\)$');
    IF range_bound IS NOT NULL
       AND (range_bound[2]::timestamptz <= after OR range_bound[1]::timestamptz > upto) THEN
      CONTINUE;
    END IF;
    IF day.relkind <> 'p' THEN
      branches := branches || day.oid::regclass::text;
      CONTINUE;
    END IF;
    -- A day split by project hash: only the partition that can hold the project (any, if the
    -- hash key is not the project column).
    by_project := pg_get_partkeydef(day.oid) = 'HASH (project)';
    FOR leaf IN
      SELECT c.oid, pg_get_expr(c.relpartbound, c.oid) AS bound
      FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid
      WHERE i.inhparent = day.oid ORDER BY c.relname
    LOOP
      hash_bound := regexp_match(leaf.bound, 'modulus (\d+), remainder (\d+)');
      IF by_project AND hash_bound IS NOT NULL AND project IS NOT NULL
         AND NOT satisfies_hash_partition(day.oid, hash_bound[1]::int, hash_bound[2]::int,
                                          project) THEN
        CONTINUE;
      END IF;
      branches := branches || leaf.oid::regclass::text;
    END LOOP;
  END LOOP;
  IF cardinality(branches) = 0 THEN
    RETURN NULL;
  END IF;
  RETURN 'SELECT b, sum(c)::bigint FROM ('
    || (SELECT string_agg(format(
          'SELECT date_bin($1, "timestamp", timestamptz ''1970-01-01 00:00:00+00'') AS b, '
          'count(*) AS c FROM %s WHERE project = $2 AND "timestamp" > $3 AND "timestamp" <= $4 '
          'GROUP BY 1', b), ' UNION ALL ')
        FROM unnest(branches) AS b)
    || ') AS counted GROUP BY b';
END
$fn$;

CREATE FUNCTION logs.count_by_bucket(source text, bucket interval, project text,
                                     after timestamptz, upto timestamptz)
RETURNS TABLE (bucket_start timestamptz, n bigint)
LANGUAGE plpgsql STABLE SET search_path = pg_catalog, pg_temp AS $fn$
DECLARE
  statement text;
BEGIN
  IF bucket IS NULL OR bucket NOT IN (interval '1 second', interval '1 minute', interval '1 hour',
                                      interval '1 day') THEN
    RAISE EXCEPTION 'logs.count_by_bucket: bucket must be 1 second, minute, hour or day, not %',
      bucket;
  END IF;
  statement := logs.count_by_bucket_sql(source, project, after, upto);
  IF statement IS NOT NULL THEN
    RETURN QUERY EXECUTE statement USING bucket, project, after, upto;
  END IF;
END
$fn$;
