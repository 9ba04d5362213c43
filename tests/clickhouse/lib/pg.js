'use strict';
// PostgreSQL through psql (no driver to install): a query's rows as JSON, in UTC.
const { spawnSync } = require('child_process');

function psql(dsn, sql) {
  const r = spawnSync('psql', ['-X', '-q', '-At', '-v', 'ON_ERROR_STOP=1', dsn], {
    input: `SET TimeZone = 'UTC';\n${sql}\n`,
    encoding: 'utf8',
    env: { ...process.env, PGOPTIONS: '-c client_min_messages=warning' },
    maxBuffer: 256 * 1024 * 1024,
  });
  if (r.status !== 0) return { ok: false, message: (r.stderr || '').trim() || `psql exited ${r.status}` };
  return { ok: true, out: r.stdout };
}

// The rows of `sql` as one JSON value: an array of rows, each an array of [column, value] pairs
// (json_each over row_to_json keeps the column order; keys may repeat).
function rowsStatement(sql) {
  const body = sql.trim().replace(/;\s*$/, '');
  return `SELECT coalesce(json_agg(r ORDER BY n), '[]') FROM (
      SELECT row_number() OVER () AS n,
             (SELECT json_agg(json_build_array(e.key, e.value) ORDER BY e.o)
                FROM json_each(row_to_json(q)) WITH ORDINALITY AS e(key, value, o)) AS r
        FROM (${body}) AS q) AS t`;
}

function parseRows(text) {
  const rows = JSON.parse(text);
  const columns = rows.length > 0 ? rows[0].map((kv) => kv[0]) : null;
  return { ok: true, columns, rows: rows.map((row) => row.map((kv) => kv[1])) };
}

// -> {ok, columns, rows (arrays of JSON values)} or {ok: false, message}.
function query(dsn, sql, params = []) {
  const statement = `${rowsStatement(sql)};`;
  // $1.. parameters as PREPARE/EXECUTE with text values.
  const text = params.length === 0 ? statement
    : `PREPARE lqe_case(${params.map(() => 'text').join(', ')}) AS ${statement}\n` +
      `EXECUTE lqe_case(${params.map((p) => (p === null ? 'NULL' : `'${String(p).replace(/'/g, "''")}'`)).join(', ')});`;
  const r = psql(dsn, text);
  if (!r.ok) return r;
  return parseRows(r.out.trim().split('\n').pop());
}

// Many queries without parameters in one psql session (a connection costs more than a small
// query): -> one result per query, as query() gives it. A failing query is caught in PL/pgSQL
// and reported as its result (so is one running past timeoutMs: OTHERS does not cover
// query_canceled, which would end the whole session); the others still run.
function queryBatch(dsn, sqls, timeoutMs = 60000) {
  const run = `CREATE FUNCTION pg_temp.lqe_run(q text) RETURNS text LANGUAGE plpgsql AS $f$
    DECLARE r text;
    BEGIN EXECUTE q INTO r; RETURN r;
    EXCEPTION WHEN others OR query_canceled THEN RETURN 'ERROR: ' || SQLERRM; END $f$;`;
  const statements = sqls.map((sql) => {
    if (sql.includes('$lqe$')) throw new Error('queryBatch: a query contains $lqe$');
    return `SELECT replace(pg_temp.lqe_run($lqe$${rowsStatement(sql)}$lqe$), E'\n', ' ');`;
  });
  const r = psql(dsn, `SET statement_timeout = '${timeoutMs}ms';\n${run}\n${statements.join('\n')}`);
  if (!r.ok) return sqls.map(() => r);
  const lines = r.out.split('\n').filter((l) => l !== '');
  if (lines.length !== sqls.length) {
    const message = `queryBatch: ${lines.length} results for ${sqls.length} queries`;
    return sqls.map(() => ({ ok: false, message }));
  }
  return lines.map((l) => (l.startsWith('ERROR: ') ? { ok: false, message: l } : parseRows(l)));
}

module.exports = { psql, query, queryBatch };
