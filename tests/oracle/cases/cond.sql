-- Conditionals and NULL handling.
-- case: if-fn
select if(true, 1, 2) as a, if(null, 1, 2) as b, if(1 > 2, 'x', null) as c
-- case: ifnull-coalesce-nullif
select ifnull(null, 'd') as a, coalesce(null, null, 3) as b, nullif(1, 1) as c, nullif(1, 2) as d, coalesce(cast(null as string)) as e
-- case: case-when
select id, case when s.status_code >= 500 then 'error' when s.status_code >= 400 then 'warn' else 'ok' end as v from edge_logs cross join unnest(metadata) as m cross join unnest(m.response) as s
-- case: case-simple
select case 2 when 1 then 'a' when 2 then 'b' end as a, case null when null then 'x' else 'y' end as b
-- case: null-logic
select null and false as a, null or true as b, not cast(null as bool) as c, cast(null as int64) = 1 as d
-- case: is-distinct
select 1 is distinct from null as a, null is not distinct from null as b
-- case: in-list-null
select 1 in (1, null) as a, 2 in (1, null) as b, 2 not in (1, null) as c, null in (1) as d
-- case: between-null
select 2 between 1 and null as a, 5 between 1 and null as b
-- case: string-compare-bytewise
select 'a' < 'B' as a, 'é' > 'z' as b, 'abc' < 'abd' as c, '' < 'a' as d
-- case: bool-is
select true is true as a, null is false as b, null is null as c
-- case: count-case-when
select count(case when s.status_code >= 400 then 1 end) as v from edge_logs cross join unnest(metadata) as m cross join unnest(m.response) as s
-- case: greatest-least-nulls
select greatest(1, null, 3) as a, least('b', 'a', cast(null as string)) as b, greatest(date '2024-02-29', date '2024-03-01') as c, least(-1.5, 2) as d, greatest(cast(null as int64)) as e
