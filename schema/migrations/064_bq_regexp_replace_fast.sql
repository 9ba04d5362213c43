-- bq.regexp_replace (062) without a search per character: PG's global replace finds the same
-- matches as RE2's GlobalReplace plus the empty ones RE2 skips (an empty match right where the
-- previous match ended), so two global passes mark every match, once with its own text and once
-- with its replacement, and the replacements of those empty matches are dropped. Text holding
-- the marker characters \x01 or \x02 takes 062's search loop (bq.regexp_replace_stepwise).
-- The translator calls this only when bq.regexp_may_match_empty(pattern), which PostgreSQL
-- folds at plan time for a literal pattern; other patterns use PG's regexp_replace directly.
ALTER FUNCTION bq.regexp_replace(text, text, text) RENAME TO regexp_replace_stepwise;

CREATE OR REPLACE FUNCTION bq.regexp_replace(s text, p text, r text) RETURNS text
LANGUAGE plpgsql IMMUTABLE STRICT PARALLEL SAFE AS $$
DECLARE
  matched text[];   -- [text before match 1, match 1 \x02 text after it, ...]
  replaced text[];  -- the same with each match's replacement
  out text;
  k int;
BEGIN
  IF NOT bq.regexp_may_match_empty(p) THEN
    RETURN regexp_replace(s, p, r, 'g');
  END IF;
  IF strpos(s, E'\x01') > 0 OR strpos(s, E'\x02') > 0 OR strpos(r, E'\x01') > 0
     OR strpos(r, E'\x02') > 0 THEN
    RETURN bq.regexp_replace_stepwise(s, p, r);
  END IF;
  matched := string_to_array(regexp_replace(s, p, E'\x01\\&\x02', 'g'), E'\x01');
  replaced := string_to_array(regexp_replace(s, p, E'\x01' || r || E'\x02', 'g'), E'\x01');
  out := coalesce(matched[1], '');  -- string_to_array('') is empty
  FOR k IN 2 .. coalesce(array_length(matched, 1), 1) LOOP
    IF left(matched[k], 1) = E'\x02' AND k > 2 AND right(matched[k - 1], 1) = E'\x02' THEN
      out := out || substr(matched[k], 2);  -- empty, where the last match ended: kept as is
    ELSE
      out := out || replace(replaced[k], E'\x02', '');
    END IF;
  END LOOP;
  RETURN out;
END
$$;
