-- ClickHouse string functions with edge values: empty strings, NULLs, unicode, out-of-range
-- offsets. position and length count bytes, as ClickHouse does.

-- case: str-position
SELECT position('ünï', 'ï') AS a, position('abc', '') AS b, position('', '') AS c, position('', 'a') AS d, position(NULL, 'a') AS e, position('abcabc', 'c') AS f

-- case: str-position-case-insensitive
SELECT positionCaseInsensitive('ABC', 'b') AS a, positionCaseInsensitive('Ünï', 'ü') AS b, positionCaseInsensitive('xÜnÏ', 'Ï') AS c, positionUTF8('ünï', 'ï') AS d

-- case: str-position-columns
SELECT id, position(event_message, ' ') AS a, positionCaseInsensitive(event_message, 'GET') AS b FROM logs ORDER BY id

-- case: str-lower-upper-ascii-only
SELECT lower('ÜNÏ ABC') AS a, upper('ünï abc') AS b, lower('') AS c, upper(NULL) AS d, upper('ß') AS e

-- case: str-lower-columns
SELECT id, lower(event_message) AS l, upper(log_attributes['request.method']) AS m FROM logs ORDER BY id

-- case: str-concat
SELECT concat('a', 1, 'b') AS a, concat('a', NULL) AS b, concat('a') AS c, concat('', '') AS d, concat('ü', 'ï', 2.5) AS e

-- case: str-concat-columns
SELECT id, concat(source, ':', log_attributes['request.method'], '/', severity_number) AS c FROM logs ORDER BY id

-- case: str-substring-offsets
SELECT substring('abcdef', 0, 2) AS a, substring('abcdef', -2) AS b, substring('abcdef', -10, 3) AS c, substring('abcdef', 3, -1) AS d, substring('abcdef', 10) AS e, substring('abcdef', 2, 0) AS f, substring('abc', -3, 1) AS g, substring('abc', -4, 2) AS h

-- case: str-substring-more-offsets
SELECT substring('abcdef', -10, 8) AS a, substring('abcdef', 2, -10) AS b, substring('abcdef', -3, -1) AS c, substring(NULL, 1, 2) AS d, substring('abc', -10) AS e, substring('', 1, 2) AS f, substring('abc', 4) AS g, substring('abc', 3) AS h, substring('abc', 1, 100) AS i

-- case: str-substring-utf8
SELECT substringUTF8('ünï', 2, 1) AS a, substringUTF8('ünïx', -2) AS b, lengthUTF8('ünï') AS c, length('ünï') AS d, length('') AS e

-- case: str-substring-columns
SELECT id, substring(event_message, 1, 5) AS a, substring(id, -4) AS b, substring(event_message, 3, -2) AS c, length(event_message) AS n FROM logs WHERE source IN ('edge_logs', 'postgres_logs', 'auth_logs') ORDER BY id

-- case: str-like-functions
SELECT like('abc', 'a%') AS a, ilike('ABC', 'a%') AS b, notLike('abc', 'a%') AS c, like('ü', '_') AS d, notILike('A', 'a') AS e, like('', '') AS f, like('a_c', 'a\\_c') AS g

-- case: str-like-columns
SELECT countIf(like(event_message, '%GET%')) AS a, countIf(ilike(event_message, '%get%')) AS b, countIf(notLike(log_attributes['request.method'], 'P%')) AS c, countIf(notILike(event_message, '%error%')) AS d FROM logs

-- case: str-ilike-unicode
SELECT ilike('ünï', 'ÜN%') AS a, 'ÉCOLE' ILIKE '%cole' AS b
