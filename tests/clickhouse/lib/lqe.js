'use strict';
// lqe's translation of a case's ClickHouse SQL: `lqe translate --dialect clickhouse` offline (the
// field catalogue compiled into the binary), its PostgreSQL and its $n parameters' values.
const { spawn, spawnSync } = require('child_process');

function command(params) {
  const args = ['translate', '--dialect', 'clickhouse', '-'];
  for (const name of Object.keys(params)) args.push('--param', `${name}=STRING`);
  return args;
}

function result(status, stdout, stderr, params) {
  if (status !== 0) return { ok: false, refused: true, message: (stderr || '').trim() || `lqe exited ${status}` };
  const [pgSql, rest] = stdout.split('\n-- params\n');
  const names = rest.split('\n-- columns\n')[0].split('\n').filter(Boolean).map((l) => l.split(' ')[1]);
  return { ok: true, sql: pgSql, values: names.map((n) => params[n]) };
}

// params: {name: value}. -> {ok, sql, values} or {ok: false, message}.
function translate(sql, params) {
  const bin = process.env.CLICKHOUSE_LQE;
  if (!bin) return { ok: false, message: 'CLICKHOUSE_LQE is not set (no lqe binary to translate with)' };
  const r = spawnSync(bin, command(params), { input: sql, encoding: 'utf8' });
  return result(r.status, r.stdout, r.stderr, params);
}

function translateAsync(sql) {
  const bin = process.env.CLICKHOUSE_LQE;
  if (!bin) return Promise.resolve({ ok: false, message: 'CLICKHOUSE_LQE is not set' });
  return new Promise((resolve) => {
    const child = spawn(bin, command({}), { stdio: ['pipe', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => { stdout += d; });
    child.stderr.on('data', (d) => { stderr += d; });
    child.on('close', (status) => resolve(result(status, stdout, stderr, {})));
    child.stdin.end(sql);
  });
}

// Many queries without parameters, `jobs` lqe processes at a time; results in order.
async function translateAll(sqls, jobs = 4) {
  const out = new Array(sqls.length);
  let next = 0;
  const worker = async () => {
    while (next < sqls.length) {
      const i = next++;
      out[i] = await translateAsync(sqls[i]);
    }
  };
  await Promise.all(Array.from({ length: jobs }, worker));
  return out;
}

module.exports = { translate, translateAll };
