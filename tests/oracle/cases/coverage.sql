-- SAFE_ arithmetic, IEEE_DIVIDE, IS_NAN/IS_INF, BIT_COUNT, trigonometry, ASCII/CHR/code points,
-- TRANSLATE, FROM_BASE64, LAST_DAY, DATE_FROM_UNIX_DATE, ARRAY_REVERSE, the BIT_ and covariance
-- aggregates and NET.HOST / NET.IPV4_*: NULL, empty, unicode, negative, overflow and DST edges.
-- case: safe-arith-int
select safe_add(9223372036854775807, 1) as a, safe_subtract(-9223372036854775808, 1) as b, safe_multiply(4611686018427387904, 2) as c, safe_negate(-9223372036854775808) as d, safe_add(1, 2) as e, safe_subtract(1, 2) as f, safe_multiply(-3, 4) as g, safe_negate(5) as h, safe_add(cast(null as int64), 1) as i
-- case: safe-arith-float
select safe_add(1e308, 1e308) as a, safe_multiply(1e200, 1e200) as b, safe_subtract(1.5, 2) as c, safe_negate(-0.5) as d, safe_add(1, 0.5) as e
-- case: safe-arith-column
select id, safe_add(cf.asn, cf.asn) as a, safe_multiply(cf.asn, 2) as b, safe_negate(cf.asn) as c from edge_logs cross join unnest(metadata) as m cross join unnest(m.request) as r cross join unnest(r.cf) as cf
-- case: ieee-divide
select ieee_divide(1, 0) as a, ieee_divide(-1, 0) as b, is_nan(ieee_divide(0, 0)) as c, ieee_divide(7, 2) as d, ieee_divide(cast(null as float64), 0) as e, ieee_divide(1, -0.0) as f
-- case: is-nan-inf
select is_nan(cast('nan' as float64)) as a, is_nan(1.0) as b, is_inf(cast('-inf' as float64)) as c, is_inf(1e308) as d, is_nan(cast(null as float64)) as e, is_inf(5) as f
-- case: bit-count
select bit_count(255) as a, bit_count(-1) as b, bit_count(0) as c, bit_count(b'\xff\x01') as d, bit_count(cast(null as int64)) as e, bit_count(-9223372036854775808) as f
-- case: trig
select sin(0.0) as a, cos(0.0) as b, tan(0.5) as c, asin(1.0) as d, acos(0.5) as e, atan(1.0) as f, atan2(1.0, -1.0) as g, sinh(1.0) as h, cosh(1.0) as i, tanh(0.5) as j, asinh(1.0) as k, acosh(2.0) as l, atanh(0.5) as m, cbrt(-27.0) as n, cbrt(8) as o
-- case: trig-domain-error
-- expect: error
select acos(2.0) as v
-- case: ascii-chr
select ascii('A') as a, ascii('') as b, ascii('hello') as c, chr(65) as d, chr(233) as e, chr(25991) as f, ascii(cast(null as string)) as g, chr(cast(null as int64)) as h, ascii(b'AB') as i
-- case: ascii-non-ascii
-- expect: error
select ascii('é') as v
-- case: chr-invalid
-- expect: error
select chr(-1) as v
-- case: chr-surrogate
-- expect: error
select chr(55296) as v
-- case: code-points
select code_points_to_string([65, 233, 25991]) as a, to_code_points('Aé文') as b, to_code_points('') as c, code_points_to_string(cast([] as array<int64>)) as d, to_code_points(b'\x00\xff') as e, code_points_to_string([65, null]) as f
-- case: translate
select translate('abcabc', 'ab', 'x') as a, translate('hello', '', 'x') as b, translate('ünï', 'ü', 'u') as c, translate(null, 'a', 'b') as d, translate('abc', 'abc', 'xyz') as e
-- case: translate-duplicate
-- expect: error
select translate('abc', 'aa', 'xy') as v
-- case: from-base64
select from_base64('YWI=') as a, from_base64('') as b, from_base64(to_base64(b'\x00\xff')) as c, from_base64(cast(null as string)) as d
-- case: from-base64-invalid
-- expect: error
select from_base64('!!') as v
-- case: last-day
select last_day(date '2024-02-10') as a, last_day(date '2024-02-10', month) as b, last_day(date '2024-02-10', year) as c, last_day(date '2024-02-10', week) as d, last_day(date '2024-02-10', quarter) as e, last_day(date '2024-02-10', isoweek) as f, last_day(date '2024-02-10', week(monday)) as g, last_day(datetime '2023-12-31 10:00:00') as h, last_day(cast(null as date)) as i, last_day(date '2024-12-30', isoyear) as j
-- case: date-from-unix-date
select date_from_unix_date(0) as a, date_from_unix_date(19782) as b, date_from_unix_date(-1) as c, date_from_unix_date(cast(null as int64)) as d
-- case: array-reverse
select array_reverse([1, 2, 3]) as a, array_reverse(cast([] as array<string>)) as b, array_reverse(['ü', 'a']) as c, array_reverse(cast(null as array<int64>)) as d
-- case: bit-aggregates
select bit_and(x) as a, bit_or(x) as b, bit_xor(x) as c, bit_and(distinct x) as d from unnest([12, 10, -1, null]) as x
-- case: bit-aggregates-empty
select bit_and(x) as a, bit_or(x) as b, bit_xor(x) as c from unnest(cast([] as array<int64>)) as x
-- case: covariance
select corr(x, y) as a, covar_pop(x, y) as b, covar_samp(x, y) as c from unnest([1, 2, 3, 4]) as x with offset as o cross join unnest([1.5]) as y
-- case: covariance-pairs
select corr(x, x * 2 + 1) as a, covar_pop(x, -x) as b, covar_samp(x, x) as c, corr(x, 1) as d from unnest([1, 2, 3, null]) as x
-- case: covariance-column
select corr(b.score, cf.asn / 1e10) as a, covar_samp(b.score, b.score) as b from edge_logs cross join unnest(metadata) as m cross join unnest(m.request) as r cross join unnest(r.cf) as cf cross join unnest(cf.botManagement) as b
-- case: net-host
select net.host('https://Www.Example.COM:8080/a?b#c') as a, net.host('//a.b/x') as b, net.host('a.b.c') as c, net.host('http://[::1]:80/') as d, net.host('') as e, net.host('http://user:pw@h.com/') as f, net.host('mailto:x@y.com') as g, net.host('http://h.com.') as h, net.host('h.com:8080/x') as i, net.host(' http://a.b ') as j, net.host('http:/a.b') as k, net.host('/path/only') as l, net.host(cast(null as string)) as m, net.host('http://ünï.example/文件') as n
-- case: net-host-column
select id, net.host(r.url) as h, safe.net.host(r.path) as p from edge_logs cross join unnest(metadata) as m cross join unnest(m.request) as r
-- case: net-ipv4-int64
select net.ipv4_to_int64(b'\x01\x02\x03\x04') as a, net.ipv4_from_int64(167772161) as b, net.ipv4_from_int64(-1) as c, net.ipv4_from_int64(4294967295) as d, net.ipv4_to_int64(net.ipv4_from_int64(3232235777)) as e, net.ipv4_to_int64(cast(null as bytes)) as f
-- case: net-ipv4-to-int64-bad-length
-- expect: error
select net.ipv4_to_int64(b'\x01\x02') as v
-- case: net-ipv4-from-int64-range
-- expect: error
select net.ipv4_from_int64(4294967296) as v
-- case: refused-farm-fingerprint
-- expect: refused
select farm_fingerprint('abc') as v
-- case: refused-sha1
-- expect: refused
select sha1('abc') as v
-- case: refused-net-reg-domain
-- expect: refused
select net.reg_domain('a.b.example.co.uk') as v
-- case: refused-net-public-suffix
-- expect: refused
select net.public_suffix('a.co.uk') as v
