-- The bq.* function library (see 009_bq_core.sql): REGEXP_REPLACE and REGEXP_INSTR as RE2 does them.

-- REGEXP_REPLACE with RE2's GlobalReplace semantics: an empty match right where the previous
-- match ended is not replaced (the character after it is copied and the search goes on), so
-- REGEXP_REPLACE('aaa', 'a*', 'x') is 'x' where PG's regexp_replace(..., 'g') gives 'xx'.
-- Every other match is the same, so PG's own global replace is used whenever the pattern can
-- never match an empty string: it matches none on '' and has no zero-width assertion (the only
-- way an empty match can depend on where it is). `p` is an ARE pattern converted from RE2 by
-- the translator or the gateway; `r` a PG replacement (\1..\9, \&).
CREATE FUNCTION bq.regexp_may_match_empty(p text) RETURNS boolean
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE AS $$
  -- '[^' (a negated class) is no anchor; anything else looking like ^ $ \A \Z \y \Y \m \M
  -- counts, erring towards the slow path.
  SELECT '' ~ p
      OR regexp_replace(p, '(^|[^\\])\[\^', '\1[', 'g') ~ '[\^$]|\\[AZyYmM]|\(\?[=!<]'
$$;

-- RE2's GlobalReplace by searching match after match (bq.regexp_replace for text holding its
-- marker characters).
CREATE FUNCTION bq.regexp_replace_stepwise(s text, p text, r text) RETURNS text
LANGUAGE plpgsql IMMUTABLE STRICT PARALLEL SAFE AS $$
DECLARE
  n int;
  pos int := 1;       -- where the next search starts (1-based)
  copied int := 1;    -- first character of s not yet written to out
  last_end int := 0;  -- end (exclusive) of the last replaced match; 0: none yet
  m_start int;
  m_end int;
  replaced text;
  out text := '';
BEGIN
  IF NOT bq.regexp_may_match_empty(p) THEN
    RETURN regexp_replace(s, p, r, 'g');
  END IF;
  n := char_length(s);
  WHILE pos <= n + 1 LOOP
    m_start := regexp_instr(s, p, pos);
    EXIT WHEN m_start = 0;
    m_end := regexp_instr(s, p, pos, 1, 1);
    IF m_start = m_end AND m_start = last_end THEN
      pos := m_start + 1;  -- RE2 skips an empty match at the end of the last one
      CONTINUE;
    END IF;
    -- The replacement text of this one match: PG replaces the first match from pos, and the
    -- rest of the string stays as it was.
    replaced := regexp_replace(s, p, r, pos, 1);
    out := out || substr(s, copied, m_start - copied)
               || substr(replaced, m_start, char_length(replaced) - n + (m_end - m_start));
    copied := m_end;
    last_end := m_end;
    pos := m_end;
  END LOOP;
  RETURN out || substr(s, copied);
END
$$;

-- The same without a search per character: PG's global replace finds the same matches as RE2's
-- GlobalReplace plus the empty ones RE2 skips (an empty match right where the previous match
-- ended), so two global passes mark every match, once with its own text and once with its
-- replacement, and the replacements of those empty matches are dropped. Text holding the marker
-- characters \x01 or \x02 takes bq.regexp_replace_stepwise. The translator calls this only when
-- bq.regexp_may_match_empty(pattern), which PostgreSQL folds at plan time for a literal pattern;
-- other patterns use PG's regexp_replace directly.
CREATE FUNCTION bq.regexp_replace(s text, p text, r text) RETURNS text
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

-- REGEXP_INSTR(source, pattern (converted from RE2), position, occurrence, occurrence_position,
-- capture group 0 or 1). Matches are found as RE2 iterates: an empty match right after a match
-- does not count. BigQuery reports an empty match at p as p + 1 (0 past the end).
CREATE FUNCTION bq.regexp_instr(s text, pat text, pos bigint, occ bigint,
                                           after_match bigint, grp int)
RETURNS bigint
LANGUAGE plpgsql IMMUTABLE STRICT PARALLEL SAFE SET search_path = pg_catalog, pg_temp AS $$
DECLARE
  n bigint := length(s);
  cur bigint := pos;
  prev_end bigint := -1;
  found bigint := 0;
  st int;
  en int;
BEGIN
  IF pos <= 0 THEN
    RAISE EXCEPTION 'Position must be positive' USING ERRCODE = 'invalid_parameter_value';
  END IF;
  IF occ <= 0 THEN
    RAISE EXCEPTION 'Occurrence must be positive' USING ERRCODE = 'invalid_parameter_value';
  END IF;
  IF after_match NOT IN (0, 1) THEN
    RAISE EXCEPTION 'Invalid return_position_after_match.' USING ERRCODE = 'invalid_parameter_value';
  END IF;
  LOOP
    IF cur > n + 1 THEN RETURN 0; END IF;
    st := regexp_instr(s, pat, cur::int);
    IF st = 0 THEN RETURN 0; END IF;
    en := regexp_instr(s, pat, st, 1, 1);
    IF en = st THEN
      IF st <> prev_end THEN
        found := found + 1;
        IF found = occ THEN RETURN CASE WHEN st + 1 > n + 1 THEN 0 ELSE st + 1 END; END IF;
      END IF;
      cur := st + 1;
    ELSE
      found := found + 1;
      IF found = occ THEN
        RETURN regexp_instr(s, pat, st, 1, after_match::int, '', grp);
      END IF;
      cur := en;
      prev_end := en;
    END IF;
  END LOOP;
END
$$;

