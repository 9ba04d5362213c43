-- The ingest event model (one for HTTP ingest and lqe load): top-level keys without a column of
-- their own (appname, severity, level, ...) are kept in `extra` instead of being refused or
-- dropped; an event without a message stores NULL, as in Logflare. Values whose JSON type
-- disagrees with the catalogue are stored as sent and counted in logs.catalogue_conflicts.
DO $$
DECLARE
  source text;
BEGIN
  FOREACH source IN ARRAY ARRAY['edge', 'postgres', 'function_edge', 'function_events', 'auth',
                                'realtime', 'storage', 'restapi', 'pooler'] LOOP
    -- A constant default: no table rewrite, existing rows read '{}'.
    EXECUTE format('ALTER TABLE logs.%I ADD COLUMN extra jsonb NOT NULL DEFAULT ''{}''::jsonb',
                   source);
    EXECUTE format('ALTER TABLE logs.%I ALTER COLUMN event_message DROP NOT NULL', source);
    EXECUTE format('COMMENT ON COLUMN logs.%I.extra IS %L', source,
                   'Top-level keys of the posted event other than id, timestamp, message, '
                   'event_message, project and metadata (e.g. appname, severity), with '
                   'BigQuery column names; listed in logs.field_catalogue as extra.<key>.');
    EXECUTE format('COMMENT ON COLUMN logs.%I.event_message IS %L', source,
                   'The log line as text (the event''s message, else its event_message); NULL '
                   'when it had neither.');
  END LOOP;
END
$$;

CREATE TABLE logs.catalogue_conflicts (
  source text NOT NULL,
  path text NOT NULL,
  catalogue_type text NOT NULL,
  seen_type text NOT NULL,
  count bigint NOT NULL CHECK (count > 0),
  first_seen timestamptz NOT NULL DEFAULT now(),
  last_seen timestamptz NOT NULL DEFAULT now(),
  example text NOT NULL,
  PRIMARY KEY (source, path, seen_type)
);
COMMENT ON TABLE logs.catalogue_conflicts IS
  'Values stored although their JSON type disagrees with logs.field_catalogue (the catalogue '
  'keeps its type; queries read such a value as NULL, or as its text for a STRING field). One '
  'row per source, field path and seen type; count = values seen; example = the first one as '
  'JSON (at most 200 bytes). catalogue_type NONE: a new field whose values clashed in one event.';
COMMENT ON COLUMN logs.catalogue_conflicts.source IS 'Log source (table name in schema logs).';
COMMENT ON COLUMN logs.catalogue_conflicts.path IS
  'Field path as in logs.field_catalogue, e.g. metadata.status.';
COMMENT ON COLUMN logs.catalogue_conflicts.catalogue_type IS
  'The catalogue''s type of the path (e.g. INT64, REPEATED RECORD); NONE for an uncatalogued path.';
COMMENT ON COLUMN logs.catalogue_conflicts.seen_type IS
  'The JSON type the events had (e.g. STRING, RECORD); MIXED for clashing values in one event.';
COMMENT ON COLUMN logs.catalogue_conflicts.count IS 'Values seen with this type so far.';
COMMENT ON COLUMN logs.catalogue_conflicts.first_seen IS 'When the first such value was loaded.';
COMMENT ON COLUMN logs.catalogue_conflicts.last_seen IS 'When the latest such value was loaded.';
COMMENT ON COLUMN logs.catalogue_conflicts.example IS
  'The first such value as JSON, cut at 200 bytes.';
