-- One attribute of logs.otel's log_attributes read without building the whole map. A ClickHouse
-- query's log_attributes['request.method'] compiles to logs.otel_attribute(attributes_event,
-- 'request.method'), which the planner inlines into two or three jsonb operators on the row's own
-- columns (as a BigQuery-dialect query reads metadata.request.method), instead of flattening
-- every key of the event per row (logs.otel_flatten, about a millisecond per row on edge events).
-- Idempotent, like 019.

-- The precedence of a key reachable by more than one path (a key with a dot in it, as
-- {"a.b": 1} next to {"a": {"b": 2}}): the deepest path wins, then the greatest path (its keys
-- compared bytewise, one by one). Written
-- down here so that the whole map and the one-key lookup below agree.
CREATE OR REPLACE FUNCTION logs.otel_flatten(doc jsonb) RETURNS jsonb
LANGUAGE sql IMMUTABLE PARALLEL SAFE
BEGIN ATOMIC
  WITH RECURSIVE walk(key, value, path) AS (
    SELECT e.key, e.value, ARRAY[e.key]
    FROM jsonb_each(CASE WHEN jsonb_typeof(doc) = 'object' THEN doc END) AS e
    UNION ALL
    SELECT w.key || '.' || c.key, c.value, w.path || c.key
    FROM walk AS w, jsonb_each(w.value) AS c
    WHERE jsonb_typeof(w.value) = 'object'
  )
  SELECT coalesce(jsonb_object_agg(walk.key, CASE jsonb_typeof(walk.value)
                                               WHEN 'string' THEN walk.value #>> '{}'
                                               ELSE walk.value::text END
                                   ORDER BY cardinality(walk.path), walk.path COLLATE "C"),
                  '{}'::jsonb)
  FROM walk
  WHERE jsonb_typeof(walk.value) NOT IN ('object', 'null');
END;

-- What logs.otel_attribute reads: the row's project and its two documents, as one value so that
-- a query passes a single hidden column through its CTEs.
DO $$
BEGIN
  IF to_regtype('logs.otel_event') IS NULL THEN
    CREATE TYPE logs.otel_event AS (project text, extra jsonb, metadata jsonb);
  END IF;
END
$$;

-- The value at `path` of `doc` as the map holds it: a string's text, a number's, boolean's or
-- array's JSON text; NULL for an object (the map has its leaves instead), JSON null or nothing.
-- Reads `doc #>> path` twice in the common case, `doc #> path` once more only for a value
-- starting with '{'.
CREATE OR REPLACE FUNCTION logs.otel_doc_text(doc jsonb, path text[]) RETURNS text
LANGUAGE sql IMMUTABLE PARALLEL SAFE
RETURN CASE WHEN starts_with(doc #>> path, '{') AND jsonb_typeof(doc #> path) = 'object' THEN NULL
            ELSE doc #>> path END;

-- The slow path: `key` in the event's flattened map by walking only the object keys that are a
-- prefix of it (a key with dots in it), with otel_flatten's precedence.
CREATE OR REPLACE FUNCTION logs.otel_lookup(ev logs.otel_event, key text) RETURNS text
LANGUAGE sql IMMUTABLE PARALLEL SAFE
BEGIN ATOMIC
  WITH RECURSIVE walk(value, rest, path) AS (
    SELECT jsonb_strip_nulls(jsonb_build_object('project', (ev).project)) || (ev).extra
             || (ev).metadata,
           key, ARRAY[]::text[]
    UNION ALL
    SELECT w.value -> c.k, CASE WHEN c.k = w.rest THEN NULL ELSE substr(w.rest, length(c.k) + 2) END,
           w.path || c.k
    FROM walk AS w, jsonb_object_keys(w.value) AS c(k)
    WHERE w.rest IS NOT NULL AND jsonb_typeof(w.value) = 'object'
      AND (c.k = w.rest OR starts_with(w.rest, c.k || '.'))
  )
  SELECT CASE jsonb_typeof(walk.value) WHEN 'string' THEN walk.value #>> '{}'
                                       ELSE walk.value::text END
  FROM walk
  WHERE walk.rest IS NULL AND jsonb_typeof(walk.value) NOT IN ('object', 'null')
  ORDER BY cardinality(walk.path) DESC, walk.path COLLATE "C" DESC
  LIMIT 1;
END;

-- logs.otel_log_attributes(...) ->> key, exactly, without the map: the key split at every dot is
-- the deepest path, so when it holds a value that value wins; metadata's top-level keys shadow
-- extra's and both the project column. Only a dotted key not found that way (missing, JSON
-- null, or reached through a key with a dot in it) takes the slow path. Inlined by the planner:
-- it calls only immutable functions and reads each argument's fields, which are plain columns.
CREATE OR REPLACE FUNCTION logs.otel_attribute(ev logs.otel_event, key text) RETURNS text
LANGUAGE sql IMMUTABLE PARALLEL SAFE
RETURN coalesce(
  logs.otel_doc_text((ev).metadata, string_to_array(key, '.')),
  CASE WHEN (ev).metadata ? split_part(key, '.', 1) THEN NULL
       WHEN (ev).extra ? split_part(key, '.', 1)
         THEN logs.otel_doc_text((ev).extra, string_to_array(key, '.'))
       WHEN key = 'project' THEN (ev).project END,
  CASE WHEN strpos(key, '.') > 0 THEN logs.otel_lookup(ev, key) END);

COMMENT ON FUNCTION logs.otel_attribute(logs.otel_event, text) IS
  'logs.otel''s log_attributes ->> key, read from the event''s documents without building the '
  'map (ClickHouse-dialect log_attributes[''key'']).';

-- logs.otel_events: logs.otel with attributes_event, what logs.otel_attribute reads; the
-- relation ClickHouse-dialect queries read as the table `logs`. logs.otel becomes its first
-- columns (a database re-stamped from the chain before the baseline runs 019 again, whose
-- CREATE OR REPLACE VIEW logs.otel must still find the columns it made). The branches are 019's.
DO $$
DECLARE
  branches text[] := ARRAY[]::text[];
  spec text[];
BEGIN
  FOREACH spec SLICE 1 IN ARRAY ARRAY[
      ARRAY['edge', 'edge_logs', 't.project'],
      ARRAY['postgres', 'postgres_logs', 't.project'],
      ARRAY['function_edge', 'function_edge_logs', '(t.metadata ->> ''project_ref'')'],
      ARRAY['function_events', 'function_logs', '(t.metadata ->> ''project_ref'')'],
      ARRAY['auth', 'auth_logs', 't.project'],
      ARRAY['realtime', 'realtime_logs', '(t.metadata ->> ''project'')'],
      ARRAY['storage', 'storage_logs', '(t.metadata ->> ''project'')'],
      ARRAY['restapi', 'postgrest_logs', 't.project'],
      ARRAY['pooler', 'pgbouncer_logs', 't.project']] LOOP
    branches := branches || format($branch$
  SELECT t.id, t."timestamp", %3$s AS project, %2$L::text AS source,
         coalesce(t.event_message, '') AS event_message,
         logs.otel_severity_text(t.extra, t.metadata) AS severity_text,
         logs.otel_severity_number(logs.otel_severity_text(t.extra, t.metadata))
           AS severity_number,
         logs.otel_service_name(t.extra, t.metadata) AS service_name,
         logs.otel_trace_id(t.extra, t.metadata) AS trace_id,
         logs.otel_span_id(t.extra, t.metadata) AS span_id,
         logs.otel_scope_name(t.extra, t.metadata) AS scope_name,
         logs.otel_log_attributes(%3$s, t.extra, t.metadata) AS log_attributes,
         logs.otel_resource_attributes(%3$s, t.extra, t.metadata) AS resource_attributes,
         ROW(%3$s, t.extra, t.metadata)::logs.otel_event AS attributes_event
  FROM logs.%1$I AS t$branch$, spec[1], spec[2], spec[3]);
  END LOOP;
  EXECUTE 'CREATE OR REPLACE VIEW logs.otel_events AS'
    || array_to_string(branches, E'\n  UNION ALL');
END
$$;

CREATE OR REPLACE VIEW logs.otel AS
  SELECT id, "timestamp", project, source, event_message, severity_text, severity_number,
         service_name, trace_id, span_id, scope_name, log_attributes, resource_attributes
  FROM logs.otel_events;

COMMENT ON VIEW logs.otel_events IS
  'logs.otel with attributes_event (the row''s project, extra and metadata, from which '
  'logs.otel_attribute reads one key of log_attributes without building the map): the table '
  'logs of ClickHouse-dialect queries.';

GRANT SELECT ON logs.otel_events TO lqe_gateway;

-- The planner tries to inline every column of every branch of the view while planning any query
-- on it, and these two always fail after the work (jsonb_build_object is not immutable): a SET
-- clause makes it skip them, which takes milliseconds off planning. At run time they are called
-- as before.
ALTER FUNCTION logs.otel_log_attributes(text, jsonb, jsonb) SET search_path = logs, pg_catalog;
ALTER FUNCTION logs.otel_resource_attributes(text, jsonb, jsonb)
  SET search_path = logs, pg_catalog;
