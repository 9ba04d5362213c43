#!/usr/bin/env bash
# Prints a normalised description of what `lqe migrate` made of a database, so two databases
# migrated differently can be compared line by line (tests/fixtures/schema/baseline_schema.sql):
#   1. pg_dump --schema-only --create (tables, indexes, functions, triggers, comments, grants,
#      default privileges, the database's own grants), without the daily partitions (their names
#      hold the dates around today; logs.ensure_partition makes them all alike), with pg_dump's
#      own "--" lines, blank lines and SET lines removed, "--" comments inside function bodies
#      removed (they explain, they do not run), and each run of GRANT/REVOKE lines sorted (the
#      order of an object's grants is the order they were given in);
#   2. the rows of every table of schema logs other than the log tables and
#      logs.schema_migrations (the seeded catalogue, promoted fields, the role record...), as JSON
#      without their timestamptz columns that default to now() and with partition names' dates
#      replaced by YYYYMMDD;
#   3. the roles lqe configures (lqe_gateway, lqe_gateway_<db>, lqe_ingest_<db>) with their
#      attributes and settings (of lqe_gateway's, only the one every database sets).
# The database's name is replaced by DATABASE everywhere.
# Usage: schema_dump.sh DSN
set -euo pipefail
dsn=$1
bin=/usr/lib/postgresql/15/bin
pg_dump=pg_dump
if [[ -x $bin/pg_dump ]]; then pg_dump=$bin/pg_dump; fi

sql() {
  psql -X -q -v ON_ERROR_STOP=1 -tA "$dsn" -c "$1"
}

db=$(sql "SELECT current_database()")

# Removes a "--" comment that lies outside a quoted literal from each line, then blank lines.
strip_comments() {
  awk '{
    out = ""; quoted = 0; n = length($0)
    for (i = 1; i <= n; i++) {
      c = substr($0, i, 1)
      if (!quoted && c == "-" && substr($0, i + 1, 1) == "-") break
      if (c == "'"'"'") quoted = !quoted
      out = out c
    }
    sub(/[ \t]+$/, "", out)
    if (out != "") print out
  }'
}

# Sorts each run of consecutive GRANT/REVOKE/ALTER DEFAULT PRIVILEGES lines.
sort_grant_runs() {
  awk '
    function flush() { if (n > 0) { cmd = "LC_ALL=C sort"; for (i = 1; i <= n; i++) print run[i] | cmd; close(cmd); n = 0 } }
    /^(GRANT|REVOKE|ALTER DEFAULT PRIVILEGES) / { run[++n] = $0; next }
    { flush(); print }
    END { flush() }'
}

echo "-- schema"
"$pg_dump" --schema-only --create --no-tablespaces --exclude-table='logs.*_p[0-9]*' "$dsn" |
  grep -v -E "^(--|SET |SELECT pg_catalog.set_config\('search_path'|\\\\(connect|restrict|unrestrict) )" |
  sed -E "s/^CREATE DATABASE .*/CREATE DATABASE $db;/" |
  strip_comments | sort_grant_runs | sed "s/$db/DATABASE/g"

echo "-- rows"
sql "
  SELECT format('SELECT %L || '' '' || (to_jsonb(t) - %L::text[])::text FROM logs.%I t ORDER BY 1',
                c.relname,
                (SELECT coalesce(array_agg(a.attname::text), '{}')
                   FROM pg_attribute a JOIN pg_attrdef d ON d.adrelid = a.attrelid
                                                        AND d.adnum = a.attnum
                  WHERE a.attrelid = c.oid AND a.atttypid = 'timestamptz'::regtype
                    AND pg_get_expr(d.adbin, d.adrelid) = 'now()'),
                c.relname)
    FROM pg_class c
   WHERE c.relnamespace = 'logs'::regnamespace AND c.relkind = 'r' AND NOT c.relispartition
     AND c.relname <> 'schema_migrations'
   ORDER BY c.relname" |
  while IFS= read -r query; do sql "$query"; done |
  sed -E "s/$db/DATABASE/g; s/_p[0-9]{8}\b/_pYYYYMMDD/g"

echo "-- roles"
# The shared lqe_gateway's other settings belong to whichever database made it its gateway role.
sql "
  SELECT r.rolname, r.rolsuper, r.rolinherit, r.rolcreaterole, r.rolcreatedb, r.rolcanlogin,
         r.rolreplication, r.rolbypassrls, r.rolconnlimit,
         CASE WHEN r.rolname = 'lqe_gateway'
              THEN ARRAY(SELECT s FROM unnest(r.rolconfig) AS s
                          WHERE s = 'default_transaction_read_only=on')
              ELSE (SELECT array_agg(s ORDER BY s) FROM unnest(r.rolconfig) AS s) END
    FROM pg_roles r
   WHERE r.rolname IN ('lqe_gateway', 'lqe_gateway_' || current_database(),
                       'lqe_ingest_' || current_database())
   ORDER BY 1" | sed "s/$db/DATABASE/g"
