-- Arithmetic and math functions; NULL, negative, zero, overflow.
-- case: int-div-is-float
select 7 / 2 as a, -7 / 2 as b, 1 / 3 as c
-- case: div-by-zero
-- expect: error
select 1 / 0 as v
-- case: safe-divide
select safe_divide(1, 0) as a, safe_divide(7, 2) as b, safe_divide(null, 1) as c, safe_divide(0, 0) as d
-- case: div-fn
select div(7, 2) as a, div(-7, 2) as b, div(7, -2) as c
-- case: div-fn-zero
-- expect: error
select div(1, 0) as v
-- case: mod-fn
select mod(7, 3) as a, mod(-7, 3) as b, mod(7, -3) as c, mod(null, 3) as d
-- case: mod-zero
-- expect: error
select mod(5, 0) as v
-- case: int-overflow-add
-- expect: error
select 9223372036854775807 + 1 as v
-- case: int-overflow-mul
-- expect: error
select 4611686018427387904 * 2 as v
-- case: int-overflow-column
-- expect: error
select sum(r.cf[safe_offset(0)].asn + 1) as v from edge_logs cross join unnest(metadata) as m cross join unnest(m.request) as r
-- case: int-min-literal
select -9223372036854775808 as v
-- case: int-negate
select -(-5) as a, abs(-9223372036854775807) as b
-- case: abs-overflow
-- expect: error
select abs(-9223372036854775808) as v
-- case: round
select round(2.5) as a, round(-2.5) as b, round(1.2345, 2) as c, round(1234.5, -2) as d, round(cast(null as float64)) as e
-- case: round-int
select round(7) as a, round(-3) as b
-- case: trunc
select trunc(2.7) as a, trunc(-2.7) as b, trunc(1.2399, 2) as c
-- case: ceil-floor
select ceil(1.1) as a, ceiling(-1.1) as b, floor(-1.1) as c, floor(1.9) as d, ceil(5) as e
-- case: abs-sign
select abs(-3) as a, abs(-2.5) as b, sign(-7) as c, sign(0) as d, sign(2.5) as e, sign(cast(null as int64)) as f
-- case: pow
select pow(2, 10) as a, power(2.0, -1) as b, pow(-8, 3) as c, pow(0, 0) as d
-- case: pow-domain-error
-- expect: error
select pow(-8, 0.5) as v
-- case: sqrt-exp-ln
select sqrt(16) as a, exp(0) as b, ln(1) as c, log10(1000) as d, log(8, 2) as e, log(100) as f
-- case: sqrt-negative
-- expect: error
select sqrt(-1) as v
-- case: ln-zero
-- expect: error
select ln(0) as v
-- case: greatest-least
select greatest(1, 5, 3) as a, least(1, 5, 3) as b, greatest('a', 'B') as c, least(2.5, 1) as d
-- case: greatest-null
select greatest(1, null, 3) as a, least(null, 2) as b
-- case: numeric-column-arith
select id, s.status_code * 2 + s.origin_time as a, s.status_code / 100 as b, mod(s.status_code, 7) as c from edge_logs cross join unnest(metadata) as m cross join unnest(m.response) as s
-- case: float-literals
select 1e3 as a, 1.5e-3 as b, .5 as c, 5. as d
-- case: float-cast-int-rounding
select cast(2.5 as int64) as a, cast(-2.5 as int64) as b, cast(3.5 as int64) as c
-- case: cast-string-int
select cast('42' as int64) as a, cast(' 42' as int64) as b, cast('-0' as int64) as c
-- case: cast-string-int-bad
-- expect: error
select cast('4.2' as int64) as v
-- case: safe-cast
select safe_cast('x' as int64) as a, safe_cast('12' as int64) as b, safe_cast('1.5' as float64) as c, safe_cast('true' as bool) as d, safe_cast('2026-02-30' as date) as e
-- case: safe-cast-hex
select safe_cast('0x1F' as int64) as a, cast('0x10' as int64) as b
-- case: cast-int64-text-forms
select cast(' 12 ' as int64) as a, cast('-0x10' as int64) as b, cast('+5' as int64) as c, safe_cast('0X1f' as int64) as d, cast('0x7FFFFFFFFFFFFFFF' as int64) as e, safe_cast('0x8000000000000000' as int64) as f, safe_cast('1.5' as int64) as g
-- case: cast-int64-hex-column
select id, safe_cast(concat('0x', substr(id, 1, 4)) as int64) as v, cast(concat('0x', substr(id, 1, 2)) as int64) as w from edge_logs
-- case: cast-int64-bad-text
-- expect: error
select cast('0xZZ' as int64) as v
-- case: cast-float-string
select cast(1.0 as string) as a, cast(0.1 as string) as b, cast(1e20 as string) as c, cast(-0.0 as string) as d, cast(1.5e-7 as string) as e
-- case: cast-bool
select cast(true as string) as a, cast('TRUE' as bool) as b, cast(1 as bool) as c, cast(false as int64) as d
-- case: cast-content-length
select id, safe_cast(r.headers[safe_offset(0)].content_length as int64) as v from edge_logs cross join unnest(metadata) as m cross join unnest(m.request) as r
-- case: float-nan-inf
select cast('nan' as float64) as a, cast('inf' as float64) as b, cast('-inf' as float64) as c
-- case: float-compare-nan
select cast('nan' as float64) = cast('nan' as float64) as a, cast('nan' as float64) > 1 as b
-- case: float-compare-nan-all-ops
select n = n as a, n != n as b, n < 1 as c, n <= 1 as d, n > 1 as e, n >= 1 as f, 1 < n as g, 1 >= n as h, n = 1.5 as i, n != 1.5 as j, cast(null as float64) < n as k, n > cast(null as float64) as l, x = x as m, x < n as o from unnest([cast('nan' as float64)]) as n cross join unnest([2.5]) as x
-- case: float-compare-nan-filter
select x from unnest([1.0, cast('nan' as float64), -1.0, cast('inf' as float64), null]) as x where x > 0 or x <= -1
-- case: float-compare-nan-ieee
select count(*) as n from unnest([0.0, 1.0, -1.0]) as x where ieee_divide(x, 0) > 0 or ieee_divide(x, 0) = ieee_divide(x, 0)
-- case: rand-range
select rand() >= 0 and rand() < 1 as v
-- case: bit-ops
select 5 & 3 as a, 5 | 3 as b, 5 ^ 3 as c, ~5 as d, 1 << 4 as e, -16 >> 2 as f
-- case: int-overflow-json-field-mul
-- expect: error
select r.cf[safe_offset(0)].asn * 3 as v from edge_logs cross join unnest(metadata) as m cross join unnest(m.request) as r
-- case: int-overflow-json-field-add
-- expect: error
select r.cf[safe_offset(0)].asn + 13335 as v from edge_logs cross join unnest(metadata) as m cross join unnest(m.request) as r
-- case: round-binary-halfway
select round(0.075, 2) as a, round(2.675, 2) as b, round(safe_divide(15, 200), 2) as c, round(1.005, 2) as d
-- case: round-trunc-negative
select round(-2.25, 1) as a, round(-0.075, 2) as b, trunc(-2.7) as c, round(-2.5) as d, trunc(-1.2399, 2) as e, round(-1234.5, -2) as f
-- case: round-extremes
select round(cast('inf' as float64)) as a, round(cast('-inf' as float64), 2) as b, round(1e300, 2) as c, round(123.456, -1) as d, trunc(1e-300, 5) as e, round(5e-324, 400) as f, round(2.5, null) as g
-- case: shifts
select -16 >> 2 as a, 1 << 63 as b, 1 << 64 as c, -1 >> 63 as d, -1 >> 64 as e, 1 << 200 as f, 5 >> 0 as g, -5 << 1 as h, cast(null as int64) >> 1 as i
-- case: shift-negative
-- expect: error
select 5 << -1 as v
-- case: shift-right-negative
-- expect: error
select 5 >> -3 as v
-- case: greatest-null-arg-overflow
-- expect: error
select greatest(cast(null as int64), r.cf[safe_offset(0)].asn * 3) as v from edge_logs cross join unnest(metadata) as m cross join unnest(m.request) as r
-- case: int64-overflow-in-min-of-bool
-- expect: error
select min((cf.asn > (cf.asn + b.score))) as a1 from edge_logs as t cross join unnest(t.metadata) as m cross join unnest(m.request) as r cross join unnest(r.cf) as cf cross join unnest(cf.botManagement) as b
-- case: int64-overflow-in-logical-and-alone
-- expect: error
select logical_and((cf.asn > (cf.asn + b.score))) as a1 from edge_logs as t cross join unnest(t.metadata) as m cross join unnest(m.request) as r cross join unnest(r.cf) as cf cross join unnest(cf.botManagement) as b where cf.asn = 9223372036854775807
-- case: int64-overflow-in-logical-or
select logical_or((cf.asn < (cf.asn + b.score))) as a1 from edge_logs as t cross join unnest(t.metadata) as m cross join unnest(m.request) as r cross join unnest(r.cf) as cf cross join unnest(cf.botManagement) as b
-- case: int64-overflow-in-logical-and
select timestamp(date_sub(date '2026-03-08', interval 9 day)) as k, count(date '1970-01-01') as a0, logical_and((cf.asn > (cf.asn + b.score))) as a1, logical_or(b.corporateProxy) as a2 from edge_logs as t cross join unnest(t.metadata) as m cross join unnest(m.request) as r cross join unnest(r.cf) as cf cross join unnest(cf.botManagement) as b group by k order by 1, 2, 3, 4
