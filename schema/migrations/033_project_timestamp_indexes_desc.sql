-- The translator now orders a log table's NOT NULL "timestamp" with PostgreSQL's plain DESC
-- (NULLS FIRST) and ASC (NULLS LAST): without NULLs that is BigQuery's order, and it is the order
-- of the day partitions, so PostgreSQL 15 reads them one after the other, newest first, and stops
-- at the LIMIT (an ordered Append) instead of merging every partition in range. On a sharded
-- coordinator the older days are then never asked for rows when the newest ones fill the page.
-- The per-project indexes must give that order: (project, "timestamp" DESC NULLS LAST) becomes
-- (project, "timestamp" DESC), under the same names. Foreign partitions have no local index
-- (PostgreSQL skips them); a day moved to a node later takes the new index with it.
DO $$
DECLARE
  ix record;
BEGIN
  FOR ix IN
    SELECT * FROM (VALUES
      ('edge', 'edge_project_ts', 'project'), ('postgres', 'postgres_project_ts', 'project'),
      ('function_edge', 'function_edge_project_ts', 'project'),
      ('function_events', 'function_events_project_ts', 'project'),
      ('auth', 'auth_project_ts', 'project'), ('realtime', 'realtime_project_ts', 'project'),
      ('storage', 'storage_project_ts', 'project'), ('restapi', 'restapi_project_ts', 'project'),
      ('pooler', 'pooler_project_ts', 'project'),
      ('function_edge', 'function_edge_project_ref_ts', '(metadata ->> ''project_ref'')'),
      ('function_events', 'function_events_project_ref_ts', '(metadata ->> ''project_ref'')'),
      ('realtime', 'realtime_metadata_project_ts', '(metadata ->> ''project'')'),
      ('storage', 'storage_metadata_project_ts', '(metadata ->> ''project'')')) AS v(source, name, key)
  LOOP
    EXECUTE format('DROP INDEX IF EXISTS logs.%I', ix.name);
    EXECUTE format('CREATE INDEX %I ON logs.%I (%s, "timestamp" DESC)', ix.name, ix.source, ix.key);
  END LOOP;
END
$$;
