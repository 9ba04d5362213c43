-- Regular expressions (RE2 semantics).
-- case: regexp-contains
select regexp_contains('abc', r'b') as a, regexp_contains('abc', '^b') as b, regexp_contains('ABC', '(?i)abc') as c, regexp_contains(null, 'a') as d
-- case: regexp-contains-column
select id from edge_logs cross join unnest(metadata) as m cross join unnest(m.request) as r where regexp_contains(r.path, '(?i)/rest')
-- case: regexp-contains-classes
select regexp_contains('a1', r'\d') as a, regexp_contains('a b', r'\s') as b, regexp_contains('é', r'\w') as c, regexp_contains('x', r'[[:alpha:]]') as d
-- case: regexp-contains-unicode
select id from edge_logs where regexp_contains(event_message, r'\p{Han}')
-- case: regexp-extract
select regexp_extract('foo=bar', r'=(.*)') as a, regexp_extract('abc', 'z') as b, regexp_extract('abc', 'b') as c, regexp_substr('a1b22', r'\d+') as d
-- case: regexp-extract-column
select id, regexp_extract(r.path, r'^/([^/]+)') as v from edge_logs cross join unnest(metadata) as m cross join unnest(m.request) as r
-- case: regexp-extract-two-groups
-- expect: error
select regexp_extract('ab', '(a)(b)') as v
-- case: regexp-extract-all-two-groups
-- expect: error
select regexp_extract_all('abab', '(a)(b)') as v
-- case: regexp-extract-non-capturing
select regexp_extract('abc', '(?:a)(b)') as a, regexp_extract_all('a1b2', '[a-z](?:\\d)') as b
-- case: regexp-extract-all
select regexp_extract_all('a1b22c333', r'\d+') as a, regexp_extract_all('abc', 'z') as b, regexp_extract_all('k=v;x=y', r'(\w)=') as c
-- case: regexp-replace
select regexp_replace('a1b2', r'\d', 'X') as a, regexp_replace('abc', '(b)', r'[\1]') as b, regexp_replace('abc', '', '-') as c, regexp_replace('aaa', 'a*', 'x') as d
-- case: regexp-replace-column
select id, regexp_replace(r.path, r'/v1/', '/') as v from edge_logs cross join unnest(metadata) as m cross join unnest(m.request) as r
-- case: regexp-invalid
-- expect: error
select regexp_contains('a', '(') as v
-- case: regexp-dot-newline
select regexp_contains('a\nb', 'a.b') as a, regexp_contains('a\nb', '(?s)a.b') as b
-- case: regexp-anchors-multiline
select regexp_contains('x\nab', '^ab') as a, regexp_contains('x\nab', '(?m)^ab') as b
-- case: regexp-unicode-scripts
select regexp_contains('文件', r'^\p{Han}+$') as a, regexp_contains('ひらがな', r'^\p{Hiragana}+$') as b, regexp_contains('カタカナ', r'\p{Katakana}') as c, regexp_contains('한국어', r'^\p{Hangul}+$') as d, regexp_contains('שלום', r'\p{Hebrew}') as e, regexp_contains('ไทย', r'^\p{Thai}+$') as f, regexp_contains('abc', r'\p{Han}') as g, regexp_extract('ab文件cd', r'\p{Han}+') as h, regexp_contains('文', r'\P{Han}') as i
-- case: regexp-unicode-script-unsupported
-- expect: refused
select regexp_contains('x', r'\p{Ogham}') as v
-- case: regexp-replace-empty-after-match
select regexp_replace('baaac', 'a*', '-') as a, regexp_replace('abc', 'x*', '-') as b, regexp_replace('a b', r'a|\b', '-') as c, regexp_replace('héllo', 'l*', r'<\0>') as d, regexp_replace('abc', '^', '>') as e, regexp_replace('abc', '$', '<') as f, regexp_replace('x/y/z', '[^/]+', 'n') as g
