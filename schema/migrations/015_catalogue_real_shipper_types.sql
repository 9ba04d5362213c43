-- Catalogue types of what self-hosted Supabase really ships (Vector's transforms), replacing the
-- placeholder samples' types in catalogues seeded before: GoTrue's status (HTTP code) and
-- duration (nanoseconds) are integers, storage's pino level is an integer and its context an
-- array of records. New rows of the seed are added by lqe migrate after the migrations.
UPDATE logs.field_catalogue SET bq_type = 'INT64', mode = 'NULLABLE'
 WHERE source = 'auth' AND path IN ('metadata.status', 'metadata.duration');
UPDATE logs.field_catalogue SET bq_type = 'INT64', mode = 'NULLABLE'
 WHERE source = 'storage' AND path = 'metadata.level';
UPDATE logs.field_catalogue SET bq_type = 'RECORD', mode = 'REPEATED'
 WHERE source = 'storage' AND path = 'metadata.context';
