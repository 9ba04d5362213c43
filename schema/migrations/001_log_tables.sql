-- The nine log tables, range-partitioned by day on timestamp (partitions are created by
-- logs.ensure_partition, see 003). Columns follow the ingest shape; metadata is the nested object.
CREATE SCHEMA IF NOT EXISTS logs;

DO $$
DECLARE
  source text;
BEGIN
  FOREACH source IN ARRAY ARRAY['edge', 'postgres', 'function_edge', 'function_events', 'auth',
                                'realtime', 'storage', 'restapi', 'pooler'] LOOP
    EXECUTE format($ddl$
      CREATE TABLE logs.%1$I (
        id text NOT NULL,
        "timestamp" timestamptz NOT NULL,
        event_message text NOT NULL,
        project text,
        metadata jsonb NOT NULL DEFAULT '{}'::jsonb
      ) PARTITION BY RANGE ("timestamp")$ddl$, source);
    -- Every endpoint query filters one project over a time range. NULLS LAST because BigQuery
    -- orders DESC with NULLs last and the translator emits that explicitly; the index must match.
    EXECUTE format('CREATE INDEX %1$I ON logs.%2$I (project, "timestamp" DESC NULLS LAST)',
                   source || '_project_ts', source);
    -- The loader's duplicate check looks events up by id.
    EXECUTE format('CREATE INDEX %1$I ON logs.%2$I (id)', source || '_id', source);
  END LOOP;
END
$$;

-- Sources that carry the project only inside metadata. The translator emits exactly
-- (alias.metadata ->> 'project_ref') / (alias.metadata ->> 'project') so these match.
CREATE INDEX function_edge_project_ref_ts
  ON logs.function_edge ((metadata ->> 'project_ref'), "timestamp" DESC NULLS LAST);
CREATE INDEX function_events_project_ref_ts
  ON logs.function_events ((metadata ->> 'project_ref'), "timestamp" DESC NULLS LAST);
CREATE INDEX realtime_metadata_project_ts
  ON logs.realtime ((metadata ->> 'project'), "timestamp" DESC NULLS LAST);
CREATE INDEX storage_metadata_project_ts
  ON logs.storage ((metadata ->> 'project'), "timestamp" DESC NULLS LAST);
