-- Window functions (total orders so results are deterministic).
-- case: row-number
select id, row_number() over (order by timestamp, id) as v from edge_logs
-- case: rank-dense-rank
select id, rank() over (order by timestamp) as r, dense_rank() over (order by timestamp) as d from edge_logs
-- case: percent-rank-cume-dist
select id, percent_rank() over (order by timestamp) as p, cume_dist() over (order by timestamp) as c from edge_logs
-- case: ntile
select id, ntile(3) over (order by timestamp, id) as v from edge_logs
-- case: lag-lead
select id, lag(id) over (order by timestamp, id) as p, lead(id, 2, 'none') over (order by timestamp, id) as n from edge_logs
-- case: window-literal-args
select id, lag('x') over (order by timestamp, id) as a, lead('y', 1, 'z') over (order by timestamp, id) as b, first_value('f') over (order by timestamp, id) as c, nth_value('n', 2) over (order by timestamp, id) as d, last_value(b'q') over (order by timestamp, id) as e from edge_logs
-- case: first-last-value
select id, first_value(id) over (order by timestamp, id) as f, last_value(id) over (order by timestamp, id rows between unbounded preceding and unbounded following) as l from edge_logs
-- case: last-value-default-frame
select id, last_value(id) over (order by timestamp, id) as l from edge_logs
-- case: nth-value
select id, nth_value(id, 2) over (order by timestamp, id rows between unbounded preceding and unbounded following) as v from edge_logs
-- case: partitioned-count
select r.host, id, count(*) over (partition by r.host) as n from edge_logs cross join unnest(metadata) as m cross join unnest(m.request) as r
-- case: running-sum
select id, sum(s.status_code) over (order by timestamp, id rows between 1 preceding and current row) as v from edge_logs cross join unnest(metadata) as m cross join unnest(m.response) as s
-- case: percentile-cont-disc
select distinct percentile_cont(s.status_code, 0.5) over () as c, percentile_disc(s.status_code, 0.5) over () as d from edge_logs cross join unnest(metadata) as m cross join unnest(m.response) as s
-- case: window-range-frame
select id, count(*) over (order by unix_seconds(timestamp) range between 86400 preceding and current row) as v from edge_logs
-- case: qualify
select id from edge_logs where true qualify row_number() over (order by timestamp desc, id) <= 3
