'use strict';
// lqe's translation of a case's ClickHouse SQL: `lqe translate --dialect clickhouse` offline
// (the field catalogue compiled into the binary), its PostgreSQL and $n parameters.
const { spawnSync } = require('child_process');

function translate(sql, params) {
  const bin = process.env.CLICKHOUSE_LQE;
  if (!bin) return { ok: false, message: 'CLICKHOUSE_LQE is not set (no lqe binary to translate with)' };
  const args = ['translate', '--dialect', 'clickhouse', '--json', '-'];
  for (const [name, value] of Object.entries(params)) args.push('--value', `${name}=${value}`);
  const r = spawnSync(bin, args, { input: sql, encoding: 'utf8' });
  if (r.status !== 0) return { ok: false, message: (r.stderr || '').trim() };
  const out = JSON.parse(r.stdout);
  return { ok: true, sql: out.sql, values: out.values || [] };
}

module.exports = { translate };
