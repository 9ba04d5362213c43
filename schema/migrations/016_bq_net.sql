-- The bq.* function library (see 009_bq_core.sql): NET.* functions.

-- NET.HOST: the host of a URL as BigQuery reads it: scheme://, userinfo@ and :port removed,
-- [IPv6] kept with its brackets, case kept; NULL when there is none.
CREATE FUNCTION bq.net_host(s text) RETURNS text
LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT nullif(CASE WHEN a LIKE '[%' THEN coalesce(substring(a FROM '^\[[^]]*\]'), a)
                     ELSE split_part(a, ':', 1) END, '')
  FROM (SELECT regexp_replace(substring(regexp_replace(btrim(s, E' \t\n\r\x0b\f'),
                                                       '^([A-Za-z][A-Za-z0-9+.-]*:)?//', '')
                                        FROM '^[^/?#]*'), '^.*@', '') AS a) AS x
$$;

CREATE FUNCTION bq.net_ipv4_to_int64(b bytea) RETURNS bigint
LANGUAGE plpgsql IMMUTABLE PARALLEL SAFE AS $$
BEGIN
  IF b IS NULL THEN RETURN NULL; END IF;
  IF length(b) <> 4 THEN
    RAISE EXCEPTION 'NET.IPV4_TO_INT64() encountered a non-IPv4 address. Expected 4 bytes but got %',
      length(b) USING ERRCODE = 'invalid_parameter_value';
  END IF;
  RETURN (get_byte(b, 0)::bigint << 24) | (get_byte(b, 1) << 16) | (get_byte(b, 2) << 8)
         | get_byte(b, 3);
END
$$;

CREATE FUNCTION bq.net_ipv4_from_int64(n bigint) RETURNS bytea
LANGUAGE plpgsql IMMUTABLE PARALLEL SAFE AS $$
BEGIN
  IF n IS NULL THEN RETURN NULL; END IF;
  IF n < -2147483648 OR n > 4294967295 THEN
    RAISE EXCEPTION 'NET.IPV4_FROM_INT64() encountered an unsupported integer value: %', n
      USING ERRCODE = 'invalid_parameter_value';
  END IF;
  RETURN decode(lpad(to_hex(n & 4294967295), 8, '0'), 'hex');
END
$$;

-- NET.SAFE_IP_FROM_STRING: dotted-quad IPv4 (no leading zeros) as 4 bytes, IPv6 (with one
-- optional ::, an optional dotted-quad tail, no zone or prefix) as 16 bytes, else NULL.
CREATE FUNCTION bq.safe_ip_from_string(s text) RETURNS bytea
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

CREATE FUNCTION bq.ip_from_string(s text) RETURNS bytea
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
CREATE FUNCTION bq.ip_to_string(b bytea) RETURNS text
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
CREATE FUNCTION bq.ip_mask_byte(prefix bigint, i int) RETURNS int
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE SET search_path = pg_catalog, pg_temp AS $$
  SELECT (255 << (8 - least(greatest(prefix - 8 * i, 0), 8))::int) & 255
$$;

CREATE FUNCTION bq.ip_net_mask(n bigint, prefix bigint) RETURNS bytea
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

CREATE FUNCTION bq.ip_trunc(b bytea, prefix bigint) RETURNS bytea
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

