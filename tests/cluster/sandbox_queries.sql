# One BigQuery query per line, run as logs.all's sandboxed sql over 9 days (half of the days on
# shard nodes): each must answer the same on one node and on the sharded layout.
select count(*) as n from edge_logs
select timestamp, id, event_message from edge_logs order by timestamp desc, id limit 50
select timestamp, id from edge_logs order by timestamp asc, id limit 20
select response.status_code, count(*) as n from edge_logs cross join unnest(metadata) as m cross join unnest(m.response) as response group by 1 order by 1
select request.method, count(*) as n from edge_logs cross join unnest(metadata) as m cross join unnest(m.request) as request group by 1 order by 2 desc, 1
select timestamp_trunc(timestamp, day) as d, count(*) as n from edge_logs group by d order by d
select timestamp_trunc(timestamp, hour) as h, count(*) as n from edge_logs group by h order by h desc limit 30
select count(distinct id) as n, min(timestamp) as first, max(timestamp) as last from edge_logs
select request.path, count(*) as n from edge_logs cross join unnest(metadata) as m cross join unnest(m.request) as request where regexp_contains(request.path, '(?i)/rest') group by 1 order by 2 desc, 1 limit 10
select count(*) as n from postgres_logs
select timestamp_trunc(timestamp, day) as d, count(*) as n from auth_logs group by d order by d
select timestamp, id from function_edge_logs order by timestamp desc, id limit 20
