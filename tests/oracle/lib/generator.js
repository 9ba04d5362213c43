'use strict';
// A typed random generator of BigQuery queries over the sandbox CTE `edge_logs`, in the spirit of
// SQLancer / sqlsmith: every expression is built for a wanted type from typed columns (their
// types read from lqe's field catalogue), literals and functions of lqe's function table, so the
// queries are valid BigQuery. Shapes: projections, filters, UNNEST chains, self-joins, GROUP BY
// with HAVING, window functions, derived tables, IN/EXISTS/scalar subqueries, UNNEST of literal
// arrays. Each query has its own PRNG stream (seed + index): `ORACLE_SEED=S ORACLE_FILTER=gen-S-N`
// re-runs exactly one. Results are deterministic: a LIMIT always comes with ORDER BY over every
// output column, windows order by (timestamp, id), which is unique per event.

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

const CATALOGUE_TYPES = { STRING: 'STRING', INT64: 'INT64', FLOAT64: 'FLOAT64', BOOL: 'BOOL', TIMESTAMP: 'TIMESTAMP' };

function leafType(tree, path) {
  let node = tree;
  for (const part of path.split('.')) {
    node = node.children.get(part);
    if (!node) throw new Error(`generator: ${path} is not in the catalogue`);
  }
  const t = CATALOGUE_TYPES[node.type];
  if (!t) throw new Error(`generator: ${path} is ${node.type}, not a scalar`);
  return t;
}

// FROM shapes: the SQL and the columns they bring into scope (alias.field -> catalogue path).
// Records are single objects in the fixture, so the record chains keep one row per event.
const FROM_SHAPES = [
  { sql: 'edge_logs as t', cols: {} },
  { sql: 'edge_logs as t cross join unnest(t.metadata) as m cross join unnest(m.request) as r',
    cols: { 'r.method': 'metadata.request.method', 'r.path': 'metadata.request.path', 'r.host': 'metadata.request.host', 'r.search': 'metadata.request.search' } },
  { sql: 'edge_logs as t cross join unnest(t.metadata) as m cross join unnest(m.response) as s',
    cols: { 's.status_code': 'metadata.response.status_code', 's.origin_time': 'metadata.response.origin_time' } },
  { sql: 'edge_logs as t cross join unnest(t.metadata) as m left join unnest(m.response) as s on true cross join unnest(m.request) as r',
    cols: { 's.status_code': 'metadata.response.status_code', 'r.method': 'metadata.request.method', 'r.path': 'metadata.request.path' } },
  { sql: 'edge_logs as t cross join unnest(t.metadata) as m cross join unnest(m.request) as r cross join unnest(r.cf) as cf cross join unnest(cf.botManagement) as b',
    cols: { 'cf.country': 'metadata.request.cf.country', 'cf.asn': 'metadata.request.cf.asn', 'b.score': 'metadata.request.cf.botManagement.score', 'b.corporateProxy': 'metadata.request.cf.botManagement.corporateProxy', 'r.method': 'metadata.request.method' } },
  { sql: 'edge_logs as t cross join unnest(t.metadata) as m cross join unnest(m.request) as r cross join unnest(r.cf) as cf cross join unnest(cf.botManagement) as b cross join unnest(b.detectionIds) as d',
    cols: { 'b.score': 'metadata.request.cf.botManagement.score', 'r.host': 'metadata.request.host' }, extra: { d: 'INT64' }, multiplies: true },
];
const BASE_COLS = { 't.timestamp': 'timestamp', 't.id': 'id', 't.event_message': 'event_message' };

const STRINGS = ["''", "'GET'", "'a.supabase.co'", "'/rest/v1/users'", "'ünï'", "'文件'", "'it\\'s'", "'x'", "'US'", "'%'"];
const PATTERNS = ["r'^/rest'", "r'(?i)SUPABASE'", "r'v[0-9]'", "r'\\d+'", "r'[^/]+$'", "r'^$'", "r'\\.co$'"];
const EXTRACTS = ["r'^/([^/]+)'", "r'(\\d+)'", "r'([a-z]+)\\.'", "r'=(.*)'"];
const LIKES = ["'%rest%'", "'GET%'", "'_%'", "'%.co'", "''", "'%/%/%'"];
const TS_UNITS = ['microsecond', 'millisecond', 'second', 'minute', 'hour', 'day'];
const TRUNC_UNITS = ['second', 'minute', 'hour', 'day', 'week', 'month', 'quarter', 'year'];
const FORMATS = ["'%Y-%m-%d'", "'%H:%M:%S'", "'%Y-%m-%d %H:%M:%S'", "'%F %T'", "'%j'", "'%a %b'"];

class Gen {
  constructor(rand, scope) {
    this.r = rand;
    this.scope = scope; // [{sql, type}]
    this.tags = new Set();
    this.literals = new Set();
  }

  pick(list) { return list[Math.floor(this.r() * list.length)]; }
  chance(p) { return this.r() < p; }
  int(lo, hi) { return lo + Math.floor(this.r() * (hi - lo + 1)); }
  fn(name, sql) { this.tags.add(name); return sql; }

  column(type) {
    const cols = this.scope.filter((c) => c.type === type);
    return cols.length ? this.pick(cols).sql : null;
  }

  expr(type, depth) {
    if (depth <= 0 || this.chance(0.3)) {
      const col = this.chance(0.75) ? this.column(type) : null;
      return col || this.literal(type);
    }
    const d = depth - 1;
    const builders = this[`build${type}`].call(this, d);
    return this.pick(builders)();
  }

  literal(type) {
    const sql = this.literalText(type);
    this.literals.add(sql);
    return sql;
  }

  isLiteral(sql) { return this.literals.has(sql); }

  // An expression of `type` that is not a bare literal (ORDER BY and aggregate arguments).
  nonLiteral(type, depth) {
    for (let k = 0; k < 10; k++) {
      const sql = this.expr(type, depth);
      if (!this.isLiteral(sql)) return sql;
    }
    return this.column(type) || `cast(t.id as ${type === 'STRING' ? 'string' : type.toLowerCase()})`;
  }

  literalText(type) {
    switch (type) {
      case 'INT64': return this.pick(['0', '1', '-1', '2', '7', '100', '-20', '13335', 'cast(null as int64)']);
      case 'FLOAT64': return this.pick(['0.5', '1.5', '-2.25', '0.0', '1e3', 'cast(null as float64)']);
      case 'STRING': return this.chance(0.1) ? 'cast(null as string)' : this.pick(STRINGS);
      case 'BOOL': return this.pick(['true', 'false', 'cast(null as bool)']);
      case 'DATE': return this.pick(["date '2024-02-29'", "date '2026-03-08'", "date '1970-01-01'", 'cast(null as date)']);
      case 'TIMESTAMP': return this.pick(["timestamp '2026-03-08 10:00:00+00'", "timestamp '1970-01-01 00:00:00+00'", "timestamp '2026-06-15 12:30:45.123456+00'", "timestamp '2026-11-01 01:30:00-04'"]);
      default: throw new Error(type);
    }
  }

  buildINT64(d) {
    const i = () => this.expr('INT64', d);
    const s = () => this.expr('STRING', d);
    const ts = () => this.expr('TIMESTAMP', d);
    // cf.asn holds INT64's maximum: arithmetic over it may overflow where lqe skips evaluating it.
    const arith = (sql) => { if (/cf\.asn|b\.score/.test(sql)) this.tags.add('int64_max_arith'); return sql; };
    return [
      () => arith(`(${i()} + ${i()})`),
      () => arith(`(${i()} - ${i()})`),
      () => arith(`(${i()} * ${this.int(-3, 3)})`),
      () => this.fn('abs', `abs(${i()})`),
      () => this.fn('sign', `sign(${i()})`),
      () => this.fn('mod', `mod(${i()}, ${this.pick(['3', '-7', '10'])})`),
      () => this.fn('div', `div(${i()}, ${this.pick(['2', '-3', '100'])})`),
      () => this.fn('length', `length(${s()})`),
      () => this.fn('byte_length', `byte_length(${s()})`),
      () => this.fn('strpos', `strpos(${s()}, ${this.pick(STRINGS)})`),
      () => this.fn('extract', `extract(${this.pick(['hour', 'day', 'month', 'year', 'dayofweek', 'minute'])} from ${ts()})`),
      () => this.fn('unix_seconds', `unix_seconds(${ts()})`),
      () => this.fn('unix_micros', `unix_micros(${ts()})`),
      () => this.fn('timestamp_diff', `timestamp_diff(${ts()}, ${ts()}, ${this.pick(TS_UNITS)})`),
      () => this.fn('coalesce', `coalesce(${i()}, ${i()})`),
      () => this.fn('ifnull', `ifnull(${i()}, ${i()})`),
      () => this.fn('if', `if(${this.expr('BOOL', d)}, ${i()}, ${i()})`),
      () => this.fn('case', `case when ${this.expr('BOOL', d)} then ${i()} else ${i()} end`),
      () => this.fn('greatest', `greatest(${i()}, ${i()})`),
      () => this.fn('least', `least(${i()}, ${i()})`),
      () => this.fn('safe_cast', `safe_cast(${s()} as int64)`),
      () => this.fn('array_length', `array_length(split(${s()}, '/'))`),
      () => this.fn('nullif', `nullif(${i()}, ${i()})`),
      () => this.fn('date_diff', `date_diff(${this.expr('DATE', d)}, ${this.expr('DATE', d)}, ${this.pick(['day', 'week', 'month', 'year'])})`),
      () => this.fn('extract_date', `extract(${this.pick(['day', 'dayofweek', 'dayofyear', 'week', 'isoweek', 'quarter'])} from ${this.expr('DATE', d)})`),
      () => this.fn('unix_date', `unix_date(${this.expr('DATE', d)})`),
    ];
  }

  buildFLOAT64(d) {
    const i = () => this.expr('INT64', d);
    const f = () => this.expr('FLOAT64', d);
    return [
      () => this.fn('safe_divide', `safe_divide(${i()}, ${i()})`),
      () => this.fn('cast', `cast(${i()} as float64)`),
      () => this.fn('sqrt', `sqrt(abs(${f()}))`),
      () => this.fn('round', `round(${f()}, ${this.int(0, 3)})`),
      () => this.fn('floor', `floor(${f()})`),
      () => this.fn('ceil', `ceil(${f()})`),
      () => this.fn('trunc', `trunc(${f()})`),
      () => `(${f()} * ${f()})`,
      () => `(${f()} + ${i()})`,
      () => this.fn('ieee_divide_literal', `(${i()} / ${this.pick(['2', '4', '-8'])})`),
      () => this.fn('pow', `pow(${f()}, 2)`),
    ];
  }

  buildSTRING(d) {
    const s = () => this.expr('STRING', d);
    const i = () => this.expr('INT64', d);
    return [
      () => this.fn('lower', `lower(${s()})`),
      () => this.fn('upper', `upper(${s()})`),
      () => this.fn('concat', `concat(${s()}, ${s()})`),
      () => this.fn('substr', `substr(${s()}, ${this.int(-4, 5)}, ${this.int(0, 6)})`),
      () => this.fn('replace', `replace(${s()}, ${this.pick(["'/'", "'a'", "'.'"])}, ${this.pick(STRINGS)})`),
      () => this.fn('trim', `trim(${s()})`),
      () => this.fn('regexp_extract', `regexp_extract(${s()}, ${this.pick(EXTRACTS)})`),
      () => this.fn('regexp_replace', `regexp_replace(${s()}, ${this.pick(["r'[0-9]+'", "r'/'", "r'(a)'", "r'^.'"])}, ${this.pick(["'#'", "''", "r'<\\1>'"].slice(0, 2))})`),
      () => this.fn('left', `left(${s()}, ${this.int(0, 5)})`),
      () => this.fn('right', `right(${s()}, ${this.int(0, 5)})`),
      () => this.fn('lpad', `lpad(${s()}, ${this.int(0, 12)}, '*')`),
      () => this.fn('rpad', `rpad(${s()}, ${this.int(0, 12)})`),
      () => this.fn('format_timestamp', `format_timestamp(${this.pick(FORMATS)}, ${this.expr('TIMESTAMP', d)})`),
      () => this.fn('cast', `cast(${i()} as string)`),
      () => this.fn('ifnull', `ifnull(${s()}, ${this.pick(STRINGS)})`),
      () => this.fn('reverse', `reverse(${s()})`),
      () => this.fn('split_offset', `split(${s()}, '/')[safe_offset(${this.int(0, 3)})]`),
      () => this.fn('initcap', `initcap(${s()})`),
      () => this.fn('repeat', `repeat(${s()}, ${this.int(0, 3)})`),
      () => this.fn('if', `if(${this.expr('BOOL', d)}, ${s()}, ${s()})`),
      () => this.fn('to_hex_md5', `to_hex(md5(${s()}))`),
      () => this.fn('format_date', `format_date(${this.pick(["'%Y-%m-%d'", "'%A %d %B'", "'%j'", "'%Y%m%d'"])}, ${this.expr('DATE', d)})`),
      () => this.fn('json_value', `json_value(${this.pick(["'{\"a\": 1}'", "'{\"a\": {\"b\": \"x\"}}'", "'[1,2]'"])}, ${this.pick(["'$.a'", "'$.a.b'", "'$[0]'"])})`),
      () => this.fn('string_cast_ts', `cast(${this.expr('TIMESTAMP', d)} as string)`),
    ];
  }

  buildBOOL(d) {
    const cmp = () => {
      const t = this.pick(['INT64', 'STRING', 'TIMESTAMP', 'FLOAT64', 'INT64', 'DATE']);
      return `(${this.expr(t, d)} ${this.pick(['=', '!=', '<', '<=', '>', '>='])} ${this.expr(t, d)})`;
    };
    const s = () => this.expr('STRING', d);
    return [
      cmp, cmp, cmp,
      () => `(${this.expr(this.pick(['INT64', 'STRING']), d)} is ${this.pick(['', 'not '])}null)`,
      () => this.fn('like', `(${s()} ${this.pick(['', 'not '])}like ${this.pick(LIKES)})`),
      () => this.fn('regexp_contains', `regexp_contains(${s()}, ${this.pick(PATTERNS)})`),
      () => this.fn('starts_with', `starts_with(${s()}, ${this.pick(STRINGS)})`),
      () => this.fn('ends_with', `ends_with(${s()}, ${this.pick(STRINGS)})`),
      () => `(${this.expr('BOOL', d)} and ${this.expr('BOOL', d)})`,
      () => `(${this.expr('BOOL', d)} or ${this.expr('BOOL', d)})`,
      () => `(not ${this.expr('BOOL', d)})`,
      () => this.fn('in', `(${this.expr('INT64', d)} ${this.pick(['', 'not '])}in (${this.pick(['200, 404', '0, 1, null', '500'])}))`),
      () => this.fn('between', `(${this.expr('INT64', d)} between ${this.int(-5, 100)} and ${this.int(100, 600)})`),
    ];
  }

  buildDATE(d) {
    const dt = () => this.expr('DATE', d);
    const ts = () => this.expr('TIMESTAMP', d);
    return [
      () => this.fn('date', `date(${ts()})`),
      () => this.fn('date_zone', `date(${ts()}, ${this.pick(["'America/New_York'", "'Asia/Tokyo'", "'UTC'"])})`),
      () => this.fn('date_trunc', `date_trunc(${dt()}, ${this.pick(['week', 'month', 'quarter', 'year'])})`),
      () => this.fn('date_add', `date_add(${dt()}, interval ${this.int(-40, 40)} ${this.pick(['day', 'month', 'year'])})`),
      () => this.fn('date_sub', `date_sub(${dt()}, interval ${this.int(0, 40)} day)`),
      () => this.fn('parse_date', `parse_date('%Y-%m-%d', ${this.pick(["'2024-02-29'", "'2026-12-31'"])})`),
    ];
  }

  buildTIMESTAMP(d) {
    const ts = () => this.expr('TIMESTAMP', d);
    return [
      () => this.fn('timestamp_trunc', `timestamp_trunc(${ts()}, ${this.pick(TRUNC_UNITS)})`),
      () => this.fn('timestamp_add', `timestamp_add(${ts()}, interval ${this.int(-100, 100)} ${this.pick(TS_UNITS)})`),
      () => this.fn('timestamp_sub', `timestamp_sub(${ts()}, interval ${this.int(0, 48)} ${this.pick(['hour', 'minute', 'day'])})`),
      () => this.fn('timestamp_seconds', `timestamp_seconds(${this.int(0, 2000000000)})`),
      () => this.fn('timestamp_of_date', `timestamp(${this.expr('DATE', d)})`),
      () => this.fn('greatest', `greatest(${ts()}, ${ts()})`),
    ];
  }
}

const TYPES = ['INT64', 'STRING', 'BOOL', 'TIMESTAMP', 'FLOAT64', 'DATE'];

function scopeFor(tree, shape, prefix = '') {
  const cols = { ...BASE_COLS, ...shape.cols };
  const scope = Object.entries(cols).map(([sql, p]) => ({ sql: sql.replace(/^t\./, `${prefix || 't'}.`), type: leafType(tree, p) }));
  for (const [sql, type] of Object.entries(shape.extra || {})) scope.push({ sql, type });
  return scope;
}

function projections(g, n, depth) {
  const out = [];
  for (let k = 0; k < n; k++) out.push({ sql: g.expr(g.pick(TYPES), depth), alias: `c${k}` });
  return out;
}

const selectList = (cols) => cols.map((c) => `${c.sql} as ${c.alias}`).join(', ');
const ordinals = (n) => Array.from({ length: n }, (_, k) => k + 1).join(', ');

function plainQuery(g, shape) {
  const cols = projections(g, g.int(1, 3), 3);
  let sql = `select ${g.chance(0.15) ? 'distinct ' : ''}${selectList(cols)} from ${shape.sql}`;
  if (g.chance(0.7)) sql += ` where ${g.expr('BOOL', 3)}`;
  if (g.chance(0.4)) {
    if (cols.some((c) => g.isLiteral(c.sql))) g.tags.add('order_by_literal_ordinal');
    sql += ` order by ${ordinals(cols.length)}${g.chance(0.5) ? ` limit ${g.int(1, 5)}` : ''}`;
  }
  return sql;
}

function aggregateQuery(g) {
  g.tags.add('group_by');
  const key = g.expr(g.pick(['STRING', 'INT64', 'BOOL', 'TIMESTAMP']), 2);
  const aggs = [];
  for (let k = 0; k < g.int(1, 3); k++) {
    aggs.push(g.pick([
      () => 'count(*)',
      () => g.fn('count', `count(${g.expr(g.pick(TYPES), 2)})`),
      () => g.fn('count_distinct', `count(distinct ${g.expr(g.pick(['STRING', 'INT64']), 2)})`),
      () => { const e = g.expr('INT64', 2); if (/cf\.asn|b\.score/.test(e)) g.tags.add('int64_max_arith'); return g.fn('sum', `sum(${e})`); },
      () => g.fn('avg', `avg(${g.expr('INT64', 2)})`),
      () => g.fn('min', `min(${g.expr(g.pick(['STRING', 'INT64', 'TIMESTAMP']), 2)})`),
      () => g.fn('max', `max(${g.expr(g.pick(['STRING', 'INT64', 'TIMESTAMP']), 2)})`),
      () => g.fn('countif', `countif(${g.expr('BOOL', 2)})`),
      () => g.fn('logical_or', `logical_or(${g.expr('BOOL', 2)})`),
      () => g.fn('logical_and', `logical_and(${g.expr('BOOL', 2)})`),
      () => { const e = g.nonLiteral('STRING', 1); return g.fn('string_agg', `string_agg(${e}, ',' order by ${e})`); },
    ])());
  }
  let sql = `select ${key} as k, ${aggs.map((a, n) => `${a} as a${n}`).join(', ')} from ${g.shape.sql}`;
  if (g.chance(0.5)) sql += ` where ${g.expr('BOOL', 2)}`;
  sql += ' group by k';
  if (g.chance(0.3)) { g.tags.add('having'); sql += ` having count(*) ${g.pick(['>', '>=', '<'])} ${g.int(0, 3)}`; }
  if (g.chance(0.5)) {
    if (g.isLiteral(key)) g.tags.add('order_by_literal_ordinal');
    sql += ` order by ${ordinals(aggs.length + 1)}`;
  }
  return sql;
}

function windowQuery(g) {
  g.tags.add('window');
  const order = 'order by t.timestamp, t.id';
  const part = g.chance(0.5) ? `partition by ${g.expr(g.pick(['STRING', 'BOOL']), 1)} ` : '';
  const w = g.pick([
    () => g.fn('row_number', `row_number() over (${part}${order})`),
    () => g.fn('rank', `rank() over (${part}order by t.timestamp)`),
    () => g.fn('dense_rank', `dense_rank() over (${part}order by t.timestamp)`),
    () => g.fn('lag', `lag(${g.expr(g.pick(['STRING', 'INT64']), 1)}) over (${part}${order})`),
    () => g.fn('lead', `lead(${g.expr(g.pick(['STRING', 'INT64']), 1)}, ${g.int(1, 3)}) over (${part}${order})`),
    () => g.fn('window_sum', `sum(${g.expr('INT64', 1)}) over (${part}${order} rows between ${g.int(0, 2)} preceding and current row)`),
    () => g.fn('window_count', `count(*) over (${part.trim() ? `(${part.trim()})`.slice(1, -1) : ''})`),
    // The reference refuses a constant NULL argument to FIRST_VALUE: give it a column.
    () => g.fn('first_value', `first_value(${g.column('STRING') || 't.id'}) over (${part}${order})`),
    () => g.fn('ntile', `ntile(${g.int(1, 4)}) over (${part}${order})`),
  ])();
  const args = /^\w+\((.*?)(?:, \d+)?\) over/.exec(w);
  if (args && args[1] && g.isLiteral(args[1])) g.tags.add('window_literal_arg');
  return `select t.id as id, ${w} as w from ${g.shape.sql}${g.chance(0.3) ? ` where ${g.expr('BOOL', 2)}` : ''}`;
}

function subqueryQuery(g) {
  g.tags.add('subquery');
  return g.pick([
    () => {
      const inner = projections(g, g.int(1, 3), 2);
      const outerScope = inner.map((c) => ({ sql: `q.${c.alias}`, type: null }));
      void outerScope;
      return `select q.* from (select ${selectList(inner)} from ${g.shape.sql} where ${g.expr('BOOL', 2)}) as q`;
    },
    () => `select t.id as id from edge_logs as t where t.id in (select t.id from ${g.shape.sql} where ${g.expr('BOOL', 2)})`,
    () => `select t.id as id, (select count(*) from ${g.shape.sql} where ${g.expr('BOOL', 2)}) as n from edge_logs as t`,
    () => `select t.id as id from edge_logs as t where exists (select 1 from unnest(t.metadata) as m cross join unnest(m.response) as s where ${['s.status_code', 's.origin_time'][g.int(0, 1)]} ${g.pick(['>', '<', '='])} ${g.int(0, 500)})`,
  ])();
}

function joinQuery(g, tree) {
  g.tags.add('join');
  const a = scopeFor(tree, FROM_SHAPES[0], 'a');
  const b = scopeFor(tree, FROM_SHAPES[0], 'b');
  g.scope = [...a, ...b];
  const kind = g.pick(['join', 'left join']);
  const on = g.chance(0.5) ? 'a.id = b.id' : `a.timestamp ${g.pick(['<', '>', '='])} b.timestamp`;
  const cols = projections(g, g.int(1, 2), 2);
  return `select ${selectList(cols)} from edge_logs as a ${kind} edge_logs as b on ${on}${g.chance(0.5) ? ` where ${g.expr('BOOL', 2)}` : ''}`;
}

function literalUnnestQuery(g) {
  g.tags.add('unnest_literal');
  const arr = g.pick(['[1, 2, 3, null, -5]', '[0, 9223372036854775807]', '[7, 7, 100]']);
  g.scope = [{ sql: 'x', type: 'INT64' }, { sql: 'o', type: 'INT64' }];
  const cols = projections(g, g.int(1, 2), 3);
  return `select ${selectList(cols)} from unnest(${arr}) as x with offset as o${g.chance(0.5) ? ` where ${g.expr('BOOL', 2)}` : ''}`;
}

function cteQuery(g) {
  g.tags.add('cte');
  const inner = projections(g, g.int(1, 3), 2);
  const where = g.chance(0.5) ? ` where ${g.expr('BOOL', 2)}` : '';
  const outer = inner.map((c) => c.alias).join(', ');
  return `with q as (select ${selectList(inner)} from ${g.shape.sql}${where}) select ${outer} from q`;
}

function unionQuery(g) {
  g.tags.add('union_all');
  const types = Array.from({ length: g.int(1, 2) }, () => g.pick(TYPES));
  const arm = () => `select ${types.map((t, k) => `${g.expr(t, 2)} as c${k}`).join(', ')} from ${g.shape.sql} where ${g.expr('BOOL', 2)}`;
  return `${arm()} union all ${arm()}`;
}

function inUnnestQuery(g) {
  g.tags.add('in_unnest');
  const shape = FROM_SHAPES[4];
  return `select t.id as id, b.score as score from ${shape.sql} where ${g.int(-2, 8)} ${g.pick(['', 'not '])}in unnest(b.detectionIds)`;
}

function generate(seed, count, tree) {
  const cases = [];
  for (let n = 0; n < count; n++) {
    const rand = prng(seed * 1000003 + n);
    const shapeIndex = Math.floor(rand() * FROM_SHAPES.length);
    const shape = FROM_SHAPES[shapeIndex];
    const g = new Gen(rand, scopeFor(tree, shape));
    g.shape = shape;
    g.tags.add(`from${shapeIndex}`);
    const kind = g.pick(['plain', 'plain', 'plain', 'aggregate', 'aggregate', 'window', 'subquery', 'join', 'literal', 'cte', 'union', 'in_unnest']);
    let sql;
    if (kind === 'plain') sql = plainQuery(g, shape);
    else if (kind === 'aggregate') sql = aggregateQuery(g);
    else if (kind === 'window' && !shape.multiplies) sql = windowQuery(g);
    else if (kind === 'subquery') sql = subqueryQuery(g);
    else if (kind === 'join') sql = joinQuery(g, tree);
    else if (kind === 'literal') sql = literalUnnestQuery(g);
    else if (kind === 'cte') sql = cteQuery(g);
    else if (kind === 'union') sql = unionQuery(g);
    else if (kind === 'in_unnest') sql = inUnnestQuery(g);
    else sql = plainQuery(g, shape);
    cases.push({ id: `gen-${seed}-${n}`, sql, tags: [...g.tags].sort(), expectError: false });
  }
  return cases;
}

module.exports = { generate };
