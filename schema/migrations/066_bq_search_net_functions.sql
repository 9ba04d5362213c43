-- BigQuery functions added for coverage (tests/oracle/cases/functions_more.sql): INSTR,
-- REGEXP_INSTR, the NET. IP functions, RANGE_BUCKET and ARRAY_CONCAT_AGG. Errors carry
-- BigQuery's messages. No exception blocks: they would make the functions PARALLEL UNSAFE.

-- INSTR(source, search, position, occurrence) over STRING (characters) or BYTES (bytes).
-- Occurrences may overlap. A negative position searches backwards from the end: a match counts
-- when it starts at or before length + position + 1 (+ 2 for an empty search, as BigQuery).
CREATE OR REPLACE FUNCTION bq.instr(s anycompatible, sub anycompatible, pos bigint, occ bigint)
RETURNS bigint
LANGUAGE plpgsql IMMUTABLE STRICT PARALLEL SAFE SET search_path = pg_catalog, pg_temp AS $$
DECLARE
  n bigint := length(s);
  m bigint := length(sub);
  found bigint := 0;
  i bigint;
  r bigint;
BEGIN
  IF pos = 0 THEN
    RAISE EXCEPTION 'Position must be non-zero' USING ERRCODE = 'invalid_parameter_value';
  END IF;
  IF occ <= 0 THEN
    RAISE EXCEPTION 'Occurrence must be positive' USING ERRCODE = 'invalid_parameter_value';
  END IF;
  IF pos > 0 THEN
    i := pos;
    LOOP
      IF i > n - m + 1 THEN RETURN 0; END IF;
      r := position(sub IN substr(s, i::int));
      IF r = 0 THEN RETURN 0; END IF;
      i := i + r - 1;
      found := found + 1;
      IF found = occ THEN RETURN i; END IF;
      i := i + 1;
    END LOOP;
  END IF;
  i := least(n + pos + 1 + (m = 0)::int, n - m + 1);
  WHILE i >= 1 LOOP
    IF substr(s, i::int, m::int) = sub THEN
      found := found + 1;
      IF found = occ THEN RETURN i; END IF;
    END IF;
    i := i - 1;
  END LOOP;
  RETURN 0;
END
$$;

-- REGEXP_INSTR(source, pattern (converted from RE2), position, occurrence, occurrence_position,
-- capture group 0 or 1). Matches are found as RE2 iterates: an empty match right after a match
-- does not count. BigQuery reports an empty match at p as p + 1 (0 past the end).
CREATE OR REPLACE FUNCTION bq.regexp_instr(s text, pat text, pos bigint, occ bigint,
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

-- NET.SAFE_IP_FROM_STRING: dotted-quad IPv4 (no leading zeros) as 4 bytes, IPv6 (with one
-- optional ::, an optional dotted-quad tail, no zone or prefix) as 16 bytes, else NULL.
CREATE OR REPLACE FUNCTION bq.safe_ip_from_string(s text) RETURNS bytea
LANGUAGE plpgsql IMMUTABLE STRICT PARALLEL SAFE SET search_path = pg_catalog, pg_temp AS $$
DECLARE
  octet constant text := '(25[0-5]|2[0-4][0-9]|1[0-9][0-9]|[1-9]?[0-9])';
  quad constant text := octet || '\.' || octet || '\.' || octet || '\.' || octet || '$';
  q text[];
  v6 text := s;
  groups text[];
  head text[];
  tail text[];
  g text;
  hex text := '';
BEGIN
  q := regexp_match(s, '^' || quad);
  IF q IS NOT NULL THEN
    RETURN decode(lpad(to_hex(q[1]::int), 2, '0') || lpad(to_hex(q[2]::int), 2, '0')
                  || lpad(to_hex(q[3]::int), 2, '0') || lpad(to_hex(q[4]::int), 2, '0'), 'hex');
  END IF;
  IF s !~ '^[0-9A-Fa-f:.]+$' OR strpos(s, ':') = 0 THEN RETURN NULL; END IF;
  -- A dotted-quad tail is the last two groups.
  q := regexp_match(s, '^(.*:)' || quad);
  IF q IS NOT NULL THEN
    v6 := q[1] || to_hex(q[2]::int * 256 + q[3]::int) || ':' || to_hex(q[4]::int * 256 + q[5]::int);
  ELSIF strpos(s, '.') > 0 THEN
    RETURN NULL;
  END IF;
  IF v6 ~ ':::' OR v6 ~ '::.*::' THEN RETURN NULL; END IF;
  IF strpos(v6, '::') > 0 THEN
    head := CASE WHEN split_part(v6, '::', 1) = '' THEN '{}'::text[]
                 ELSE string_to_array(split_part(v6, '::', 1), ':') END;
    tail := CASE WHEN split_part(v6, '::', 2) = '' THEN '{}'::text[]
                 ELSE string_to_array(split_part(v6, '::', 2), ':') END;
    IF cardinality(head) + cardinality(tail) > 7 THEN RETURN NULL; END IF;
    groups := head || array_fill('0'::text, ARRAY[8 - cardinality(head) - cardinality(tail)]) || tail;
  ELSE
    groups := string_to_array(v6, ':');
    IF cardinality(groups) <> 8 THEN RETURN NULL; END IF;
  END IF;
  FOREACH g IN ARRAY groups LOOP
    IF g !~ '^[0-9A-Fa-f]{1,4}$' THEN RETURN NULL; END IF;
    hex := hex || lpad(g, 4, '0');
  END LOOP;
  RETURN decode(hex, 'hex');
END
$$;

CREATE OR REPLACE FUNCTION bq.ip_from_string(s text) RETURNS bytea
LANGUAGE plpgsql IMMUTABLE STRICT PARALLEL SAFE SET search_path = pg_catalog, pg_temp AS $$
DECLARE
  b bytea := bq.safe_ip_from_string(s);
BEGIN
  IF b IS NULL THEN
    RAISE EXCEPTION 'NET.IP_FROM_STRING() encountered an unparseable IP-address: %', s
      USING ERRCODE = 'invalid_parameter_value';
  END IF;
  RETURN b;
END
$$;

-- NET.IP_TO_STRING: IPv6 text as PostgreSQL's inet prints it (RFC 5952 compression, dotted-quad
-- tail for ::ffff:a.b.c.d and ::a.b.c.d), which is BigQuery's text.
CREATE OR REPLACE FUNCTION bq.ip_to_string(b bytea) RETURNS text
LANGUAGE plpgsql IMMUTABLE STRICT PARALLEL SAFE SET search_path = pg_catalog, pg_temp AS $$
DECLARE
  h text := encode(b, 'hex');
BEGIN
  IF length(b) = 4 THEN
    RETURN get_byte(b, 0) || '.' || get_byte(b, 1) || '.' || get_byte(b, 2) || '.' || get_byte(b, 3);
  END IF;
  IF length(b) <> 16 THEN
    RAISE EXCEPTION 'NET.IP_TO_STRING() encountered an invalid IP address. Expected 4 (for IPv4) or 16 (for IPv6) bytes but got %',
      length(b) USING ERRCODE = 'invalid_parameter_value';
  END IF;
  RETURN host((SELECT string_agg(substr(h, i * 4 + 1, 4), ':' ORDER BY i)
               FROM generate_series(0, 7) AS i)::inet);
END
$$;

-- The mask of `prefix` leading one bits over `n` bytes, as hex byte values.
CREATE OR REPLACE FUNCTION bq.ip_mask_byte(prefix bigint, i int) RETURNS int
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE SET search_path = pg_catalog, pg_temp AS $$
  SELECT (255 << (8 - least(greatest(prefix - 8 * i, 0), 8))::int) & 255
$$;

CREATE OR REPLACE FUNCTION bq.ip_net_mask(n bigint, prefix bigint) RETURNS bytea
LANGUAGE plpgsql IMMUTABLE STRICT PARALLEL SAFE SET search_path = pg_catalog, pg_temp AS $$
BEGIN
  IF n NOT IN (4, 16) THEN
    RAISE EXCEPTION 'The first argument of NET.IP_NET_MASK() must be either 4 (for IPv4) or 16 (for IPv6); got %',
      n USING ERRCODE = 'invalid_parameter_value';
  END IF;
  IF prefix < 0 OR prefix > n * 8 THEN
    RAISE EXCEPTION 'The second argument of NET.IP_NET_MASK() must be between 0 and the first argument * 8; got %',
      prefix USING ERRCODE = 'invalid_parameter_value';
  END IF;
  RETURN decode((SELECT string_agg(lpad(to_hex(bq.ip_mask_byte(prefix, i)), 2, '0'), '' ORDER BY i)
                 FROM generate_series(0, n::int - 1) AS i), 'hex');
END
$$;

CREATE OR REPLACE FUNCTION bq.ip_trunc(b bytea, prefix bigint) RETURNS bytea
LANGUAGE plpgsql IMMUTABLE STRICT PARALLEL SAFE SET search_path = pg_catalog, pg_temp AS $$
BEGIN
  IF length(b) NOT IN (4, 16) THEN
    RAISE EXCEPTION 'The first argument of NET.IP_TRUNC() must have length 4 (for IPv4) or 16 (for IPv6); got %',
      length(b) USING ERRCODE = 'invalid_parameter_value';
  END IF;
  IF prefix < 0 OR prefix > length(b) * 8 THEN
    RAISE EXCEPTION 'The second argument of NET.IP_TRUNC() must be between 0 and 8 * LENGTH(first argument); got %',
      prefix USING ERRCODE = 'invalid_parameter_value';
  END IF;
  RETURN decode((SELECT string_agg(lpad(to_hex(get_byte(b, i) & bq.ip_mask_byte(prefix, i)), 2, '0'),
                                   '' ORDER BY i)
                 FROM generate_series(0, length(b) - 1) AS i), 'hex');
END
$$;

-- RANGE_BUCKET(point, boundaries): how many boundaries are <= point. The boundaries must be in
-- ascending order, without NULL or NaN (errors as BigQuery's, positions 1-based).
CREATE OR REPLACE FUNCTION bq.range_bucket(x anycompatible, a anycompatiblearray) RETURNS bigint
LANGUAGE plpgsql IMMUTABLE STRICT PARALLEL SAFE SET search_path = pg_catalog, pg_temp AS $$
DECLARE
  n int := coalesce(cardinality(a), 0);
  below bigint := 0;
BEGIN
  FOR i IN 1 .. n LOOP
    IF a[i]::text = 'NaN' THEN
      RAISE EXCEPTION 'Elements in input array to RANGE_BUCKET cannot be NaN. NaN element found at position %',
        i USING ERRCODE = 'invalid_parameter_value';
    END IF;
    IF i > 1 AND (a[i] IS NULL OR a[i - 1] IS NULL OR a[i] < a[i - 1]) THEN
      RAISE EXCEPTION 'Elements in input array to RANGE_BUCKET must be in ascending order. Nonconforming elements found at position % and %',
        i - 1, i USING ERRCODE = 'invalid_parameter_value';
    END IF;
    IF a[i] <= x THEN below := below + 1; END IF;
  END LOOP;
  RETURN below;
END
$$;

-- ARRAY_CONCAT_AGG: the arrays concatenated in input order; NULL arrays are skipped, and no
-- (or only NULL) arrays give NULL.
CREATE OR REPLACE AGGREGATE bq.array_concat_agg(anycompatiblearray) (
  SFUNC = array_cat,
  STYPE = anycompatiblearray
);

-- The same over arrays held as jsonb (an ARRAY field of a STRUCT): a value that is not a JSON
-- array (SQL NULL, JSON null) is skipped.
CREATE OR REPLACE FUNCTION bq.json_array_cat(acc jsonb, a jsonb) RETURNS jsonb
LANGUAGE sql IMMUTABLE PARALLEL SAFE SET search_path = pg_catalog, pg_temp AS $$
  SELECT CASE WHEN a IS NULL OR jsonb_typeof(a) <> 'array' THEN acc
              WHEN acc IS NULL THEN a
              ELSE acc || a END
$$;

CREATE OR REPLACE AGGREGATE bq.json_array_concat_agg(jsonb) (
  SFUNC = bq.json_array_cat,
  STYPE = jsonb
);
