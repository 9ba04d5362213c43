-- ClickHouse's *OrZero / *OrNull conversions, JSONExtract*, maps, arrays, NULL handling and
-- integer division, with edge values.

-- case: conv-int64
SELECT toInt64OrZero('9223372036854775807') AS a, toInt64OrZero('9223372036854775808') AS b, toInt64OrNull('x') AS c, toInt64OrNull(' 1') AS d, toInt64OrZero('-12') AS e, toInt64OrNull('') AS f

-- case: conv-uint
SELECT toUInt32OrZero('-5') AS a, toUInt32OrZero('4294967295') AS b, toUInt32OrZero('4294967296') AS c, toUInt64OrZero('-1') AS d, toUInt32OrZero('+5') AS e, toUInt32OrNull('x') AS f, toUInt64OrNull('123') AS g

-- case: conv-int32-null
SELECT toInt32OrNull('12') AS a, toInt32OrNull('3000000000') AS b, toInt32OrZero('-0') AS c

-- case: conv-float64
SELECT toFloat64OrZero('1.5') AS a, toFloat64OrZero('1e3') AS b, toFloat64OrZero('.5') AS c, toFloat64OrZero('5.') AS d, toFloat64OrZero(' 1') AS e, toFloat64OrZero('1.5x') AS f, toFloat64OrNull('-') AS g, toFloat64OrZero('+1.5') AS h, toFloat64OrZero('1E+2') AS i, toFloat64OrZero('0x10') AS j

-- case: conv-columns
SELECT id, toInt64OrZero(log_attributes['response.status_code']) AS a, toFloat64OrNull(log_attributes['response.status_code']) AS b, toUInt32OrNull(log_attributes['request.method']) AS c FROM logs ORDER BY id

-- case: conv-datetime
SELECT toDateTimeOrNull('2025-01-15 10:00:00') AS a, toDateTimeOrNull('2025-01-15') AS b, toDateTimeOrNull('2025-01-15T10:00:00') AS c, toDateTimeOrNull('2025-01-15 10:00:00.5') AS d, toDateTimeOrZero('x') AS e, toDateTimeOrNull('2025-1-5 1:2:3') AS f, toDateTimeOrNull('') AS g, toDateTimeOrZero('2025-01-15 10:00:00') AS h

-- case: conv-null-in-null-out
SELECT toInt32OrZero(NULL) AS a, toInt32OrNull(NULL) AS b, toFloat64OrZero(NULL) AS c, JSONExtractString(NULL, 'a') AS d, lower(NULL) AS e, concat(NULL, 'a') AS f, position('a', NULL) AS g, substring('abc', NULL) AS h

-- case: json-extract-string
SELECT JSONExtractString('{"a":"x","b":1}', 'a') AS a, JSONExtractString('{"a":"x","b":1}', 'b') AS b, JSONExtractString('{"a":"x"}', 'z') AS c, JSONExtractString('{"c":{"d":"y"}}', 'c', 'd') AS d, JSONExtractString('{"a":"\\u00fc"}', 'a') AS e, JSONExtractString('{"a":true}', 'a') AS f, JSONExtractString('{"a":null}', 'a') AS g, JSONExtractString('{"a":"x"}', 'A') AS h, JSONExtractString('{"a.b":"x"}', 'a.b') AS i

-- case: json-extract-numbers
SELECT JSONExtractInt('{"a":12}', 'a') AS a, JSONExtractInt('{"b":"13"}', 'b') AS b, JSONExtractInt('{"c":1.9}', 'c') AS c, JSONExtractInt('{"d":true}', 'd') AS d, JSONExtractInt('{}', 'x') AS e, JSONExtractInt('{"a":"12x"}', 'a') AS f, JSONExtractInt('{"a":"1.5"}', 'a') AS g, JSONExtractInt('{"a":null}', 'a') AS h, JSONExtractInt('{"a":1e2}', 'a') AS i, JSONExtractInt('{"a":-1.9}', 'a') AS j, JSONExtractInt('{"a":99999999999999999999}', 'a') AS k

-- case: json-extract-float-bool
SELECT JSONExtractFloat('{"a":1.5}', 'a') AS a, JSONExtractFloat('{"a":"1.5"}', 'a') AS b, JSONExtractFloat('{"a":2}', 'a') AS c, JSONExtractFloat('{"a":"x"}', 'a') AS d, JSONExtractFloat('{"a":true}', 'a') AS e, JSONExtractBool('{"a":true}', 'a') AS f, JSONExtractBool('{"a":1}', 'a') AS g, JSONExtractBool('{"a":"true"}', 'a') AS h, JSONExtractBool('{"a":false}', 'a') AS i, JSONExtractBool('{"a":0}', 'a') AS j, JSONExtractBool('{"a":2}', 'a') AS k

-- case: json-has
SELECT JSONHas('{"a":null}', 'a') AS a, JSONHas('{"a":1}', 'b') AS b, JSONHas('{"a":{"b":[]}}', 'a', 'b') AS c, JSONHas('{"a":{"b":[]}}', 'a', 'c') AS d

-- case: json-invalid-text
SELECT JSONExtractString('not json', 'a') AS a, JSONExtractInt('', 'a') AS b, JSONHas('bad', 'a') AS c, JSONExtractString('[1]', 'a') AS d

-- case: json-over-event-message
SELECT id, JSONExtractString(event_message, 'msg') AS m, JSONHas(event_message, 'level') AS h FROM logs ORDER BY id

-- case: map-contains-has
SELECT id, mapContains(log_attributes, 'request.method') AS a, has(log_attributes, 'response.status_code') AS b, mapContains(resource_attributes, 'nothing') AS c FROM logs ORDER BY id

-- case: map-empty
SELECT source, countIf(empty(log_attributes)) AS a, countIf(notEmpty(resource_attributes)) AS b, countIf(empty(log_attributes['request.method'])) AS c, countIf(notEmpty(event_message)) AS d FROM logs GROUP BY source ORDER BY source

-- case: array-has-empty
SELECT has([1, 2], 1) AS a, has(['a', 'b'], 'c') AS b, empty('') AS c, empty('a') AS d, notEmpty('') AS e, empty(NULL) AS f

-- case: null-coalesce-ifnull
SELECT coalesce(NULL, 1) AS a, ifNull(NULL, 'x') AS b, coalesce(toInt32OrNull('x'), toInt32OrNull('7'), 0) AS c, ifNull(toInt32OrNull('5'), 0) AS d, coalesce(NULL, NULL) AS e

-- case: null-comparisons
SELECT 'a' = NULL AS a, NULL = NULL AS b, count() AS n FROM logs WHERE NULL

-- case: division
SELECT intDiv(-7, 2) AS a, intDiv(7, 2) AS b, 7 / 2 AS c, -7 / 2 AS d, 1 / 4 AS e, intDiv(severity_number, 4) AS f, severity_number / 4 AS g FROM logs WHERE source = 'postgres_logs' ORDER BY id

-- case: refuse-json-key-column
SELECT JSONExtractString(event_message, source) AS x FROM logs
-- refused: JSONExtractString expects a string literal here

-- case: refuse-map-contains-non-map
SELECT mapContains(event_message, 'a') AS x FROM logs
-- refused: mapContains reads log_attributes or resource_attributes
