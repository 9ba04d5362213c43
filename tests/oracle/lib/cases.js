'use strict';
// The table-driven corpus: cases/*.sql, each case introduced by `-- case: <id>` and optional
// `-- expect: error` (both engines must refuse or raise) or `-- expect: refused` (lqe refuses
// by design with a 400 where BigQuery answers: a construct PostgreSQL cannot run with BigQuery's
// meaning) or `-- expect: extension` (lqe accepts by design what BigQuery's parser refuses, e.g.
// the doubled quote clients send; a valid BigQuery query never reads differently) lines, the SQL
// up to the next case.
const fs = require('fs');
const path = require('path');

function loadCorpus(dir) {
  const cases = [];
  for (const file of fs.readdirSync(dir).filter((f) => f.endsWith('.sql')).sort()) {
    let current = null;
    for (const line of fs.readFileSync(path.join(dir, file), 'utf8').split('\n')) {
      const head = /^-- case:\s*(\S+)\s*$/.exec(line);
      if (head) {
        if (current) cases.push(current);
        current = { id: head[1], file, sql: '', expectError: false, expectRefused: false, expectExtension: false, tags: [] };
      } else if (current && /^-- expect:\s*error\s*$/.test(line)) {
        current.expectError = true;
      } else if (current && /^-- expect:\s*refused\s*$/.test(line)) {
        current.expectRefused = true;
      } else if (current && /^-- expect:\s*extension\s*$/.test(line)) {
        current.expectExtension = true;
      } else if (current) {
        current.sql += `${line}\n`;
      }
    }
    if (current) cases.push(current);
  }
  for (const c of cases) c.sql = c.sql.trim();
  const seen = new Set();
  for (const c of cases) {
    if (!c.sql) throw new Error(`case ${c.id} has no SQL`);
    if (seen.has(c.id)) throw new Error(`case id ${c.id} is used twice`);
    seen.add(c.id);
  }
  return cases;
}

// KNOWN_MISMATCHES.md: lines `- case: <id> — why` and `- feature: <tag> — why` (a generated
// query carrying that tag). Listed mismatches are counted as known, never as passes.
function loadKnown(file) {
  const known = { cases: new Map(), features: new Map() };
  if (!fs.existsSync(file)) return known;
  for (const line of fs.readFileSync(file, 'utf8').split('\n')) {
    const m = /^- (case|feature): `?([^`\s]+)`?\s*(?:—|-)?\s*(.*)$/.exec(line);
    if (m) known[m[1] === 'case' ? 'cases' : 'features'].set(m[2], m[3]);
  }
  return known;
}

module.exports = { loadCorpus, loadKnown };
