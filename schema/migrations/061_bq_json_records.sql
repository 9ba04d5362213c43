-- A REPEATED record read out of jsonb (the translator emits this for every nested record, which
-- is REPEATED as in Logflare's BigQuery schema). Events send a record as an object or as an array
-- of objects: an object is the array of that one record, an array stays as it is, and a missing
-- (or any other) value is BigQuery's empty array. Plain SQL so the planner inlines it.
CREATE OR REPLACE FUNCTION bq.json_records(j jsonb) RETURNS jsonb
LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT CASE jsonb_typeof(j)
           WHEN 'object' THEN jsonb_build_array(j)
           WHEN 'array' THEN j
           ELSE '[]'::jsonb
         END
$$;

-- UNNEST of a REPEATED record: its elements, by the same rules (an object is one element; a
-- missing value none). PL/pgSQL, so it is not inlined and the planner keeps its estimate of one
-- row per event (the usual case): with jsonb_array_elements' 100 it would sort a whole project
-- instead of reading the (project, timestamp) index up to the LIMIT.
CREATE OR REPLACE FUNCTION bq.json_record_elements(j jsonb) RETURNS SETOF jsonb
LANGUAGE plpgsql IMMUTABLE PARALLEL SAFE ROWS 1 AS $$
BEGIN
  IF jsonb_typeof(j) = 'object' THEN
    RETURN NEXT j;
  ELSIF jsonb_typeof(j) = 'array' THEN
    RETURN QUERY SELECT e FROM jsonb_array_elements(j) AS e;
  END IF;
END
$$;
