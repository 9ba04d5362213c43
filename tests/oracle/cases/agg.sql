-- Aggregates: empty input, NULLs, DISTINCT, GROUP BY shapes.
-- case: count-forms
select count(*) as a, count(event_message) as b, count(distinct r.host) as c from edge_logs cross join unnest(metadata) as m cross join unnest(m.request) as r
-- case: count-empty
select count(*) as a, countif(true) as b, sum(1) as c, avg(1) as d, max(1) as e from edge_logs where false
-- case: countif
select countif(s.status_code >= 400) as a, countif(null) as b from edge_logs cross join unnest(metadata) as m cross join unnest(m.response) as s
-- case: sum-avg
select sum(s.status_code) as a, avg(s.status_code) as b, sum(s.origin_time) as c, avg(s.origin_time) as d from edge_logs cross join unnest(metadata) as m cross join unnest(m.response) as s
-- case: sum-overflow
-- expect: error
select sum(x) as v from unnest([9223372036854775807, 1]) as x
-- case: sum-float
select sum(x) as a, avg(x) as b from unnest([0.1, 0.2, 0.3]) as x
-- case: min-max
select min(timestamp) as a, max(timestamp) as b, min(event_message) as c, max(event_message) as d from edge_logs
-- case: min-max-bool
select min(x) as a, max(x) as b from unnest([true, false, null]) as x
-- case: min-max-bool-empty
select min(x) as a, max(x) as b, min(x is null) as c from unnest(cast(null as array<bool>)) as x
-- case: min-max-bool-column
select min(b.corporateProxy) as a, max(b.corporateProxy) as b from edge_logs cross join unnest(metadata) as m cross join unnest(m.request) as r cross join unnest(r.cf) as cf cross join unnest(cf.botManagement) as b
-- case: any-value-single
select any_value(x) as v from unnest(['only']) as x
-- case: array-agg
select array_agg(r.method order by r.method) as v from edge_logs cross join unnest(metadata) as m cross join unnest(m.request) as r
-- case: array-agg-ignore-nulls
select array_agg(x ignore nulls order by x) as v from unnest([3, null, 1]) as x
-- case: array-agg-with-null
select array_agg(x) as v from unnest([3, null, 1]) as x
-- case: array-agg-distinct-limit
select array_agg(distinct r.host order by r.host limit 2) as v from edge_logs cross join unnest(metadata) as m cross join unnest(m.request) as r
-- case: approx-count-distinct
select approx_count_distinct(r.host) as v from edge_logs cross join unnest(metadata) as m cross join unnest(m.request) as r
-- case: approx-quantiles
select approx_quantiles(s.status_code, 2) as v from edge_logs cross join unnest(metadata) as m cross join unnest(m.response) as s
-- case: approx-quantiles-offset
select approx_quantiles(s.origin_time, 100)[offset(99)] as p99 from edge_logs cross join unnest(metadata) as m cross join unnest(m.response) as s
-- case: logical-and-or
select logical_and(x) as a, logical_or(x) as b from unnest([true, false, null]) as x
-- case: logical-empty
select logical_and(x) as a, logical_or(x) as b from unnest(cast([] as array<bool>)) as x
-- case: stddev-variance
select stddev(x) as a, stddev_samp(x) as b, stddev_pop(x) as c, variance(x) as d, var_samp(x) as e, var_pop(x) as f from unnest([1, 2, 3, 4]) as x
-- case: stddev-one-row
select stddev_samp(x) as a, var_pop(x) as b from unnest([5]) as x
-- case: group-by-alias
select r.method as method, count(*) as n from edge_logs cross join unnest(metadata) as m cross join unnest(m.request) as r group by method
-- case: group-by-ordinal
select r.host, r.method, count(*) as n from edge_logs cross join unnest(metadata) as m cross join unnest(m.request) as r group by 1, 2
-- case: group-by-timestamp-alias
select timestamp_trunc(timestamp, day) as timestamp, count(*) as n from edge_logs group by timestamp order by timestamp
-- case: having
select r.host, count(*) as n from edge_logs cross join unnest(metadata) as m cross join unnest(m.request) as r group by r.host having count(*) > 1
-- case: count-distinct-if
select count(distinct if(s.status_code >= 400, r.host, null)) as v from edge_logs cross join unnest(metadata) as m cross join unnest(m.request) as r cross join unnest(m.response) as s
-- case: agg-of-null-group
select r.cf[safe_offset(0)].city as city, count(*) as n from edge_logs cross join unnest(metadata) as m cross join unnest(m.request) as r group by city
-- case: sum-overflow-filtered-group
-- expect: error
select sum(cf.asn) as s from edge_logs cross join unnest(metadata) as m cross join unnest(m.request) as r cross join unnest(r.cf) as cf having count(*) < 0
-- case: sum-int64-exact-until-the-end
select sum(x) as s from unnest([9223372036854775807, 1, -1]) as x
-- case: sum-overflow-window
-- expect: error
select sum(x) over (order by x) as s from unnest([9223372036854775807, 1]) as x
-- case: sum-overflow-group-having-removes
-- expect: error
select g, sum(x) as s from unnest([struct(1 as g, 9223372036854775807 as x), struct(1, 1), struct(2, 5)]) group by g having count(*) = 1
