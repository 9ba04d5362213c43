-- INSTR, REGEXP_INSTR, NORMALIZE, the NET. IP functions, RANGE_BUCKET, ARRAY_CONCAT_AGG,
-- MAX_BY / MIN_BY, the ARRAY_ and TIME functions and the JSON conversions: NULL, empty, unicode,
-- negative and invalid edges.
-- case: instr
select instr('helloooo', 'oo', 1, 2) as a, instr('banana', 'an') as b, instr('banana', 'x') as c, instr('ünïcödé', 'ö') as d, instr(b'abcab', b'ab', 2) as e, instr('aaaa', 'aa', 1, 2) as f, instr('banana', 'an', 10) as g, instr(cast(null as string), 'a') as h, instr('a', 'a', cast(null as int64)) as i
-- case: instr-negative-position
select instr('banana', 'an', -1) as a, instr('banana', 'an', -1, 2) as b, instr('banana', 'an', -3) as c, instr('banana', 'a', -2) as d, instr('banana', 'an', -6) as e, instr('aaaa', 'aa', -1, 2) as f, instr('banana', 'an', -10) as g, instr(b'\x01\x02\x01', b'\x01', -1) as h
-- case: instr-empty-search
select instr('banana', '') as a, instr('banana', '', 3) as b, instr('banana', '', -1) as c, instr('banana', '', 7) as d, instr('banana', '', 8) as e, instr('', '') as f, instr('aaa', '', 1, 2) as g, instr('banana', '', -7) as h, instr('', 'a', -1) as i
-- case: instr-column
select id, instr(event_message, '/') as a, instr(event_message, '/', -1) as b, instr(event_message, 'v1', 1, 2) as c from edge_logs
-- case: instr-zero-position
-- expect: error
select instr('banana', 'an', 0) as v
-- case: instr-zero-occurrence
-- expect: error
select instr('banana', 'an', 1, 0) as v
-- case: regexp-instr
select regexp_instr('banana', 'an', 1, 2) as a, regexp_instr('banana', 'an', 1, 1, 1) as b, regexp_instr('banana', 'a(n)', 1, 1, 1) as c, regexp_instr('banana', 'x') as d, regexp_instr('ab@cd.com', '@[^.]*') as e, regexp_instr('ünïcödé', 'c(ö)') as f, regexp_instr('banana', 'an', 10) as g, regexp_instr('abc', '(x)|b') as h, regexp_instr(cast(null as string), 'a') as i, regexp_instr('abc', 'b', cast(null as int64)) as j
-- case: regexp-instr-empty-matches
select regexp_instr('abc', 'x*') as a, regexp_instr('abc', 'x*', 1, 2) as b, regexp_instr('abc', 'x*', 1, 4) as c, regexp_instr('aaa', 'a*', 1, 1, 1) as d, regexp_instr('aaa', 'a*', 1, 2) as e, regexp_instr('abab', 'b*', 1, 2) as f, regexp_instr('abab', 'b*', 1, 3) as g, regexp_instr('', '') as h, regexp_instr('abc', 'x*', 2, 1, 1) as i
-- case: regexp-instr-column
select id, regexp_instr(event_message, r'/v\d/') as a, regexp_instr(event_message, r'/(v\d)/', 1, 1, 1) as b, regexp_instr(id, '0+', 1, 2) as c from edge_logs
-- case: regexp-instr-zero-position
-- expect: error
select regexp_instr('banana', 'an', 0) as v
-- case: regexp-instr-negative-position
-- expect: error
select regexp_instr('banana', 'an', -1) as v
-- case: regexp-instr-zero-occurrence
-- expect: error
select regexp_instr('banana', 'an', 1, 0) as v
-- case: regexp-instr-bad-after-match
-- expect: error
select regexp_instr('banana', 'an', 1, 1, 2) as v
-- case: regexp-instr-two-groups
-- expect: error
select regexp_instr('banana', '(a)(n)') as v
-- case: normalize
select normalize('e\u0301') = 'é' as a, normalize('ﬁ', nfkc) as b, normalize('ﬁ', nfkd) as c, char_length(normalize('é', nfd)) as d, normalize(cast(null as string)) as e, normalize('') as f, normalize('Å', nfc) = 'Å' as g, char_length(normalize('①', nfkc)) as h, normalize('①', nfkd) as i
-- case: normalize-column
select id, normalize(event_message, nfkc) as a from edge_logs
-- case: net-ip-from-string
select net.ip_from_string('1.2.3.4') as a, net.ip_from_string('::1') as b, net.ip_from_string('2001:db8::ff00:42:8329') as c, net.ip_from_string('::ffff:1.2.3.4') as d, net.ip_from_string('255.255.255.255') as e, net.ip_from_string('::') as f, net.ip_from_string('1::') as g, net.ip_from_string('1:2:3:4:5:6:7:8') as h, net.ip_from_string('ABCD::EF') as i, net.ip_from_string(cast(null as string)) as j
-- case: net-safe-ip-from-string
select net.safe_ip_from_string('1.2.3.256') as a, net.safe_ip_from_string('::g') as b, net.safe_ip_from_string('') as c, net.safe_ip_from_string('1.2.3') as d, net.safe_ip_from_string('01.2.3.4') as e, net.safe_ip_from_string('1.2.3.4 ') as f, net.safe_ip_from_string('1.2.3.4/24') as g, net.safe_ip_from_string('fe80::1%eth0') as h, net.safe_ip_from_string('1:2:3:4:5:6:7::8') as i, net.safe_ip_from_string(':1::') as j, net.safe_ip_from_string('1:::2') as k, net.safe_ip_from_string('1:2:3:4:5:6:1.2.3.4') as l, net.safe_ip_from_string('::01.2.3.4') as m, net.safe_ip_from_string('ünï') as n, net.safe_ip_from_string('10.0.0.1') as o, net.safe_ip_from_string('12345::') as p
-- case: net-ip-from-string-invalid
-- expect: error
select net.ip_from_string('1.2.3.4/24') as v
-- case: net-ip-to-string
select net.ip_to_string(b'\x01\x02\x03\x04') as a, net.ip_to_string(net.ip_from_string('::1')) as b, net.ip_to_string(net.ip_from_string('::ffff:1.2.3.4')) as c, net.ip_to_string(net.ip_from_string('2001:0db8:0000:0000:0000:ff00:0042:8329')) as d, net.ip_to_string(net.ip_from_string('2001:db8:0:1:0:0:0:1')) as e, net.ip_to_string(net.ip_from_string('::1.2.3.4')) as f, net.ip_to_string(net.ip_from_string('::')) as g, net.ip_to_string(net.ip_from_string('1:0:1:0:0:0:0:1')) as h, net.ip_to_string(net.ip_from_string('::255.255.0.1')) as i, net.ip_to_string(cast(null as bytes)) as j
-- case: net-ip-to-string-invalid
-- expect: error
select net.ip_to_string(b'\x01\x02\x03') as v
-- case: net-ip-net-mask
select net.ip_net_mask(4, 0) as a, net.ip_net_mask(4, 32) as b, net.ip_net_mask(16, 0) as c, net.ip_net_mask(16, 65) as d, net.ip_net_mask(16, 128) as e, net.ip_net_mask(4, 9) as f, net.ip_net_mask(cast(null as int64), 1) as g
-- case: net-ip-net-mask-bad-length
-- expect: error
select net.ip_net_mask(5, 1) as v
-- case: net-ip-net-mask-bad-prefix
-- expect: error
select net.ip_net_mask(4, 33) as v
-- case: net-ip-net-mask-negative-prefix
-- expect: error
select net.ip_net_mask(4, -1) as v
-- case: net-ip-trunc
select net.ip_trunc(b'\x01\x02\x03\x04', 0) as a, net.ip_trunc(b'\x01\x02\x03\xff', 31) as b, net.ip_trunc(b'\x01\x02\x03\x04', 32) as c, net.ip_trunc(net.ip_from_string('2001:db8::ff00:42:8329'), 64) as d, net.ip_trunc(cast(null as bytes), 8) as e, net.ip_to_string(net.ip_trunc(net.ip_from_string('192.168.17.200'), 20)) as f
-- case: net-ip-trunc-bad-length
-- expect: error
select net.ip_trunc(b'\x01\x02\x03', 3) as v
-- case: net-ip-trunc-bad-prefix
-- expect: error
select net.ip_trunc(b'\x01\x02\x03\x04', 33) as v
-- case: net-ip-column
select id, net.safe_ip_from_string(h.x_real_ip) as ip, net.ip_to_string(net.ip_trunc(net.safe_ip_from_string(h.x_real_ip), 8)) as net8, net.ipv4_to_int64(net.safe_ip_from_string(h.x_real_ip)) as n from edge_logs cross join unnest(metadata) as m cross join unnest(m.request) as r cross join unnest(r.headers) as h where not starts_with(h.x_real_ip, '2001')
-- case: net-ip-subnet-counts
select net.ip_to_string(net.ip_trunc(net.ip_from_string(h.x_real_ip), if(length(net.ip_from_string(h.x_real_ip)) = 4, 24, 48))) as subnet, count(*) as n from edge_logs cross join unnest(metadata) as m cross join unnest(m.request) as r cross join unnest(r.headers) as h group by subnet
-- case: range-bucket
select range_bucket(20, [0, 10, 20, 30]) as a, range_bucket(-1, [0, 10]) as b, range_bucket(100, [0, 10]) as c, range_bucket(5, cast([] as array<int64>)) as d, range_bucket(cast(null as int64), [1]) as e, range_bucket(5, cast(null as array<int64>)) as f, range_bucket(10, [0, 10, 10, 20]) as g, range_bucket(1.5, [1.0, 2.0]) as h, range_bucket(1, [0.5, 1.5]) as i, range_bucket(2.5, [1, 2, 3]) as j
-- case: range-bucket-column
select id, range_bucket(r.origin_time, [0, 5, 10, 100]) as bucket from edge_logs cross join unnest(metadata) as m cross join unnest(m.response) as r
-- case: range-bucket-unordered
-- expect: error
select range_bucket(5, [3, 1]) as v
-- case: range-bucket-null-element
-- expect: error
select range_bucket(5, [1, null, 3]) as v
-- case: range-bucket-nan-element
-- expect: error
select range_bucket(5, [cast('nan' as float64), 1]) as v
-- case: array-concat-agg
select array_concat_agg(x) as a from unnest([struct([1, 2] as x), struct(cast(null as array<int64>) as x), struct([3] as x)])
-- case: array-concat-agg-order-by
select array_concat_agg(x order by y desc) as a from unnest([struct([1, 2] as x, 1 as y), struct([5] as x, 3 as y), struct(cast([] as array<int64>) as x, 2 as y), struct([3] as x, 0 as y)])
-- case: array-concat-agg-empty
select array_concat_agg(t.x) as a from unnest([struct([1, 2] as x)]) as t where t.x[offset(0)] > 5
-- case: array-concat-agg-only-null
select array_concat_agg(x) as a from unnest([struct(cast(null as array<string>) as x)])
-- case: array-concat-agg-group
select r.method, array_concat_agg(split(r.path, '/') order by edge_logs.id) as parts from edge_logs cross join unnest(metadata) as m cross join unnest(m.request) as r group by r.method
-- case: max-min-by
select max_by(x, y) as a, min_by(x, y) as b, max_by(s, y) as c, min_by(x, s) as d from unnest([struct(1 as x, 5 as y, 'b' as s), struct(2 as x, 7 as y, 'a' as s), struct(3 as x, null as y, 'c' as s), struct(null as x, 1 as y, 'd' as s)])
-- case: lax-bool
select lax_bool(json 'true') as a, lax_bool(json '0') as b, lax_bool(json '2') as c, lax_bool(json '0.0') as d, lax_bool(json '"TRUE"') as e, lax_bool(json '"tRuE"') as f, lax_bool(json '"yes"') as g, lax_bool(json '"1"') as h, lax_bool(json '"false"') as i, lax_bool(json 'null') as j, lax_bool(json '[]') as k, lax_bool(json '-0.5') as l, lax_bool(json '" true"') as m, lax_bool(json '{}') as n, lax_bool(cast(null as json)) as o
-- case: lax-int64
select lax_int64(json 'true') as a, lax_int64(json 'false') as b, lax_int64(json '2.5') as c, lax_int64(json '-2.5') as d, lax_int64(json '"10"') as e, lax_int64(json '"1.5"') as f, lax_int64(json '"abc"') as g, lax_int64(json 'null') as h, lax_int64(json '[1]') as i, lax_int64(json '1e20') as j, lax_int64(json '"0x10"') as k, lax_int64(json '" 5 "') as l, lax_int64(json '1e2') as m, lax_int64(json '"1e2"') as n, lax_int64(json '9223372036854775807') as o, lax_int64(json '-9223372036854775808') as p, lax_int64(json '9223372036854775808') as q
-- case: lax-int64-rounding
select lax_int64(json '1.4999999') as a, lax_int64(json '"2.5"') as b, lax_int64(json '"-2.5"') as c, lax_int64(json '"1e20"') as d, lax_int64(json '0.5') as e, lax_int64(json '-0.5') as f, lax_int64(json '"+3"') as g, lax_int64(json '"9223372036854775807.4"') as h, lax_int64(json '9223372036854775807.4') as i, lax_int64(json '"1_000"') as j, lax_int64(json '"1e-1"') as k, lax_int64(json '"0.49999999999999999999"') as l, lax_int64(json '"."') as m, lax_int64(json '"5."') as n, lax_int64(json '".5"') as o, lax_int64(json '"inf"') as p, lax_int64(json '-0.0') as q
-- case: lax-float64
select lax_float64(json 'true') as a, lax_float64(json '2.5') as b, lax_float64(json '"1.5"') as c, lax_float64(json '"abc"') as d, is_nan(lax_float64(json '"nan"')) as e, lax_float64(json '"inf"') as f, lax_float64(json '"-Infinity"') as g, lax_float64(json '{}') as h, lax_float64(json '" 1.5"') as i, lax_float64(json 'null') as j, lax_float64(json '"0x10"') as k, lax_float64(json '12345678901234567890') as l, lax_float64(json '"+1.5"') as m, lax_float64(json '-0.25') as n
-- case: lax-string
select lax_string(json '"abc"') as a, lax_string(json '1') as b, lax_string(json '1.50') as c, lax_string(json 'true') as d, lax_string(json 'null') as e, lax_string(json '[1]') as f, lax_string(json '1e2') as g, lax_string(json '-0.0') as h, lax_string(json '123456789012345678901234567890') as i, lax_string(json '"ü"') as j, lax_string(json '1.0') as k, lax_string(json '1e-7') as l, lax_string(json '1.5e300') as m, lax_string(json '0.30000000000000004') as n, lax_string(json '100000000000000000000') as o, lax_string(json '12345678901234567.5') as p, lax_string(json '1234567890123456.5') as q, lax_string(json '-9223372036854775808') as r
-- case: lax-column
select id, lax_int64(to_json(cf.asn)) as a, lax_float64(to_json(cf.asn)) as b, lax_string(to_json(cf.country)) as c, lax_bool(to_json(cf.asn)) as d, lax_int64(parse_json(h.content_length)) as e, lax_string(json_query(to_json(h), '$.user_agent')) as f from edge_logs cross join unnest(metadata) as m cross join unnest(m.request) as r cross join unnest(r.cf) as cf cross join unnest(r.headers) as h
-- case: parse-numeric
select cast(parse_numeric(' -1.5e2 ') as string) as a, cast(parse_numeric('1,000') as string) as b, cast(parse_numeric('.5') as string) as c, cast(parse_numeric('5.') as string) as d, cast(parse_numeric('1.0000000005') as string) as e, cast(parse_numeric('+1') as string) as f, cast(parse_numeric('99999999999999999999999999999.999999999') as string) as g, cast(parse_numeric(cast(null as string)) as string) as h, cast(parse_numeric('1.23E-5') as string) as i, cast(parse_numeric('1-') as string) as j, cast(parse_numeric(' - 1 ') as string) as k, cast(parse_numeric('1,0.5') as string) as l, cast(parse_numeric('-0.0000000005') as string) as m, cast(parse_numeric('00012') as string) as n, cast(parse_numeric('5 +') as string) as o
-- case: safe-parse-numeric
select cast(safe.parse_numeric('abc') as string) as a, cast(safe.parse_numeric('1.0,0') as string) as b, cast(safe.parse_numeric('--1') as string) as c, cast(safe.parse_numeric('1e') as string) as d, cast(safe.parse_numeric('') as string) as e, cast(safe.parse_numeric('-') as string) as f, cast(safe.parse_numeric('99999999999999999999999999999.9999999995') as string) as g, cast(safe.parse_numeric('1 000') as string) as h, cast(safe.parse_numeric('nan') as string) as i, cast(safe.parse_numeric('١') as string) as j, cast(safe.parse_numeric('.') as string) as k, cast(safe.parse_numeric('1e30') as string) as l, cast(safe.parse_numeric('12') as string) as m
-- case: parse-numeric-column
select id, cast(safe.parse_numeric(h.content_length) as string) as n, cast(parse_numeric(coalesce(h.content_length, '0')) + 1 as string) as m from edge_logs cross join unnest(metadata) as m cross join unnest(m.request) as r cross join unnest(r.headers) as h
-- case: parse-numeric-invalid
-- expect: error
select parse_numeric('abc') as v
-- case: parse-numeric-overflow
-- expect: error
select parse_numeric('1e30') as v
-- case: json-converters
select bool(json 'true') as a, bool(json 'false') as b, bool(cast(null as json)) as c, int64(json '3') as d, int64(json '-3.0') as e, int64(json '1e2') as f, int64(json '9223372036854775807') as g, float64(json '2.5') as h, float64(json '3') as i, float64(json '12345678901234567890') as j, string(json '"x"') as k, string(json '"ü\\n"') as l, int64(json '-9223372036854775808') as m
-- case: json-converters-column
select id, int64(to_json(cf.asn)) as a, string(to_json(cf.country)) as b, float64(to_json(b.score)) as c, bool(to_json(b.corporateProxy)) as d from edge_logs cross join unnest(metadata) as m cross join unnest(m.request) as r cross join unnest(r.cf) as cf cross join unnest(cf.botManagement) as b where cf.country is not null
-- case: json-bool-not-boolean
-- expect: error
select bool(json '"true"') as v
-- case: json-bool-null
-- expect: error
select bool(json 'null') as v
-- case: json-int64-fraction
-- expect: error
select int64(json '3.5') as v
-- case: json-int64-string
-- expect: error
select int64(json '"3"') as v
-- case: json-int64-out-of-range
-- expect: error
select int64(json '9223372036854775807.0') as v
-- case: json-float64-string
-- expect: error
select float64(json '"1.5"') as v
-- case: json-string-number
-- expect: error
select string(json '1') as v
-- case: time-constructor
select time(15, 30, 0) as a, time(timestamp '2020-01-01 10:11:12.123456+00') as b, time(timestamp '2020-01-01 10:11:12+00', 'America/New_York') as c, time(datetime '2020-01-01 23:59:59.999999') as d, time(cast(null as int64), 1, 1) as e, time(23, 59, 60) as f, time(10, 59, 60) as g, time(0, 0, 0) as h
-- case: time-constructor-hour-24
-- expect: error
select time(24, 0, 0) as v
-- case: time-constructor-negative
-- expect: error
select time(-1, 0, 0) as v
-- case: time-constructor-minute-60
-- expect: error
select time(23, 60, 0) as v
-- case: time-add-sub
select time_add(time '23:30:00', interval 45 minute) as a, time_add(time '10:00:00', interval -11 hour) as b, time_add(time '10:00:00', interval 1 microsecond) as c, time_sub(time '00:10:00', interval 20 minute) as d, time_sub(time '10:00:00', interval 36 hour) as e, time_add(time '10:00:00', interval 1000000000 second) as f, time_add(time '10:00:00', interval 5 millisecond) as g, time_add(time '23:59:59', interval 2 second) as h, time_sub(time '00:00:00', interval 1 microsecond) as i, time_add(cast(null as time), interval 1 hour) as j
-- case: time-add-day
-- expect: error
select time_add(time '10:00:00', interval 1 day) as v
-- case: time-diff
select time_diff(time '15:30:00', time '14:35:00', minute) as a, time_diff(time '15:30:00', time '14:35:00', hour) as b, time_diff(time '14:35:00', time '15:30:00', hour) as c, time_diff(time '00:00:00.5', time '00:00:01', second) as d, time_diff(time '10:00:00', time '09:59:59.999999', microsecond) as e, time_diff(time '10:00:00', time '09:59:59.9999', millisecond) as f, time_diff(time '00:00:00', time '23:59:59', second) as g, time_diff(time '00:00:00', time '23:59:59.999999', hour) as h, time_diff(time '00:00:00', time '12:30:00', hour) as i, time_diff(cast(null as time), time '00:00:00', hour) as j
-- case: time-diff-day
-- expect: error
select time_diff(time '10:00:00', time '09:00:00', day) as v
-- case: time-trunc
select time_trunc(time '15:30:45.123456', hour) as a, time_trunc(time '15:30:45.123456', minute) as b, time_trunc(time '15:30:45.123456', second) as c, time_trunc(time '15:30:45.123456', millisecond) as d, time_trunc(time '15:30:45.123456', microsecond) as e, time_trunc(cast(null as time), hour) as f
-- case: time-trunc-day
-- expect: error
select time_trunc(time '15:30:45', day) as v
-- case: time-column
select id, time(timestamp) as t, time_trunc(time(timestamp, 'Europe/Berlin'), hour) as h, time_diff(time(timestamp), time '00:00:00', minute) as m, time_add(time(timestamp), interval 90 minute) as a from edge_logs
-- case: current-time
select current_time() is not null as a, current_time('America/New_York') is not null as b, time_diff(current_time(), current_time(), hour) between -23 and 23 as c
-- case: array-first-last
select array_first([1, 2, 3]) as a, array_last([1, 2, 3]) as b, array_first(['a']) as c, array_last([null, 1]) as d, array_first(cast(null as array<int64>)) as e, array_last(split('a/b/c', '/')) as f, array_first([1.5, 2]) as g
-- case: array-first-empty
-- expect: error
select array_first(cast([] as array<int64>)) as v
-- case: array-last-empty
-- expect: error
select array_last(cast([] as array<string>)) as v
-- case: array-includes
select array_includes([1, 2, null], 2) as a, array_includes([1, null], 3) as b, array_includes([1, 2], null) as c, array_includes(cast(null as array<int64>), 1) as d, array_includes(cast([] as array<int64>), 1) as e, array_includes(['ü', 'a'], 'ü') as f, array_includes([1.5], 1.5) as g
-- case: array-includes-any-all
select array_includes_any([1, 2], [3, 2]) as a, array_includes_all([1, 2], [1, 2, 2]) as b, array_includes_any([1], cast([] as array<int64>)) as c, array_includes_all([1], cast([] as array<int64>)) as d, array_includes_any([1, null], [null]) as e, array_includes_all([1], [null]) as f, array_includes_any(cast(null as array<int64>), [1]) as g, array_includes_all(['a', 'b'], ['b']) as h, array_includes_all([1], [1, 3]) as i
-- case: array-includes-column
select id, array_includes(split(event_message, ' '), 'GET') as get, array_first(split(event_message, ' ')) as verb, array_last(split(event_message, '/')) as tail, array_includes_any(split(event_message, '/'), ['auth', 'storage']) as any_svc from edge_logs
-- case: array-slice
select array_slice([1, 2, 3, 4, 5], 1, 3) as a, array_slice([1, 2, 3, 4, 5], -3, -1) as b, array_slice([1, 2, 3, 4, 5], 3, 1) as c, array_slice([1, 2, 3, 4, 5], -10, 10) as d, array_slice([1, 2, 3], 5, 7) as e, array_slice([1, 2, 3], -1, 0) as f, array_slice(cast(null as array<int64>), 0, 1) as g, array_slice([1, 2, 3], null, 1) as h, array_slice([1, null, 3], 0, 1) as i, array_slice(cast([] as array<int64>), 0, 0) as j, array_slice(['ü', 'b'], -9223372036854775808, 9223372036854775807) as k
-- case: array-slice-column
select id, array_slice(split(event_message, '/'), 1, -2) as mid, array_to_string(array_slice(split(event_message, '/'), -2, -1), '/') as tail from edge_logs
