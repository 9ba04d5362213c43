-- Reads of catalogued scalars out of jsonb (the translator emits these for INT64 and FLOAT64
-- fields). A stored value may disagree with the catalogue (lqe keeps such events whole and counts
-- them in logs.catalogue_conflicts), so a value that cannot be read as the type is NULL instead
-- of an error that fails the whole query. The common case (a JSON number's text) takes a plain
-- cast; plain SQL so the planner inlines it.
CREATE OR REPLACE FUNCTION bq.json_int64(s text) RETURNS bigint
LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT CASE WHEN s ~ '^-?[0-9]{1,18}$' THEN s::bigint ELSE bq.safe_cast_int64(s) END
$$;

CREATE OR REPLACE FUNCTION bq.json_float64(s text) RETURNS double precision
LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT CASE WHEN s ~ '^-?[0-9]{1,255}(\.[0-9]{1,255})?$' THEN s::double precision
              ELSE bq.safe_cast_float64(s) END
$$;

-- UNNEST of a REPEATED field: a stored value that is not a JSON array gives no rows (NULL)
-- instead of jsonb_array_elements' error.
CREATE OR REPLACE FUNCTION bq.json_array(j jsonb) RETURNS jsonb
LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT CASE WHEN jsonb_typeof(j) = 'array' THEN j END
$$;
