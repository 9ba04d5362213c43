-- JSON functions over strings (BigQuery's JSONPath subset).
-- case: json-value
select json_value('{"a": {"b": 1}}', '$.a.b') as a, json_value('{"a": "x"}', '$.a') as b, json_value('{"a": [1,2]}', '$.a') as c, json_value('{"a": null}', '$.a') as d
-- case: json-value-default-path
select json_value('"str"') as a, json_value('5') as b
-- case: json-value-unicode-escape
select json_value('{"a": "\\u00e9"}', '$.a') as v
-- case: json-value-bad-json
select json_value('{bad', '$.a') as v
-- case: json-extract-scalar
select json_extract_scalar('{"a": true}', '$.a') as a, json_extract_scalar('{"a": 1.50}', '$.a') as b, json_extract_scalar('{"a b": 1}', "$['a b']") as c
-- case: json-query
select json_query('{"a": {"b": [1, 2]}}', '$.a') as a, json_query('{"a": "x"}', '$.a') as b, json_query('{"a": 1}', '$.z') as c
-- case: json-extract
select json_extract('{"a": [1, {"b": 2}]}', '$.a[1]') as a, json_extract('[10, 20]', '$[0]') as b
-- case: json-query-array
select json_query_array('[1, "a", {"b": 1}]') as a, json_extract_array('{"a": [1, 2]}', '$.a') as b, json_query_array('{"a": 1}', '$.a') as c
-- case: json-query-array-shapes
select json_query_array('{"a": {"b": 1}}', '$.a') as a, json_query_array('[]') as b, json_query_array('{"a": null}', '$.a') as c, json_query_array('[[1, 2], {"k": "v"}, "ü"]') as d, json_extract_array(cast(null as string)) as e
-- case: json-on-event-message
select id, json_value(event_message, '$.a') as v from edge_logs
-- case: to-json-string
select to_json_string(struct(1 as a, 'x' as b)) as a, to_json_string([1, 2]) as b, to_json_string('q"') as c, to_json_string(null) as d
-- case: to-json-string-float
select to_json_string(1.5) as a, to_json_string(1e20) as b, to_json_string(9007199254740993) as c
-- case: to-json-string-timestamp
select to_json_string(timestamp '2026-03-08 10:00:00.5+00') as a, to_json_string(date '2024-02-29') as b
-- case: parse-json-type
select json_type(parse_json('{"a": 1}')) as a, json_type(parse_json('[1]')) as b, json_type(parse_json('1.5')) as c, json_type(parse_json('null')) as d, json_type(parse_json('"s"')) as e
-- case: to-json
select to_json(struct(1 as a)) as v
-- case: parse-json-bad
-- expect: error
select parse_json('{') as v
-- case: to-json-string-scalars
select to_json_string(timestamp '2026-03-08 10:00:00+00') as a, to_json_string(timestamp '2026-03-08 10:00:00.123456+00') as b, to_json_string(datetime '2026-03-08 10:00:00.5') as c, to_json_string(1.5e-7) as d, to_json_string(cast('nan' as float64)) as e, to_json_string(9007199254740992) as f, to_json_string(-9007199254740993) as g, to_json_string(0.1) as h, to_json_string(-0.0) as i
-- case: to-json-string-more-scalars
select to_json_string(cast(null as string)) as a, to_json_string(b'ab') as b, to_json_string(time '10:00:00') as c, to_json_string(numeric '1.50') as d, to_json_string(cast('-inf' as float64)) as e, to_json_string('ü\n"\\') as f, to_json_string(cast(null as int64)) as g, to_json_string(true) as h, to_json_string(date '2024-02-29') as i
-- case: to-json-string-columns
select id, to_json_string(timestamp) as t, to_json_string(event_message) as m from edge_logs
-- case: json-value-array
select json_value_array('[1, "a", true, "ü"]') as a, json_value_array('[1, {"a":1}]') as b, json_value_array('{"a":[1.5]}', '$.a') as c, json_value_array('1') as d, json_extract_string_array('["a", 2]') as e, json_value_array('[]') as f, json_value_array(cast(null as string)) as g, json_extract_string_array('{"a": [[1]]}', '$.a') as h
-- case: json-value-array-column
select id, json_value_array(to_json_string(r.cf), '$') as v from edge_logs cross join unnest(metadata) as m cross join unnest(m.request) as r
