-- ORDER BY and GROUP BY naming select items by ordinal or alias, including constant items
-- (PostgreSQL refuses a bare non-integer constant as a sort key).
-- case: order-by-literal-ordinals
select true as a, 1.5 as b, -2 as c, 'x' as d, null as e, t.id from edge_logs as t order by 1, 2, 3, 4, 5, 6
-- case: order-by-literal-alias
select false as k, t.id from edge_logs as t order by k desc, t.id
-- case: order-by-literal-distinct
select distinct true as a, 2.5e3 as b, t.id from edge_logs as t order by 1, 2, 3 limit 5
-- case: group-by-literal-ordinal
select true as k, count(*) as n from edge_logs as t group by k order by 1, 2
-- case: order-by-typed-literal
select date '2024-02-29' as d, timestamp '2026-03-08 00:00:00+00' as ts, t.id from edge_logs as t order by 1, 2, 3
-- case: order-by-negative-float-literal
select -1.5 as a, t.id from edge_logs as t order by a, t.id desc
