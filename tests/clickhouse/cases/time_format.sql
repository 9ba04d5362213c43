-- formatDateTime, toUnixTimestamp64Micro and the five / fifteen minute buckets.

-- case: time-format-specifiers
SELECT formatDateTime(toDateTime64('2025-01-05 03:04:05.123456', 6), '%Y-%m-%d %H:%i:%S %F %T %D %y %j %I %p %R %% %M %b %a %h %k %l %W %u %w %s') AS a

-- case: time-format-afternoon
SELECT formatDateTime(toDateTime64('2025-11-25 13:04:05', 6), '%I %p %l %h %M %W') AS a, formatDateTime(toDateTime64('2025-11-25 13:04:05', 6), '[%Y/%m]', 'UTC') AS b

-- case: time-format-columns
SELECT id, formatDateTime(timestamp, '%Y-%m-%d %H:%i:%S') AS t, formatDateTime(timestamp, '%F %T') AS u FROM logs ORDER BY id

-- case: time-unix-micros
SELECT id, toUnixTimestamp64Micro(timestamp) AS us FROM logs ORDER BY id

-- case: time-five-fifteen
SELECT id, toStartOfFiveMinutes(timestamp) AS f, toStartOfFifteenMinutes(timestamp) AS fifteen FROM logs ORDER BY id

-- case: time-five-minute-counts
SELECT toStartOfFiveMinutes(timestamp) AS t, count() AS n FROM logs GROUP BY t ORDER BY t

-- case: refuse-format-specifier
SELECT formatDateTime(timestamp, '%Q') AS x FROM logs
-- refused: formatDateTime: unsupported format specifier %Q
