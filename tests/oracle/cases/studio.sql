-- Query shapes Supabase Studio sends to logs.all (log explorer, reports, charts), over edge_logs.
-- case: studio-edge-list
select timestamp, id, event_message from edge_logs order by timestamp desc, id limit 100
-- case: studio-edge-unnest-chain
select timestamp, request.method, request.path, response.status_code from edge_logs cross join unnest(metadata) as metadata cross join unnest(metadata.request) as request cross join unnest(metadata.response) as response where regexp_contains(request.path, '(?i)/rest') order by timestamp desc, id limit 3
-- case: studio-upper-case-unnest
SELECT id, r.path FROM edge_logs CROSS JOIN UNNEST(metadata) AS m CROSS JOIN UNNEST(m.request) AS r
-- case: studio-unnest-space
select id, r.host from edge_logs cross join unnest (metadata) as m cross join unnest (m.request) as r
-- case: studio-unqualified-through-unnest
select id, path, status_code from edge_logs cross join unnest(metadata) as m cross join unnest(m.request) as request cross join unnest(m.response) as response
-- case: studio-qualified-table-column
select edge_logs.timestamp, edge_logs.id from edge_logs cross join unnest(metadata) as m
-- case: studio-backticks
select `id`, `request`.`path` from edge_logs as t cross join unnest(t.metadata) as m cross join unnest(m.request) as `request`
-- case: studio-status-chart
select timestamp_trunc(t.timestamp, minute) as timestamp, countif(response.status_code >= 500) as error_count, countif(response.status_code between 400 and 499) as warning_count, count(t.id) as ok_count from edge_logs t cross join unnest(t.metadata) as m cross join unnest(m.response) as response group by timestamp order by timestamp asc
-- case: studio-trailing-comma
select timestamp_trunc(timestamp, hour) as timestamp, count(*) as count, from edge_logs group by timestamp order by timestamp
-- case: studio-requests-by-path
select request.path as path, request.method as method, count(t.id) as count, avg(response.origin_time) as avg_origin, from edge_logs t cross join unnest(metadata) as m cross join unnest(m.request) as request cross join unnest(m.response) as response group by path, method order by count desc, path, method limit 10
-- case: studio-error-codes
select response.headers[safe_offset(0)].x_sb_error_code as code, count(*) as count from edge_logs cross join unnest(metadata) as m cross join unnest(m.response) as response where response.headers[safe_offset(0)].x_sb_error_code is not null group by code order by count desc, code
-- case: studio-traffic
select timestamp_trunc(timestamp, day) as timestamp, sum(coalesce(safe_cast(request.headers[safe_offset(0)].content_length as int64), 0)) as ingress, sum(coalesce(safe_cast(response.headers[safe_offset(0)].content_length as int64), 0)) as egress from edge_logs cross join unnest(metadata) as m cross join unnest(m.request) as request cross join unnest(m.response) as response group by timestamp order by timestamp
-- case: studio-own-cte
with hosts as (select r.host as host, count(*) as n from edge_logs cross join unnest(metadata) as m cross join unnest(m.request) as r group by host) select host, n from hosts where n > 1 order by host
-- case: studio-union-all
select id, 'a' as src from edge_logs where event_message like 'GET%' union all select id, 'b' as src from edge_logs where event_message like 'POST%'
-- case: studio-join-using
with a as (select id, timestamp from edge_logs), b as (select id, event_message from edge_logs) select a.id, b.event_message from a join b using (id)
-- case: studio-comma-join-params
with params as (select timestamp '2026-03-01 00:00:00+00' as since) select id from edge_logs, params where edge_logs.timestamp > params.since
-- case: studio-join-aggregated-subquery
select t.id, c.n from edge_logs as t cross join unnest(t.metadata) as m cross join unnest(m.request) as r join (select r2.host as host, count(*) as n from edge_logs cross join unnest(metadata) as m2 cross join unnest(m2.request) as r2 group by host) as c on c.host = r.host
-- case: studio-parenthesised-join
select t.id, r.path from edge_logs as t left join (edge_logs as u cross join unnest(u.metadata) as um cross join unnest(um.request) as r) on t.id = u.id
-- case: studio-in-not-in
select id from edge_logs cross join unnest(metadata) as m cross join unnest(m.request) as r where r.method in ('GET', 'POST') and r.host not in ('b.supabase.co')
-- case: studio-comments
-- top comment — with an em dash
select id -- inline
from edge_logs;
-- case: studio-order-by-ordinal
select r.method, count(*) as n from edge_logs cross join unnest(metadata) as m cross join unnest(m.request) as r group by 1 order by 2 desc, 1
-- case: studio-cast-datetime
select id, cast(timestamp as datetime) as dt, cast(timestamp as string) as s from edge_logs
-- case: studio-ifnull-safe-divide
select safe_divide(countif(s.status_code >= 400), count(*)) as error_rate, ifnull(max(s.origin_time), 0) as m from edge_logs cross join unnest(metadata) as m cross join unnest(m.response) as s
-- case: studio-ts-compare-iso
select t.id from edge_logs as t where t.timestamp >= '2026-03-01T00:00:00.000Z' and t.timestamp < '2026-07-01T00:00:00.000Z'
-- case: studio-distinct
select distinct r.method from edge_logs cross join unnest(metadata) as m cross join unnest(m.request) as r
-- case: studio-limit-offset
select id from edge_logs order by timestamp, id limit 3 offset 2
-- case: studio-select-star-except
select * except (metadata) from edge_logs
-- case: studio-scalar-subquery
select id, (select count(*) from edge_logs) as total from edge_logs
-- case: studio-exists-correlated
select id from edge_logs as t where exists (select 1 from unnest(t.metadata) as m cross join unnest(m.request) as r where r.method = 'GET')
