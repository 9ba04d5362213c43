-- REPEATED records (every nested record, as in Logflare's schema), sent as an object or as an
-- array of several objects (fixture event ...15: request is an array of one record, its headers
-- and the response's headers arrays of two).
-- case: records-unnest-array-elements
select id, h.user_agent, h.x_real_ip from edge_logs cross join unnest(metadata) as m cross join unnest(m.request) as r cross join unnest(r.headers) as h order by id, h.x_real_ip
-- case: records-unnest-with-offset
select id, o, h.content_type from edge_logs cross join unnest(metadata) as m cross join unnest(m.response) as s cross join unnest(s.headers) as h with offset as o where id like '%15' order by o
-- case: records-left-join-missing
select count(*) as n, countif(h.content_length is null) as no_length from edge_logs cross join unnest(metadata) as m cross join unnest(m.request) as r left join unnest(r.headers) as h on true
-- case: records-array-length
select id, array_length(r.headers) as n, array_length(m.request) as requests from edge_logs cross join unnest(metadata) as m cross join unnest(m.request) as r
-- case: records-offset
select id, s.headers[offset(0)].content_type as first, s.headers[safe_offset(1)].content_type as second, m.request[ordinal(1)].method as method from edge_logs cross join unnest(metadata) as m cross join unnest(m.response) as s
-- case: records-exists
select t.id from edge_logs as t where exists (select 1 from unnest(t.metadata) as m cross join unnest(m.request) as r cross join unnest(r.headers) as h where h.user_agent = 'pino')
-- case: records-select-array
select id, r.headers from edge_logs cross join unnest(metadata) as m cross join unnest(m.request) as r where id like '%15'
-- case: records-field-without-unnest
-- expect: error
select metadata.request.path from edge_logs
-- case: records-nested-field-without-unnest
-- expect: error
select m.request.path from edge_logs cross join unnest(metadata) as m
