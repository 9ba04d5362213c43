'use strict';
// lqe's translation of a case's ClickHouse SQL: `lqe translate --dialect clickhouse` offline (the
// field catalogue compiled into the binary), its PostgreSQL and its $n parameters' values.
const { spawnSync } = require('child_process');

// params: {name: value}. -> {ok, sql, values} or {ok: false, message}.
function translate(sql, params) {
  const bin = process.env.CLICKHOUSE_LQE;
  if (!bin) return { ok: false, message: 'CLICKHOUSE_LQE is not set (no lqe binary to translate with)' };
  const args = ['translate', '--dialect', 'clickhouse', '-'];
  for (const name of Object.keys(params)) args.push('--param', `${name}=STRING`);
  const r = spawnSync(bin, args, { input: sql, encoding: 'utf8' });
  if (r.status !== 0) return { ok: false, refused: true, message: (r.stderr || '').trim() };
  const [pgSql, rest] = r.stdout.split('\n-- params\n');
  const names = rest.split('\n-- columns\n')[0].split('\n').filter(Boolean).map((l) => l.split(' ')[1]);
  return { ok: true, sql: pgSql, values: names.map((n) => params[n]) };
}

module.exports = { translate };
