'use strict';
// Case files (cases/*.sql): "-- case: <id>" starts a case; the lines after it up to the next case
// are its ClickHouse SQL, except "-- postgres: <sql>" lines, which give the PostgreSQL query over
// logs.otel the case is compared with (without one, lqe translates the ClickHouse SQL), and
// "-- params: {json}", the query's parameters, and "-- refused: <text>": lqe must refuse the
// query with a message containing <text> (ClickHouse is not asked). Other "--" lines are comments.
const fs = require('fs');
const path = require('path');

function load(dir) {
  const cases = [];
  for (const file of fs.readdirSync(dir).filter((f) => f.endsWith('.sql')).sort()) {
    let cur = null;
    const lines = fs.readFileSync(path.join(dir, file), 'utf8').split('\n');
    lines.forEach((line, i) => {
      const head = /^--\s*case:\s*(\S+)/.exec(line);
      if (head) {
        cur = { id: head[1], file, line: i + 1, sql: [], postgres: null, params: {}, refused: null };
        cases.push(cur);
        return;
      }
      if (!cur) return;
      const pg = /^--\s*postgres:\s*(.*)$/.exec(line);
      if (pg) { cur.postgres = (cur.postgres ? `${cur.postgres} ` : '') + pg[1]; return; }
      const refused = /^--\s*refused:\s*(.*)$/.exec(line);
      if (refused) { cur.refused = refused[1]; return; }
      const params = /^--\s*params:\s*(.*)$/.exec(line);
      if (params) { cur.params = JSON.parse(params[1]); return; }
      if (/^\s*--/.test(line) || line.trim() === '') return;
      cur.sql.push(line);
    });
  }
  for (const c of cases) c.sql = c.sql.join('\n').trim();
  return cases;
}

module.exports = { load };
