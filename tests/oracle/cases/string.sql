-- String functions: NULL, empty, unicode, negative positions.
-- case: concat
select concat('a', 'b', 'c') as a, concat('x', null) as b, 'a' || 'b' as c, concat('ü', '文') as d
-- case: concat-column
select id, concat(r.method, ' ', r.path) as v from edge_logs cross join unnest(metadata) as m cross join unnest(m.request) as r
-- case: strpos
select strpos('hello', 'l') as a, strpos('hello', 'z') as b, strpos('ünï', 'ï') as c, strpos('abc', '') as d, strpos(null, 'a') as e
-- case: starts-ends-with
select starts_with('hello', 'he') as a, ends_with('hello', 'lo') as b, starts_with('hello', '') as c, starts_with(null, 'a') as d
-- case: starts-with-column
select id from edge_logs cross join unnest(metadata) as m cross join unnest(m.request) as r where starts_with(r.path, '/rest')
-- case: contains-substr
select contains_substr('Hello World', 'world') as a, contains_substr('abc', '') as b, contains_substr('ÜBER', 'über') as c
-- case: lower-upper
select lower('ÀBC') as a, upper('straße') as b, lower(null) as c, upper('ǆ') as d
-- case: upper-full-mappings
select upper('ﬀ ﬂ ﬃ ﬄ ﬅ ﬆ ﬓ ﬔ ﬕ ﬖ ﬗ և ẖ ẗ ẘ ẙ ẚ ΐ ΰ ǰ ŉ ß ẞ') as a, upper('straße') as b, upper('') as c, upper('ǅ') as d
-- case: lower-full-mappings
select lower('İstanbul') as a, lower('ΟΔΟΣ ΣΑΣ') as b, lower('ẞ') as c, lower('') as d, lower('ǅ') as e
-- case: lower-column
select id, lower(r.host) as h, upper(r.method) as m from edge_logs cross join unnest(metadata) as m cross join unnest(m.request) as r
-- case: length-family
select length('ünïcødé') as a, char_length('文件') as b, character_length('') as c, byte_length('ünï') as d, length(null) as e
-- case: length-column
select id, length(event_message) as l, byte_length(event_message) as b from edge_logs
-- case: substr
select substr('hello', 2) as a, substr('hello', 2, 2) as b, substr('hello', -3) as c, substr('hello', 0) as d, substring('hello', 10) as e
-- case: substr-negative-length
-- expect: error
select substr('hello', 1, -1) as v
-- case: substr-unicode
select substr('ünïcødé', 2, 3) as a, substr('文件.png', -3) as b
-- case: substr-big-negative
select substr('hello', -10, 3) as a, substr('hello', -2, 10) as b
-- case: trim
select trim('  a b  ') as a, ltrim('  a') as b, rtrim('a  ') as c, trim('xxaxx', 'x') as d, ltrim('abcba', 'ab') as e, rtrim('abcba', 'ab') as f
-- case: trim-whitespace
select concat('[', trim('\t\n\r\x0b\x0c a \t\n\r\x0b\x0c'), ']') as a, concat('[', ltrim('\n\ta'), ']') as b, concat('[', rtrim('a\r\n'), ']') as c
-- case: trim-unicode-whitespace
select concat('[', trim('\u00a0\u0085\u2003\u3000\u1680\u2028\u200b\ufeffa\u00a0\u2003\u3000'), ']') as a
-- case: trim-unicode
select trim('ééaé', 'é') as v
-- case: replace
select replace('a.b.c', '.', '/') as a, replace('aaa', 'a', '') as b, replace('abc', '', 'x') as c, replace(null, 'a', 'b') as d
-- case: split
select split('a,b,,c', ',') as a, split('abc', '') as b, split('', ',') as c, split('a b') as d
-- case: split-unicode
select split('ünï', '') as v
-- case: format-fn
select format('%d-%s', 5, 'x') as a, format('%5d|%-5s|', 42, 'ab') as b, format('%.2f', 3.14159) as c, format('%05d', -42) as d
-- case: format-fn-t
select format('%t', null) as a, format('%t', 1.5) as b, format('%x', 255) as c
-- case: lpad-rpad
select lpad('abc', 6) as a, lpad('abc', 6, 'xy') as b, rpad('abc', 2) as c, rpad('é', 3, 'ü') as d, lpad('abc', 0) as e
-- case: lpad-negative
-- expect: error
select lpad('abc', -1) as v
-- case: pad-edges
select lpad('abc', 2) as a, rpad('abc', 0) as b, lpad('', 3, 'xy') as c, rpad('ü', 3, 'é') as d, lpad('a', 3, null) as e
-- case: lpad-empty-pattern
-- expect: error
select lpad('abc', 5, '') as v
-- case: rpad-negative
-- expect: error
select rpad('abc', -2, 'x') as v
-- case: repeat-reverse
select repeat('ab', 3) as a, repeat('x', 0) as b, reverse('ünï') as c, reverse('') as d
-- case: repeat-negative
-- expect: error
select repeat('ab', -1) as v
-- case: repeat-edges
select repeat('', 5) as a, repeat('ab', 0) as b, repeat('ü', 3) as c, repeat(null, 2) as d, repeat('a', null) as e
-- case: left-right
select left('hello', 2) as a, right('hello', 2) as b, left('文件', 1) as c, right('ab', 5) as d
-- case: initcap
select initcap('hello wORLD-foo_bar') as a, initcap('élan vital') as b
-- case: initcap-delimiters
select initcap('a b\tc\nd=e\'f"g!h?i@j#k$l%m^n&o*p(q)r-s_t+u[v]w{x}y|z\\a/b<c>d,e.f:g;h~i`j') as a, initcap('ÉCOLE élan ÜBER') as b, initcap('') as c, initcap(null) as d, initcap('x\x0by\x0cz\rw') as e
-- case: initcap-custom-delimiters
select initcap('hello-world foo', '-') as a, initcap('hello world', '') as b, initcap('aXbxc', 'x') as c, initcap(null, '-') as d, initcap('a-b', null) as e
-- case: initcap-column
select id, initcap(event_message) as v from edge_logs
-- case: to-hex-md5-sha
select to_hex(md5('abc')) as a, to_hex(sha256('abc')) as b, to_hex(sha512('')) as c
-- case: from-hex-base64
select to_base64(from_hex('48656c6c6f')) as a, to_base64(b'\x00\xff') as b
-- case: to-base64-string
select to_base64(md5('')) as v
-- case: like
select 'abc' like 'a%' as a, 'abc' like '_b_' as b, 'a%c' like 'a\\%c' as c, 'ABC' like 'abc' as d
-- case: like-column
select id from edge_logs cross join unnest(metadata) as m cross join unnest(m.request) as r where r.path like '%/v1/%'
-- case: not-like
select id from edge_logs where event_message not like 'GET%'
-- case: string-escapes
select 'a\\b' as b, "dq" as c, 'tab\there' as d, '\u00e9' as e, 'it\'s' as f
-- case: string-doubled-quote
-- expect: extension
select 'it''s' as v
-- case: raw-string
select r'a\d+' as v
-- case: triple-quoted
select '''multi
line''' as v
-- case: string-agg
select string_agg(r.method, ',' order by r.method) as v from edge_logs cross join unnest(metadata) as m cross join unnest(m.request) as r
-- case: string-agg-default-sep
select string_agg(x) as v from unnest(['a', 'b']) as x
