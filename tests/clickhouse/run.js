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
// CLICKHOUSE_FILTER (only case ids containing it).
const path = require('path');
const { Session } = require('chdb');
const pg = require('./lib/pg');
const norm = require('./lib/normalise');
const { load } = require('./lib/cases');
const { toOtelRow, CREATE_TABLE, SOURCE_NAMES } = require('./lib/otel_mapping');
const { translate } = require('./lib/lqe');

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

function main() {
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
  if (typeof session.cleanup === 'function') session.cleanup();
  console.log(`clickhouse: ${loaded} events loaded into the reference, ${cases.length} cases (${refused} refusals as expected)`);
  console.log(`clickhouse: ${passed} passed, ${failed} failed`);
  process.exit(failed > 0 || cases.length === 0 ? 1 : 0);
}

main();
