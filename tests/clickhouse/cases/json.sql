-- JSONExtractRaw and JSONExtractUInt against ClickHouse: the value written back as ClickHouse
-- writes it (document order, no whitespace, strings escaped again, numbers in shortest form).

-- case: json-raw-kinds
SELECT JSONExtractRaw('{"a": "hello", "b": [-100, 200.0, 300], "c": {"z" : 1.50, "y":true, "x": null}}', 'b') AS b, JSONExtractRaw('{"a": "hello", "c": {"z" : 1.50, "y":true, "x": null}}', 'c') AS c, JSONExtractRaw('{"a": "hello"}', 'a') AS a, JSONExtractRaw('{"d": null}', 'd') AS d, JSONExtractRaw('{"e": false}', 'e') AS e

-- case: json-raw-missing-invalid-null
SELECT JSONExtractRaw('{}', 'z') AS a, JSONExtractRaw('not json', 'a') AS b, JSONExtractRaw('', 'a') AS c, JSONExtractRaw('{"a":1}', 'a', 'b') AS d, JSONExtractRaw('[1]', 'a') AS e, JSONExtractRaw(NULL, 'a') AS f, JSONExtractRaw('{"a":tru}', 'a') AS g

-- case: json-raw-nested-keys-and-whole-document
SELECT JSONExtractRaw('{"a": {"b": {"c": [1, {"d" : "e"}]}}}', 'a', 'b') AS a, JSONExtractRaw(' { "k" :  [ 1 , 2 ] } ') AS b, JSONExtractRaw('{"a.b": 1, "a": {"b": 2}}', 'a.b') AS c, JSONExtractRaw('{"b": 1, "aa": 2, "a": 3}') AS d

-- case: json-raw-numbers
SELECT JSONExtractRaw('{"a":1.0}', 'a') AS n0, JSONExtractRaw('{"a":200.0}', 'a') AS n1, JSONExtractRaw('{"a":1e2}', 'a') AS n2, JSONExtractRaw('{"a":1.50}', 'a') AS n3, JSONExtractRaw('{"a":0.1}', 'a') AS n4, JSONExtractRaw('{"a":1e21}', 'a') AS n5, JSONExtractRaw('{"a":1e-7}', 'a') AS n6, JSONExtractRaw('{"a":1e16}', 'a') AS n7, JSONExtractRaw('{"a":123456789012345678}', 'a') AS n8, JSONExtractRaw('{"a":9223372036854775807}', 'a') AS n9, JSONExtractRaw('{"a":9223372036854775808}', 'a') AS n10, JSONExtractRaw('{"a":18446744073709551615}', 'a') AS n11, JSONExtractRaw('{"a":-0}', 'a') AS n12, JSONExtractRaw('{"a":-0.0}', 'a') AS n13, JSONExtractRaw('{"a":0.000001}', 'a') AS n14, JSONExtractRaw('{"a":1e-5}', 'a') AS n15, JSONExtractRaw('{"a":12345678.9}', 'a') AS n16, JSONExtractRaw('{"a":1.7976931348623157e308}', 'a') AS n17, JSONExtractRaw('{"a":5e-324}', 'a') AS n18, JSONExtractRaw('{"a":3.141592653589793238}', 'a') AS n19, JSONExtractRaw('{"a":-1.5e-10}', 'a') AS n20, JSONExtractRaw('{"a":1E+3}', 'a') AS n21, JSONExtractRaw('{"a":-12}', 'a') AS n22

-- case: json-raw-strings
SELECT JSONExtractRaw('{"f":"\\u00fc\\n/\\u0001\\u001f\\u2028\\t\\"\\\\\\b\\f\\r\\/\\u007f"}', 'f') AS a, JSONExtractRaw('{"g":"plain text, with: [brackets] and {braces} 12"}', 'g') AS b, JSONExtractRaw('{"h":["a\\"b", "c\\\\d"]}', 'h') AS c, JSONExtractRaw('{"\\u0041":1}') AS d

-- case: json-raw-over-event-message
SELECT id, JSONExtractRaw(event_message, 'level') AS level, JSONExtractRaw(event_message) AS whole FROM logs WHERE source = 'auth_logs' ORDER BY id

-- case: json-raw-over-attributes
SELECT id, JSONExtractRaw(log_attributes['request.headers'], 'x') AS x, length(JSONExtractRaw(event_message)) AS n FROM logs ORDER BY id

-- case: json-raw-in-where-and-group
SELECT JSONExtractRaw(event_message, 'level') AS level, count() AS n FROM logs WHERE JSONExtractRaw(event_message, 'level') != '' GROUP BY level ORDER BY level

-- case: json-uint
SELECT JSONExtractUInt('{"a":12}', 'a') AS a, JSONExtractUInt('{"a":-1}', 'a') AS b, JSONExtractUInt('{"a":"13"}', 'a') AS c, JSONExtractUInt('{"a":1.9}', 'a') AS d, JSONExtractUInt('{"a":-1.9}', 'a') AS e, JSONExtractUInt('{"a":true}', 'a') AS f, JSONExtractUInt('{"a":"-5"}', 'a') AS g, JSONExtractUInt('{}', 'a') AS h, JSONExtractUInt('{"a":1e2}', 'a') AS i, JSONExtractUInt(NULL, 'a') AS j, JSONExtractUInt('bad', 'a') AS k

-- case: refuse-json-raw-key-column
SELECT JSONExtractRaw(event_message, source) AS x FROM logs
-- refused: JSONExtractRaw expects a string literal here

-- case: refuse-json-raw-number
SELECT JSONExtractRaw(12, 'a') AS x
-- refused: JSONExtractRaw expects a String
