-- REGEXP_REPLACE with RE2's GlobalReplace semantics: an empty match right where the previous
-- match ended is not replaced (the character after it is copied and the search goes on), so
-- REGEXP_REPLACE('aaa', 'a*', 'x') is 'x' where PG's regexp_replace(..., 'g') gives 'xx'.
-- Every other match is the same, so PG's own global replace is used whenever the pattern can
-- never match an empty string: it matches none on '' and has no zero-width assertion (the only
-- way an empty match can depend on where it is). `p` is an ARE pattern converted from RE2 by
-- the translator or the gateway; `r` a PG replacement (\1..\9, \&).
CREATE OR REPLACE FUNCTION bq.regexp_may_match_empty(p text) RETURNS boolean
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE AS $$
  -- '[^' (a negated class) is no anchor; anything else looking like ^ $ \A \Z \y \Y \m \M
  -- counts, erring towards the slow path.
  SELECT '' ~ p
      OR regexp_replace(p, '(^|[^\\])\[\^', '\1[', 'g') ~ '[\^$]|\\[AZyYmM]|\(\?[=!<]'
$$;

CREATE OR REPLACE FUNCTION bq.regexp_replace(s text, p text, r text) RETURNS text
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
