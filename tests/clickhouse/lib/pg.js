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

// -> {ok, columns, rows (arrays of JSON values)} or {ok: false, message}. Each row is read as a
// JSON array (json_each over row_to_json keeps the column order; keys may repeat).
function query(dsn, sql, params = []) {
  const body = sql.trim().replace(/;\s*$/, '');
  const statement = `SELECT coalesce(json_agg(r ORDER BY n), '[]') FROM (
      SELECT row_number() OVER () AS n,
             (SELECT json_agg(json_build_array(e.key, e.value) ORDER BY e.o)
                FROM json_each(row_to_json(q)) WITH ORDINALITY AS e(key, value, o)) AS r
        FROM (${body}) AS q) AS t;`;
  // $1.. parameters as PREPARE/EXECUTE with text values.
  const text = params.length === 0 ? statement
    : `PREPARE lqe_case(${params.map(() => 'text').join(', ')}) AS ${statement}\n` +
      `EXECUTE lqe_case(${params.map((p) => (p === null ? 'NULL' : `'${String(p).replace(/'/g, "''")}'`)).join(', ')});`;
  const r = psql(dsn, text);
  if (!r.ok) return r;
  const rows = JSON.parse(r.out.trim().split('\n').pop());
  const columns = rows.length > 0 ? rows[0].map((kv) => kv[0]) : null;
  return { ok: true, columns, rows: rows.map((row) => row.map((kv) => kv[1])) };
}

module.exports = { psql, query };
