-- Time functions (translator/src/functions/function_list.def, "Time"), edge values: NULL,
-- epoch, negative, leap day, DST boundaries (evaluated in UTC and in named zones).
-- case: ts-trunc-units
select id, timestamp_trunc(timestamp, minute) as mi, timestamp_trunc(timestamp, hour) as h, timestamp_trunc(timestamp, day) as d, timestamp_trunc(timestamp, month) as mo, timestamp_trunc(timestamp, year) as y from edge_logs
-- case: ts-trunc-week
select id, timestamp_trunc(timestamp, week) as w, timestamp_trunc(timestamp, isoweek) as iw, timestamp_trunc(timestamp, quarter) as q from edge_logs
-- case: ts-trunc-week-monday
select id, timestamp_trunc(timestamp, week(monday)) as w from edge_logs
-- case: ts-trunc-zone-dst-us
select id, timestamp_trunc(timestamp, day, 'America/New_York') as d, timestamp_trunc(timestamp, hour, 'America/New_York') as h from edge_logs
-- case: ts-trunc-zone-dst-eu
select id, timestamp_trunc(timestamp, day, 'Europe/Berlin') as d from edge_logs
-- case: ts-trunc-upper-case-unit
select id, TIMESTAMP_TRUNC(timestamp, MINUTE) as v from edge_logs
-- case: ts-trunc-null
select timestamp_trunc(cast(null as timestamp), hour) as v
-- case: ts-trunc-second-millis
select id, timestamp_trunc(timestamp, second) as s, timestamp_trunc(timestamp, millisecond) as ms from edge_logs
-- case: datetime-trunc
select id, datetime_trunc(datetime(timestamp), hour) as h, datetime_trunc(datetime(timestamp), month) as mo from edge_logs
-- case: date-trunc
select id, date_trunc(date(timestamp), month) as mo, date_trunc(date(timestamp), week) as w, date_trunc(date(timestamp), year) as y from edge_logs
-- case: ts-add-sub
select id, timestamp_add(timestamp, interval 90 minute) as a, timestamp_sub(timestamp, interval 1 day) as s, timestamp_add(timestamp, interval -1 microsecond) as n from edge_logs
-- case: ts-add-hour-over-dst
select timestamp_add(timestamp '2026-03-08 06:30:00+00', interval 1 hour) as v
-- case: datetime-add-sub
select datetime_add(datetime '2024-02-29 12:00:00', interval 1 year) as a, datetime_sub(datetime '2024-03-31 00:00:00', interval 1 month) as s
-- case: date-add-sub-month-end
select date_add(date '2024-01-31', interval 1 month) as a, date_sub(date '2024-03-31', interval 1 month) as s, date_add(date '2024-02-29', interval 1 year) as y
-- case: date-add-days
select date_add(date '2025-12-31', interval 1 day) as a, date_sub(date '1970-01-01', interval 1 day) as b
-- case: ts-diff-units
select id, timestamp_diff(timestamp, timestamp '2026-01-01 00:00:00+00', second) as s, timestamp_diff(timestamp, timestamp '2026-01-01 00:00:00+00', hour) as h, timestamp_diff(timestamp, timestamp '2026-01-01 00:00:00+00', day) as d from edge_logs
-- case: ts-diff-negative-truncation
select timestamp_diff(timestamp '2026-01-01 00:00:00+00', timestamp '2026-01-01 00:00:01.5+00', second) as s, timestamp_diff(timestamp '2026-01-01 00:00:00+00', timestamp '2026-01-01 01:59:00+00', hour) as h
-- case: ts-diff-micros
select id, timestamp_diff(timestamp, timestamp '1970-01-01 00:00:00+00', microsecond) as us, timestamp_diff(timestamp, timestamp '1970-01-01 00:00:00+00', millisecond) as ms from edge_logs
-- case: datetime-diff
select datetime_diff(datetime '2026-03-01 00:00:00', datetime '2026-02-28 23:59:59', day) as d, datetime_diff(datetime '2026-03-01 00:00:00', datetime '2025-12-31 00:00:00', month) as mo, datetime_diff(datetime '2026-03-01', datetime '2025-12-31', year) as y
-- case: date-diff
select date_diff(date '2026-03-01', date '2024-02-29', day) as d, date_diff(date '2026-03-01', date '2024-02-29', month) as mo, date_diff(date '2026-01-04', date '2025-12-28', week) as w
-- case: date-diff-week-sunday
select date_diff(date '2026-01-03', date '2025-12-27', week) as a, date_diff(date '2026-01-04', date '2026-01-03', week) as b
-- case: ts-from-string
select timestamp('2026-03-08 10:00:00') as a, timestamp('2026-03-08 10:00:00+05:30') as b, timestamp('2026-03-08T10:00:00Z') as c, timestamp('2026-03-08') as d
-- case: ts-from-string-zone
select timestamp('2026-03-08 02:30:00', 'America/New_York') as gap, timestamp('2026-11-01 01:30:00', 'America/New_York') as overlap
-- case: ts-from-civil-dst
select timestamp('2026-03-08 02:30:00', 'America/New_York') as a, timestamp('2026-03-29 02:30:00', 'Europe/Berlin') as b, timestamp('2026-10-25 02:30:00', 'Europe/Berlin') as c, timestamp(datetime '2026-11-01 01:59:59', 'America/New_York') as d, timestamp(date '2026-11-01', 'America/New_York') as e, timestamp('2026-11-01 02:00:00', 'America/New_York') as f, timestamp('2026-11-01 00:59:59', 'America/New_York') as g
-- case: ts-from-civil-dst-half-hour
select timestamp('2026-04-05 01:45:00', 'Australia/Lord_Howe') as a, timestamp('2026-11-01 01:30:00', 'America/St_Johns') as b, timestamp('2026-07-01 12:00:00', 'Asia/Kolkata') as c
-- case: ts-from-date
select timestamp(date '2024-02-29') as v
-- case: ts-from-bad-string
-- expect: error
select timestamp('not a time') as v
-- case: datetime-fn
select datetime(2026, 3, 8, 2, 30, 0) as a, datetime(date '2026-03-08') as b, datetime(timestamp '2026-03-08 10:00:00+00', 'America/Los_Angeles') as c
-- case: datetime-from-ts-column
select id, datetime(timestamp) as v from edge_logs
-- case: date-fn
select date(2024, 2, 29) as a, date(timestamp '2026-03-08 23:30:00+00', 'Asia/Tokyo') as b, date(datetime '2026-01-01 23:59:59') as c
-- case: date-fn-column
select id, date(timestamp) as v, date(timestamp, 'America/Los_Angeles') as la from edge_logs
-- case: ts-micros-millis-seconds
select timestamp_micros(1) as a, timestamp_millis(-1) as b, timestamp_seconds(1700000000) as c, timestamp_micros(0) as z
-- case: ts-micros-null
select timestamp_seconds(cast(null as int64)) as v
-- case: unix-conversions
select id, unix_micros(timestamp) as us, unix_millis(timestamp) as ms, unix_seconds(timestamp) as s from edge_logs
-- case: unix-negative-floor
select unix_seconds(timestamp '1969-12-31 23:59:59.5+00') as s, unix_millis(timestamp '1969-12-31 23:59:59.9995+00') as ms
-- case: unix-date
select unix_date(date '1970-01-01') as a, unix_date(date '1969-12-31') as b, unix_date(date '2024-02-29') as c
-- case: format-timestamp-basic
select id, format_timestamp('%Y-%m-%d %H:%M:%S', timestamp) as v from edge_logs
-- case: format-timestamp-zone
select id, format_timestamp('%Y-%m-%d %H:%M %Z', timestamp, 'America/New_York') as v from edge_logs
-- case: format-timestamp-zone-offsets
select format_timestamp('%Z', timestamp '2026-07-01 00:00:00+00', 'Asia/Kolkata') as a, format_timestamp('%Z', timestamp '2026-07-01 00:00:00+00', 'Asia/Kathmandu') as b, format_timestamp('%Z %z', timestamp '2026-07-01 00:00:00+00', 'UTC') as c, format_timestamp('%Z', timestamp '2026-01-01 00:00:00+00', 'America/St_Johns') as d, format_timestamp('%Z', timestamp '2026-11-01 05:30:00+00', 'America/New_York') as e, format_timestamp('%Z', timestamp '2026-11-01 06:30:00+00', 'America/New_York') as f, format_timestamp('%Z', cast(null as timestamp), 'Asia/Kolkata') as g
-- case: format-timestamp-zone-column
select id, format_timestamp('%F %T %Z', timestamp, 'Europe/Berlin') as v from edge_logs
-- case: format-timestamp-specifiers
select format_timestamp('%a %b %e %j %u %w %y %p %I %F %T %D %R', timestamp '2026-03-08 09:05:03+00') as v
-- case: format-timestamp-fraction
select format_timestamp('%E6S|%E3S|%Ez', timestamp '2026-03-08 09:05:03.123456+00') as v
-- case: format-timestamp-week
select format_timestamp('%U %W %V %G', timestamp '2026-01-01 00:00:00+00') as v
-- case: format-timestamp-default
select format_timestamp('%c', timestamp '2026-03-08 09:05:03+00') as v
-- case: format-date
select format_date('%Y/%m/%d %A %B', date '2024-02-29') as a, format_date('%x', date '2026-12-31') as b
-- case: format-datetime
select format_datetime('%Y-%m-%dT%H:%M:%S', datetime '2026-03-08 02:30:00') as v
-- case: parse-timestamp
select parse_timestamp('%Y-%m-%d %H:%M:%S', '2026-03-08 10:00:00') as a, parse_timestamp('%d/%m/%Y', '29/02/2024') as b
-- case: parse-timestamp-zone
select parse_timestamp('%Y-%m-%d %H:%M', '2026-03-08 02:30', 'America/New_York') as v
-- case: parse-timestamp-iso
select parse_timestamp('%Y-%m-%dT%H:%M:%E*SZ', '2026-03-08T10:00:00.123456Z') as v
-- case: parse-timestamp-bad
-- expect: error
select parse_timestamp('%Y-%m-%d', 'yesterday') as v
-- case: parse-date-datetime
select parse_date('%Y%m%d', '20240229') as a, parse_datetime('%Y-%m-%d %H:%M:%S', '2026-11-01 01:30:00') as b
-- case: generate-timestamp-array
select generate_timestamp_array(timestamp '2026-03-08 00:00:00+00', timestamp '2026-03-08 03:00:00+00', interval 1 hour) as v
-- case: generate-date-array
select generate_date_array(date '2024-02-27', date '2024-03-02') as a, generate_date_array(date '2026-01-01', date '2026-03-01', interval 1 month) as b
-- case: generate-date-array-empty
select generate_date_array(date '2026-01-02', date '2026-01-01') as v
-- case: ts-compare-iso-literal
select id from edge_logs where timestamp > '2026-03-08T10:00:00Z'
-- case: ts-between
select id from edge_logs where timestamp between timestamp '2026-03-08 00:00:00+00' and timestamp '2026-03-29 01:00:00+00'
-- case: cast-ts-string
select id, cast(timestamp as string) as v from edge_logs
-- case: cast-string-ts
select cast('2026-03-08 10:00:00.5' as timestamp) as a, cast('2026-03-08 10:00:00-08' as timestamp) as b
-- case: cast-ts-date-datetime
select id, cast(timestamp as date) as d, cast(timestamp as datetime) as dt from edge_logs
-- case: extract-parts
select id, extract(year from timestamp) as y, extract(month from timestamp) as mo, extract(dayofweek from timestamp) as dow, extract(dayofyear from timestamp) as doy, extract(hour from timestamp) as h from edge_logs
-- case: extract-week-iso
select id, extract(week from timestamp) as w, extract(isoweek from timestamp) as iw, extract(isoyear from timestamp) as iy from edge_logs
-- case: extract-zone
select id, extract(hour from timestamp at time zone 'America/New_York') as h from edge_logs
-- case: extract-micro
select id, extract(microsecond from timestamp) as us, extract(millisecond from timestamp) as ms from edge_logs
-- case: extract-date
select extract(day from date '2024-02-29') as d, extract(quarter from date '2026-11-30') as q
-- PostgreSQL reads 'infinity', '-infinity', 'now', 'today', 'epoch', ... as dates and times;
-- BigQuery refuses them ("Invalid timestamp"), and so does lqe, while translating. SAFE_CAST
-- gives NULL.
-- case: infinity-timestamp-literal
-- expect: error
select timestamp 'infinity' as t
-- case: infinity-cast-timestamp
-- expect: error
select cast('-infinity' as timestamp) as t
-- case: infinity-cast-timestamp-case-space
-- expect: error
select cast('  -Infinity ' as timestamp) as t
-- case: infinity-cast-timestamp-plus
-- expect: error
select cast('+infinity' as timestamp) as t
-- case: infinity-date-literal
-- expect: error
select date 'INFINITY' as d
-- case: infinity-datetime-literal
-- expect: error
select datetime '-infinity' as d
-- case: infinity-cast-date
-- expect: error
select cast('infinity' as date) as d
-- case: infinity-cast-datetime
-- expect: error
select cast('infinity' as datetime) as d
-- case: infinity-timestamp-function
-- expect: error
select timestamp('infinity') as t
-- case: infinity-datetime-function
-- expect: error
select datetime('-infinity') as d
-- case: infinity-compared-with-timestamp
-- expect: error
select id from edge_logs where timestamp > '-infinity'
-- case: now-cast-timestamp
-- expect: error
select cast('now' as timestamp) as t
-- case: today-cast-date
-- expect: error
select cast('today' as date) as d
-- case: epoch-timestamp-literal
-- expect: error
select timestamp 'epoch' as t
-- case: infinity-safe-cast-null
select safe_cast('infinity' as timestamp) as a, safe_cast('-infinity' as timestamp) as b, safe_cast(' Infinity' as date) as c, safe_cast('-infinity' as datetime) as d, safe_cast('now' as timestamp) as e
-- case: timestamp-extremes
select timestamp '0001-01-01 00:00:00+00' as lo, timestamp '9999-12-31 23:59:59.999999+00' as hi, cast('9999-12-31 23:59:59.999999+00' as timestamp) > timestamp '2099-01-01 00:00:00+00' as later
-- case: infinity-between-timestamps
-- expect: error
select id from edge_logs where timestamp between '2026-01-01' and 'infinity'
-- case: today-in-dates
-- expect: error
select id from edge_logs where date(timestamp) in ('2026-03-08', 'today')
