-- Arrays: OFFSET/ORDINAL bounds, UNNEST, constructors.
-- case: array-length
select array_length([1, 2, 3]) as a, array_length(cast([] as array<int64>)) as b, array_length(cast(null as array<int64>)) as c
-- case: array-length-repeated-column
select id, array_length(metadata) as a from edge_logs
-- case: array-length-repeated-scalar
select id, array_length(b.detectionIds) as v from edge_logs cross join unnest(metadata) as m cross join unnest(m.request) as r cross join unnest(r.cf) as cf cross join unnest(cf.botManagement) as b
-- case: array-to-string
select array_to_string(['a', 'b', null], ',') as a, array_to_string(['a', null], ',', 'N') as b, array_to_string(cast([] as array<string>), ',') as c
-- case: array-concat
select array_concat([1, 2], [3], cast([] as array<int64>)) as v
-- case: generate-array
select generate_array(1, 5) as a, generate_array(0, 10, 3) as b, generate_array(5, 1) as c, generate_array(5, 1, -2) as d
-- case: offset-ordinal
select [10, 20, 30][offset(0)] as a, [10, 20, 30][ordinal(3)] as b, [10, 20][safe_offset(5)] as c, [10][safe_ordinal(0)] as d
-- case: offset-out-of-bounds
-- expect: error
select [10, 20][offset(2)] as v
-- case: bare-index
select [10, 20][1] as v
-- case: metadata-offset
select id, metadata[safe_offset(0)].request[safe_offset(0)].method as v from edge_logs
-- case: metadata-bare-index
select id, metadata[0].response[0].status_code as v from edge_logs where array_length(metadata[0].response) > 0
-- case: unnest-literal-with-offset
select x, o from unnest(['a', 'b', 'c']) as x with offset as o
-- case: unnest-repeated-scalar
select id, d from edge_logs cross join unnest(metadata) as m cross join unnest(m.request) as r cross join unnest(r.cf) as cf cross join unnest(cf.botManagement) as b cross join unnest(b.detectionIds) as d
-- case: in-unnest
select id from edge_logs cross join unnest(metadata) as m cross join unnest(m.request) as r cross join unnest(r.cf) as cf cross join unnest(cf.botManagement) as b where 5 in unnest(b.detectionIds)
-- case: exists-unnest
select id from edge_logs cross join unnest(metadata) as m where exists (select 1 from unnest(m.response) as s where s.status_code >= 500)
-- case: array-subquery
select id, array(select r.method from unnest(m.request) as r) as v from edge_logs cross join unnest(metadata) as m
-- case: left-join-unnest-on-true
select id, s.status_code from edge_logs cross join unnest(metadata) as m left join unnest(m.response) as s on true
-- case: generate-uuid-shape
select length(generate_uuid()) as v
-- case: struct-literal
select struct(1 as a, 'x' as b) as v
-- case: select-repeated-record
select id, m.response from edge_logs cross join unnest(metadata) as m
-- case: select-scalar-array
select id, b.detectionIds as v from edge_logs cross join unnest(metadata) as m cross join unnest(m.request) as r cross join unnest(r.cf) as cf cross join unnest(cf.botManagement) as b
