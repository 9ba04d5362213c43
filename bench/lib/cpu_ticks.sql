-- pg_temp.cpu_ticks(): this backend's CPU time (utime + stime) in clock ticks (getconf CLK_TCK),
-- fields 14 and 15 of /proc/self/stat (the split starts at field 3, after the parenthesised
-- command name). Needs the superuser (pg_read_file). Loaded with \i by the CPU benches.
CREATE FUNCTION pg_temp.cpu_ticks() RETURNS bigint LANGUAGE sql AS $$
  SELECT f[12]::bigint + f[13]::bigint
    FROM (SELECT regexp_split_to_array(split_part(pg_read_file('/proc/self/stat'), ') ', 2), ' ')
          AS f) s
$$;
