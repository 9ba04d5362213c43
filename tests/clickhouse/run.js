'use strict';
// The ClickHouse reference suite: the events lqe stored (tests/fixtures loaded by `lqe load`) are
// mapped the way Logflare's ClickHouse backend maps them (lib/otel_mapping.js) into a ClickHouse
// table `logs` in chdb, an embedded ClickHouse; every case runs there and in lqe's PostgreSQL
// over logs.otel (the case's own PostgreSQL, or lqe's translation of its ClickHouse SQL), and the
// normalised results must be equal. Prints one line per failure and the summary
// `clickhouse: N passed, M failed`; exit 1 on any failure.
//
// Environment (deploy/clickhouse.sh sets it): CLICKHOUSE_DSN (a migrated database with the
// fixtures loaded), CLICKHOUSE_LQE (the lqe binary, for cases without their own PostgreSQL),
// CLICKHOUSE_FILTER (only case ids containing it), CLICKHOUSE_SEED (the generator's seed; random
// if unset, printed either way), CLICKHOUSE_COUNT (generated queries, default 120).
const path = require('path');
const { Session } = require('chdb');
const pg = require('./lib/pg');
const norm = require('./lib/normalise');
const { load } = require('./lib/cases');
const { toOtelRow, CREATE_TABLE, SOURCE_NAMES } = require('./lib/otel_mapping');
const { translate, translateAll } = require('./lib/lqe');
const { generate } = require('./lib/generator');

const dsn = process.env.CLICKHOUSE_DSN;
if (!dsn) {
  console.error('clickhouse: CLICKHOUSE_DSN is not set');
  process.exit(2);
}
const filter = process.env.CLICKHOUSE_FILTER || '';

// The stored events of every source, as lqe holds them.
function storedEvents(table) {
  const r = pg.query(dsn, `SELECT id, to_char("timestamp" AT TIME ZONE 'UTC',
      'YYYY-MM-DD HH24:MI:SS.US') AS ts, project, event_message, extra, metadata
    FROM logs.${table} ORDER BY "timestamp", id`);
  if (!r.ok) throw new Error(`reading logs.${table}: ${r.message}`);
  return r.rows.map(([id, ts, project, eventMessage, extra, metadata]) =>
    ({ id, timestamp: ts, project, event_message: eventMessage, extra, metadata }));
}

function loadReference(session) {
  session.query(CREATE_TABLE);
  let n = 0;
  for (const table of Object.keys(SOURCE_NAMES)) {
    const rows = storedEvents(table).map((e) => JSON.stringify(toOtelRow(table, e)));
    if (rows.length === 0) continue;
    session.query(`INSERT INTO logs FORMAT JSONEachRow\n${rows.join('\n')}`);
    n += rows.length;
  }
  return n;
}

function runReference(session, sql, params) {
  try {
    const settings = 'SETTINGS session_timezone = \'UTC\'';
    const text = Object.keys(params).length === 0 ? `${sql}\n${settings}` : sql;
    const out = Object.keys(params).length === 0
      ? session.query(text, 'JSONCompact')
      : session.queryBind(`${sql}\n${settings}`, params, 'JSONCompact');
    const r = JSON.parse(out);
    return { ok: true, columns: r.meta.map((m) => m.name), types: r.meta.map((m) => m.type), rows: r.data };
  } catch (e) {
    return { ok: false, message: String(e.message || e).split('\n')[0] };
  }
}

function runLqe(c) {
  if (c.postgres) return pg.query(dsn, c.postgres);
  const t = translate(c.sql, c.params);
  if (!t.ok) return t;
  return pg.query(dsn, t.sql, t.values);
}

const ordered = (sql) => /\border\s+by\b[^)]*$/i.test(sql);

function compare(c, ref, got) {
  if (!ref.ok) return `reference failed: ${ref.message}`;
  if (!got.ok) return `lqe failed: ${got.message}`;
  if (got.columns && JSON.stringify(got.columns) !== JSON.stringify(ref.columns)) {
    return `columns differ: reference ${JSON.stringify(ref.columns)}, lqe ${JSON.stringify(got.columns)}`;
  }
  const a = norm.rows(ref.rows, ref.types, ordered(c.sql));
  const b = norm.rows(got.rows, ref.types, ordered(c.sql));
  if (a.length !== b.length) return `row counts differ: reference ${a.length}, lqe ${b.length}`;
  for (let i = 0; i < a.length; i++) {
    if (JSON.stringify(a[i]) !== JSON.stringify(b[i])) {
      return `row ${i} differs: reference ${JSON.stringify(a[i])}, lqe ${JSON.stringify(b[i])}`;
    }
  }
  return null;
}

// The generated queries: translated by lqe (several at a time), run in one psql session, each
// compared with ClickHouse. A refusal is not a mismatch, but is printed with its message, which
// must name what is refused. -> {passed, failed, refused}.
async function runGenerated(session) {
  const seed = Number(process.env.CLICKHOUSE_SEED || String(Math.floor(Math.random() * 2 ** 31)));
  const count = Number(process.env.CLICKHOUSE_COUNT || '120');
  console.log(`clickhouse: generator seed ${seed} (CLICKHOUSE_SEED=${seed} reproduces it), ${count} queries`);
  const queries = generate(seed, count).filter((q) => q.id.includes(filter) || filter === '');
  const translated = await translateAll(queries.map((q) => q.sql));
  const runnable = queries.map((q, i) => ({ q, t: translated[i] })).filter((x) => x.t.ok);
  const results = pg.queryBatch(dsn, runnable.map((x) => x.t.sql));
  const got = new Map(runnable.map((x, i) => [x.q.id, results[i]]));
  const totals = { passed: 0, failed: 0, refused: 0 };
  queries.forEach((q, i) => {
    const t = translated[i];
    const ref = runReference(session, q.sql, {});
    let why = null;
    if (!t.ok) {
      if (!ref.ok) {
        why = `both refuse: reference ${ref.message}; lqe ${t.message}`;
      } else if (/unsupported|not supported|supports|is BigQuery's/.test(t.message)) {
        totals.refused++;
        console.log(`REFUSED ${q.id}: ${t.message.split('\n')[0]}\n  ${q.sql}`);
        return;
      } else {
        why = `lqe refused without naming what: ${t.message}`;
      }
    } else {
      why = compare(q, ref, got.get(q.id));
    }
    if (why) {
      totals.failed++;
      console.log(`FAIL ${q.id}: ${why}\n  ${q.sql}`);
    } else {
      totals.passed++;
    }
  });
  console.log(`clickhouse: generated ${queries.length}: ${totals.passed} passed, ${totals.failed} failed, ${totals.refused} refused`);
  return totals;
}

async function main() {
  const session = new Session();
  const loaded = loadReference(session);
  const cases = load(path.join(__dirname, 'cases')).filter((c) => c.id.includes(filter));
  let passed = 0;
  let failed = 0;
  let refused = 0;
  for (const c of cases) {
    let why;
    if (c.refused !== null) {
      const got = translate(c.sql, c.params);
      why = got.ok ? 'lqe answers a query it must refuse'
        : got.message.includes(c.refused) ? null : `refused with another message: ${got.message}`;
      if (!why) refused++;
    } else {
      why = compare(c, runReference(session, c.sql, c.params), runLqe(c));
    }
    if (why) {
      failed++;
      console.log(`FAIL ${c.id} (${c.file}:${c.line}): ${why}\n  ${c.sql.replace(/\n/g, '\n  ')}`);
    } else {
      passed++;
    }
  }
  const generated = await runGenerated(session);
  if (typeof session.cleanup === 'function') session.cleanup();
  console.log(`clickhouse: ${loaded} events loaded into the reference, ${cases.length} cases (${refused} refusals as expected)`);
  console.log(`clickhouse: ${passed} passed, ${failed} failed`);
  process.exit(failed > 0 || generated.failed > 0 || cases.length === 0 ? 1 : 0);
}

main().catch((e) => {
  console.error(e);
  process.exit(2);
});
