-- More helpers for the translator's output (see 050 for the first set): SUBSTR positions,
-- SPLIT edge cases, JSON_VALUE's scalar-only result, and PERCENTILE_CONT/DISC as analytic
-- functions (PG has them only as ordered-set aggregates). All are plain SQL, so PARALLEL SAFE.

-- SUBSTR(s, pos[, len]): 1-based; pos 0 is 1; a negative pos counts from the end; a negative
-- len is an error in BigQuery. plpgsql, so the error branch is never folded at plan time.
CREATE OR REPLACE FUNCTION bq.substr(s text, pos bigint, len bigint DEFAULT NULL) RETURNS text
LANGUAGE plpgsql IMMUTABLE PARALLEL SAFE AS $$
BEGIN
  IF s IS NULL OR pos IS NULL THEN
    RETURN NULL;
  END IF;
  IF len < 0 THEN
    RAISE EXCEPTION 'SUBSTR length must not be negative' USING ERRCODE = 'invalid_parameter_value';
  END IF;
  RETURN substr(s,
                CASE WHEN pos > 0 THEN pos
                     WHEN pos = 0 THEN 1
                     ELSE greatest(char_length(s) + pos + 1, 1) END::int,
                coalesce(len, char_length(s) + 1)::int);
END
$$;

-- SPLIT(s, d): '' splits to [''] and an empty delimiter splits into characters, as in BigQuery.
CREATE OR REPLACE FUNCTION bq.split(s text, d text) RETURNS text[]
LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT CASE
    WHEN s IS NULL OR d IS NULL THEN NULL
    WHEN s = '' THEN ARRAY['']
    WHEN d = '' THEN regexp_split_to_array(s, '')
    ELSE string_to_array(s, d)
  END
$$;

-- JSON_VALUE: the text of a JSON scalar; NULL for objects, arrays and JSON null.
CREATE OR REPLACE FUNCTION bq.json_scalar(j jsonb) RETURNS text
LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT CASE WHEN jsonb_typeof(j) IN ('object', 'array', 'null') THEN NULL ELSE j #>> '{}' END
$$;

-- JSON text without insignificant whitespace, as BigQuery prints JSON (JSON_QUERY on a STRING,
-- TO_JSON_STRING); PG's jsonb output puts a space after ':' and ','. plpgsql because it recurses.
CREATE OR REPLACE FUNCTION bq.json_text(j jsonb) RETURNS text
LANGUAGE plpgsql IMMUTABLE PARALLEL SAFE AS $$
BEGIN
  RETURN CASE jsonb_typeof(j)
    WHEN 'object' THEN '{' || coalesce((SELECT string_agg(to_jsonb(e.k)::text || ':' || bq.json_text(e.v), ',')
                                        FROM jsonb_each(j) AS e(k, v)), '') || '}'
    WHEN 'array' THEN '[' || coalesce((SELECT string_agg(bq.json_text(e.v), ',' ORDER BY e.n)
                                       FROM jsonb_array_elements(j) WITH ORDINALITY AS e(v, n)), '') || ']'
    ELSE j::text
  END;
END
$$;

-- PERCENTILE_CONT(x, p) OVER (PARTITION BY ...): the translator passes the partition's values
-- as array_agg(x) OVER (PARTITION BY ...). NULLs are ignored, as in BigQuery.
CREATE OR REPLACE FUNCTION bq.percentile_cont(vals double precision[], p double precision)
RETURNS double precision
LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT percentile_cont(p) WITHIN GROUP (ORDER BY v) FROM unnest(vals) AS v
$$;

CREATE OR REPLACE FUNCTION bq.percentile_disc(vals anyarray, p double precision)
RETURNS anyelement
LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT percentile_disc(p) WITHIN GROUP (ORDER BY v) FROM unnest(vals) AS v
$$;

REVOKE EXECUTE ON ALL FUNCTIONS IN SCHEMA bq FROM PUBLIC;
GRANT EXECUTE ON ALL FUNCTIONS IN SCHEMA bq TO lqe_gateway;
