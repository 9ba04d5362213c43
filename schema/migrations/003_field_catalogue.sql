-- The field catalogue: one row per field path of each source, including the top-level columns.
-- Seeded by `lqe migrate` from catalogue_seed.tsv and evolved by `lqe load` and HTTP ingest.
CREATE TABLE logs.field_catalogue (
  source text NOT NULL,
  path text NOT NULL,
  bq_type text NOT NULL
    CHECK (bq_type IN ('STRING', 'INT64', 'FLOAT64', 'BOOL', 'TIMESTAMP', 'RECORD')),
  mode text NOT NULL DEFAULT 'NULLABLE' CHECK (mode IN ('NULLABLE', 'REPEATED')),
  first_seen timestamptz NOT NULL DEFAULT now(),
  last_seen timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (source, path)
);

COMMENT ON TABLE logs.field_catalogue IS
  'One row per field path of each log source (top-level columns and metadata paths) with its '
  'BigQuery type. Seeded by lqe migrate, extended and widened (INT64 to FLOAT64) by lqe load; '
  'the gateway and translator resolve fields with it.';
COMMENT ON COLUMN logs.field_catalogue.source IS 'Log source: the table name in schema logs.';
COMMENT ON COLUMN logs.field_catalogue.path IS
  'Dotted field path, e.g. metadata.response.status_code; top-level columns by their name.';
COMMENT ON COLUMN logs.field_catalogue.bq_type IS
  'BigQuery type: STRING, INT64, FLOAT64, BOOL, TIMESTAMP or RECORD.';
COMMENT ON COLUMN logs.field_catalogue.mode IS 'NULLABLE, or REPEATED for arrays.';
COMMENT ON COLUMN logs.field_catalogue.first_seen IS 'When the path was first recorded.';
COMMENT ON COLUMN logs.field_catalogue.last_seen IS 'When a loaded event last carried the path.';

-- Values whose JSON type disagrees with the catalogue are stored as sent and counted here.
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
