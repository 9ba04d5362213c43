-- usage.api-counts lower-cases @project with the database's lower() and looks for its trigrams in
-- logs.edge_url_rest_trigrams, which pg_trgm lower-cased with its own routine (the database's
-- LC_CTYPE; lower() follows the default collation, which may be ICU). The proof of migration 025
-- holds only if both map every ASCII letter and digit alike (an ASCII one mapped to a non-ASCII
-- one by both is fine: the chart then reads the raw rows). They agree in every ordinary locale;
-- a database where they do not (ICU root collation over a Turkish LC_CTYPE) is refused here
-- rather than given wrong charts.
DO $do$
DECLARE
  word constant text := 'abcdefghijklmnopqrstuvwxyz0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ';
  expected text[];
  stored text[];
BEGIN
  SELECT array_agg(DISTINCT t ORDER BY t) INTO expected
    FROM (SELECT substr(lower(word), i, 3) AS t FROM generate_series(1, length(word) - 2) AS i) s
   WHERE octet_length(t) = 3;
  SELECT array_agg(DISTINCT t ORDER BY t) INTO stored
    FROM unnest(logs.url_rest_trigrams(word)) AS t;
  IF stored IS DISTINCT FROM expected THEN
    RAISE EXCEPTION 'pg_trgm lower-cases ASCII letters unlike lower() in this database (LC_CTYPE %), '
                    'so usage.api-counts could not prove a project absent from its trigrams',
                    current_setting('lc_ctype');
  END IF;
END
$do$;
