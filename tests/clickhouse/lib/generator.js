'use strict';
// A typed random generator of ClickHouse queries over the OTEL table `logs`, in the spirit of the
// BigQuery oracle's (tests/oracle/lib/generator.js): every expression is built for a wanted type
// (String, Int, Float, Bool, DateTime) from the OTEL columns, log_attributes keys, literals and the
// ClickHouse front end's functions, so each query is valid ClickHouse. Shapes: filtered row
// listings and grouped aggregates (GROUP BY, HAVING, LIMIT n BY, LIMIT). Results are
// deterministic: every listing orders by all its output columns and then `id` (unique per event),
// every grouped query by all its output columns (the group keys are among them); any and argMax
// appear only in grouped queries (over no rows ClickHouse returns the type's default, not NULL),
// groupArray only under length() (its element order is arbitrary). Each query has its own PRNG
// stream (seed + index), so `CLICKHOUSE_SEED=S CLICKHOUSE_FILTER=gen-S-N` re-runs one.

function prng(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

// The OTEL columns the generator reads (project is left out: ClickHouse's is '' where lqe's is
// NULL for sources without one, a difference of the reference table, not of the functions).
const STRING_COLUMNS = ['id', 'source', 'event_message', 'severity_text', 'service_name', 'trace_id', 'span_id', 'scope_name'];
// Columns known to be ASCII, where substring's byte offsets equal lqe's character offsets.
const ASCII_COLUMNS = ['id', 'source', 'severity_text'];
const KEYS = ['response.status_code', 'request.method', 'request.path', 'request.url', 'level', 'status',
  'parsed.error_severity', 'msg', 'path', 'function_id', 'execution_time_ms', 'host', 'appname',
  'method', 'event_type', 'no.such.key'];
const STRINGS = ["''", "'GET'", "'POST'", "'edge_logs'", "'postgres_logs'", "'auth_logs'", "'ERROR'", "'INFO'",
  "'LOG'", "'200'", "'500'", "'info'", "'error'", "'ünï'", "'x'", "'/rest/v1/'", "'it\\'s'"];
const PATTERNS = ["'%GET%'", "'%error%'", "'%/%'", "'_%'", "''", "'%'", "'%rest%'", "'P%'", "'%\\\\_%'", "'%ÜN%'"];
const REGEXES = ["'^GET'", "'[0-9]{3}'", "'(?i)error'", "'^$'", "'rest|auth'", "'\\\\d+'"];
const FORMATS = ["'%Y-%m-%d'", "'%H:%i:%S'", "'%F %T'", "'%j %a %b'", "'%Y%m%d%H'", "'%M %W %p %I'"];
const UNITS = [['SECOND', [15, 30, 90]], ['MINUTE', [1, 5, 15, 30]], ['HOUR', [1, 2, 7]], ['DAY', [1]]];

class Gen {
  constructor(seed) {
    this.rand = prng(seed);
  }

  int(n) { return Math.floor(this.rand() * n); }
  pick(list) { return list[this.int(list.length)]; }
  chance(p) { return this.rand() < p; }

  attr() { return `log_attributes['${this.pick(KEYS)}']`; }

  str(depth) {
    const leaf = () => (this.chance(0.5) ? this.pick(STRING_COLUMNS) : this.chance(0.6) ? this.attr() : this.pick(STRINGS));
    if (depth <= 0 || this.chance(0.35)) return leaf();
    const d = depth - 1;
    switch (this.int(11)) {
      case 0: return `lower(${this.str(d)})`;
      case 1: return `upper(${this.str(d)})`;
      case 2: return `concat(${this.str(d)}, ${this.chance(0.5) ? this.str(d) : this.intExpr(d)})`;
      case 3: return `substring(${this.pick(ASCII_COLUMNS)}, ${this.pick([-12, -3, -1, 1, 2, 5, 40])}${this.chance(0.6) ? `, ${this.pick([-2, 0, 1, 3, 8])}` : ''})`;
      case 4: return `substringUTF8(${this.str(d)}, ${this.pick([-3, 1, 2, 7])}, ${this.pick([1, 4, 20])})`;
      case 5: return `toString(${this.intExpr(d)})`;
      case 6: return `if(${this.bool(d)}, ${this.str(d)}, ${this.str(d)})`;
      case 7: return `JSONExtractString(event_message, '${this.pick(['msg', 'level', 'event_message', 'x'])}')`;
      case 8: return `formatDateTime(${this.time(d)}, ${this.pick(FORMATS)})`;
      case 9: return `multiIf(${this.bool(d)}, ${this.str(d)}, ${this.bool(d)}, ${this.str(d)}, ${this.str(d)})`;
      default: return `coalesce(${this.str(d)}, '')`;
    }
  }

  intExpr(depth) {
    const leaf = () => (this.chance(0.5) ? 'severity_number' : String(this.pick([0, 1, 3, 9, 17, 200, -4])));
    if (depth <= 0 || this.chance(0.3)) return leaf();
    const d = depth - 1;
    switch (this.int(10)) {
      case 0: return `length(${this.str(d)})`;
      case 1: return `position(${this.str(d)}, ${this.pick(STRINGS)})`;
      case 2: return `positionCaseInsensitive(${this.str(d)}, ${this.pick(STRINGS)})`;
      case 3: return `toInt64OrZero(${this.attr()})`;
      case 4: return `toUInt32OrZero(${this.attr()})`;
      case 5: return `intDiv(${this.intExpr(d)}, ${this.pick([2, 3, 7, -5])})`;
      case 6: return `(${this.intExpr(d)} ${this.pick(['+', '-'])} ${this.intExpr(d)})`;
      case 7: return `toInt32OrZero(${this.attr()})`;
      case 8: return `ifNull(toInt32OrNull(${this.attr()}), ${this.pick([0, -1])})`;
      default: return `lengthUTF8(${this.str(d)})`;
    }
  }

  float(depth) {
    switch (this.int(3)) {
      case 0: return `(${this.intExpr(depth - 1)} / ${this.pick([2, 4, 8, -16])})`;
      case 1: return `toFloat64OrZero(${this.attr()})`;
      default: return `coalesce(toFloat64OrNull(${this.attr()}), 0.5)`;
    }
  }

  time(depth) {
    if (depth <= 0 || this.chance(0.4)) return 'timestamp';
    switch (this.int(6)) {
      case 0: return 'toStartOfMinute(timestamp)';
      case 1: return 'toStartOfHour(timestamp)';
      case 2: return 'toStartOfFiveMinutes(timestamp)';
      case 3: return 'toStartOfFifteenMinutes(timestamp)';
      case 4: return 'toStartOfDay(timestamp)';
      default: {
        const [unit, counts] = this.pick(UNITS);
        return `toStartOfInterval(timestamp, INTERVAL ${this.pick(counts)} ${unit})`;
      }
    }
  }

  bool(depth) {
    if (depth <= 0) return `${this.pick(STRING_COLUMNS.concat([this.attr()]))} = ${this.pick(STRINGS)}`;
    const d = depth - 1;
    switch (this.int(15)) {
      case 0: return `${this.str(d)} ${this.pick(['=', '!=', '<', '>='])} ${this.str(d)}`;
      case 1: return `${this.intExpr(d)} ${this.pick(['=', '!=', '<', '<=', '>', '>='])} ${this.intExpr(d)}`;
      case 2: return `${this.pick(['like', 'ilike', 'notLike', 'notILike'])}(${this.str(d)}, ${this.pick(PATTERNS)})`;
      case 3: return `${this.str(d)} ${this.pick(['LIKE', 'ILIKE', 'NOT LIKE', 'NOT ILIKE'])} ${this.pick(PATTERNS)}`;
      case 4: return `match(${this.str(d)}, ${this.pick(REGEXES)})`;
      case 5: return `${this.pick(['mapContains', 'has'])}(log_attributes, '${this.pick(KEYS)}')`;
      case 6: return `${this.pick(['empty', 'notEmpty'])}(${this.str(d)})`;
      case 7: return `${this.str(d)} ${this.chance(0.3) ? 'NOT IN' : 'IN'} (${this.pick(STRINGS)}, ${this.pick(STRINGS)}, ${this.pick(STRINGS)})`;
      case 8: return `${this.intExpr(d)} BETWEEN ${this.pick([0, 5, 9])} AND ${this.pick([9, 13, 21, 600])}`;
      case 9: return `NOT (${this.bool(d)})`;
      case 10: return `(${this.bool(d)} AND ${this.bool(d)})`;
      case 11: return `(${this.bool(d)} OR ${this.bool(d)})`;
      case 12: return `toInt32OrNull(${this.attr()}) IS ${this.chance(0.5) ? 'NOT ' : ''}NULL`;
      case 13: return `${this.time(d)} ${this.pick(['>=', '<'])} toDateTime64('${this.pick(['2024-01-01 00:00:00', '2025-01-15 10:30:00', '2025-06-01 12:00:00'])}', 6)`;
      default: return `JSONHas(event_message, '${this.pick(['msg', 'level', 'x'])}')`;
    }
  }

  // An expression of a random type, for a select list.
  value(depth) {
    switch (this.int(6)) {
      case 0: case 1: return this.str(depth);
      case 2: return this.intExpr(depth);
      case 3: return this.float(depth);
      case 4: return this.time(depth);
      default: return this.bool(depth);
    }
  }

  // A low-cardinality grouping key.
  key() {
    switch (this.int(7)) {
      case 0: return 'source';
      case 1: return 'severity_text';
      case 2: return 'severity_number';
      case 3: return this.attr();
      case 4: return this.time(1);
      case 5: return `lower(${this.pick(['severity_text', this.attr()])})`;
      default: return this.bool(1);
    }
  }

  aggregate(keys) {
    switch (this.int(10)) {
      case 0: return 'count()';
      case 1: return `countIf(${this.bool(1)})`;
      case 2: return `uniq(${this.str(0)})`;
      case 3: return `uniqExact(${this.str(1)})`;
      case 4: return `quantile(${this.pick(['0.5', '0.9', '0.25', '0.0', '1.0'])})(${this.pick(['severity_number', 'length(event_message)', 'position(event_message, \' \')'])})`;
      case 5: return `quantiles(${this.pick(['0.1, 0.5', '0.5, 0.99', '0.33'])})(${this.pick(['severity_number', 'length(event_message)', '(severity_number / 3)'])})`;
      case 6: return `any(${this.pick(keys)})`;
      case 7: return `${this.pick(['argMax', 'argMin'])}(${this.str(0)}, id)`;
      case 8: return `length(groupArray(${this.pick(STRING_COLUMNS.concat([this.attr()]))}))`;
      default: return `countIf(${this.bool(1)})`;
    }
  }

  listing() {
    const n = 1 + this.int(3);
    const items = ['id'];
    for (let i = 0; i < n; i++) items.push(this.value(1 + this.int(2)));
    const cols = items.map((e, i) => (i === 0 ? 'id' : `c${i}`));
    const select = items.map((e, i) => (i === 0 ? 'id' : `${e} AS c${i}`)).join(', ');
    const where = this.chance(0.8) ? ` WHERE ${this.bool(2)}` : '';
    const order = cols.slice(1).concat(['id']).map((c) => `${c}${this.chance(0.3) ? ' DESC' : ''}`).join(', ');
    const limit = this.chance(0.5) ? ` LIMIT ${this.pick([1, 3, 10, 50])}` : '';
    return `SELECT ${select} FROM logs${where} ORDER BY ${order}${limit}`;
  }

  grouped() {
    const nKeys = 1 + this.int(2);
    const keys = [];
    for (let i = 0; i < nKeys; i++) keys.push(this.key());
    const nAggs = 1 + this.int(3);
    const aggs = [];
    for (let i = 0; i < nAggs; i++) aggs.push(this.aggregate(keys));
    const select = keys.map((k, i) => `${k} AS k${i}`).concat(aggs.map((a, i) => `${a} AS a${i}`)).join(', ');
    const where = this.chance(0.6) ? ` WHERE ${this.bool(1 + this.int(2))}` : '';
    const groupBy = keys.map((k, i) => (this.chance(0.5) ? `k${i}` : k)).join(', ');
    const having = this.chance(0.25) ? ` HAVING count() ${this.pick(['>', '>=', '<'])} ${this.pick([1, 2, 5])}` : '';
    const cols = keys.map((k, i) => `k${i}`).concat(aggs.map((a, i) => `a${i}`));
    // The keys first: they are unique per group, so the order is total.
    const order = cols.map((c) => `${c}${this.chance(0.3) ? ' DESC' : ''}`).join(', ');
    const limitBy = nKeys === 2 && this.chance(0.3) ? ` LIMIT ${this.pick([1, 2])} BY k0` : '';
    const limit = this.chance(0.3) ? ` LIMIT ${this.pick([1, 5, 20])}` : '';
    return `SELECT ${select} FROM logs${where} GROUP BY ${groupBy}${having} ORDER BY ${order}${limitBy}${limit}`;
  }

  // Aggregates over the whole (filtered) table: only those whose value over no rows ClickHouse
  // and lqe agree on.
  total() {
    const aggs = [];
    const n = 1 + this.int(3);
    for (let i = 0; i < n; i++) {
      aggs.push(this.pick(['count()', `countIf(${this.bool(1)})`, `uniq(${this.str(0)})`, `uniqExact(${this.str(1)})`,
        `quantile(0.5)(${this.pick(['severity_number', 'length(event_message)'])})`]));
    }
    const where = this.chance(0.8) ? ` WHERE ${this.bool(2)}` : '';
    return `SELECT ${aggs.map((a, i) => `${a} AS a${i}`).join(', ')} FROM logs${where}`;
  }

  query() {
    const r = this.rand();
    if (r < 0.45) return this.listing();
    if (r < 0.85) return this.grouped();
    return this.total();
  }
}

// count queries for `seed`: [{id, sql}].
function generate(seed, count) {
  const out = [];
  for (let i = 0; i < count; i++) {
    out.push({ id: `gen-${seed}-${i}`, sql: new Gen(seed + i).query() });
  }
  return out;
}

module.exports = { generate };
