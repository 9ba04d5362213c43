-- The field catalogue: one row per field path of each source, including the top-level columns.
-- Seeded by `lqe migrate` from catalogue_seed.tsv and evolved by `lqe load`.
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
