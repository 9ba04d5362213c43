'use strict';
// The stored endpoints as written: every endpoint definition under sql/ and examples/*/endpoints/
// with its .sql file unchanged, run with the sample parameter values of stored.yaml through the
// reference (the tables it reads, `logs.<table>`, declared with lqe's catalogue and filled with
// the rows lqe's PostgreSQL holds, internal rollup and trigram tables included) and through lqe
// (GET /api/endpoints/query/<name>?<params>). An endpoint without samples fails the suite.
const fs = require('fs');
const path = require('path');
const yaml = require('js-yaml');

function endpointFiles(root) {
  const files = [];
  const yamlIn = (dir) => (fs.existsSync(dir) ? fs.readdirSync(dir).filter((f) => /\.ya?ml$/.test(f)).sort().map((f) => path.join(dir, f)) : []);
  files.push(...yamlIn(path.join(root, 'sql')));
  const examples = path.join(root, 'examples');
  if (fs.existsSync(examples)) {
    for (const d of fs.readdirSync(examples).sort()) files.push(...yamlIn(path.join(examples, d, 'endpoints')));
  }
  return files;
}

// -> [{name, file, sql, params: {name: {type, required, default}}}]
// BigQuery-dialect endpoints only: ClickHouse ones (language: clickhouse) are judged by
// ClickHouse itself (tests/clickhouse), not by ZetaSQL.
function loadEndpoints(root) {
  const endpoints = [];
  for (const file of endpointFiles(root)) {
    const def = yaml.load(fs.readFileSync(file, 'utf8'));
    if (!def || !def.name) throw new Error(`${file}: no endpoint name`);
    if ((def.language || 'bigquery') !== 'bigquery') continue;
    const sql = def.query !== undefined ? def.query : fs.readFileSync(path.resolve(path.dirname(file), def.query_file), 'utf8');
    endpoints.push({ name: def.name, file: path.relative(root, file), sql, params: def.params || {} });
  }
  return endpoints;
}

// The tables a query names: `logs.<table>`.
function tablesRead(sql) {
  return [...new Set([...sql.matchAll(/`logs\.([A-Za-z0-9_]+)`/g)].map((m) => m[1]))].sort();
}

// lqe binds every declared parameter as a STRING (an integer, float or boolean one as its type):
// a sent value as sent, an absent one as its default or NULL.
const SQL_TYPE = { integer: 'TYPE_INT64', float: 'TYPE_DOUBLE', boolean: 'TYPE_BOOL' };

function referenceParams(endpoint, sent) {
  const types = [];
  const values = [];
  for (const [name, def] of Object.entries(endpoint.params)) {
    const kind = SQL_TYPE[def.type] || 'TYPE_STRING';
    types.push({ name, type: { type_kind: kind } });
    const raw = Object.prototype.hasOwnProperty.call(sent, name) ? String(sent[name]) : def.default;
    let value = {};
    if (raw !== undefined && raw !== null) {
      if (kind === 'TYPE_INT64') value = { int64_value: String(raw) };
      else if (kind === 'TYPE_DOUBLE') value = { double_value: Number(raw) };
      else if (kind === 'TYPE_BOOL') value = { bool_value: /^(true|1)$/i.test(String(raw)) };
      else value = { string_value: String(raw) };
    }
    values.push({ name, value });
  }
  return { types, values };
}

// -> [{id, endpoint, sql, sent, tables}] from stored.yaml ({endpoint: [{param: value}, ...]}).
function loadStoredCases(root, samplesFile) {
  const samples = yaml.load(fs.readFileSync(samplesFile, 'utf8')) || {};
  const endpoints = loadEndpoints(root);
  const cases = [];
  for (const e of endpoints) {
    const runs = samples[e.name];
    if (!Array.isArray(runs) || runs.length === 0) {
      throw new Error(`stored endpoint ${e.name} (${e.file}) has no sample parameters in ${path.basename(samplesFile)}`);
    }
    runs.forEach((sent, i) => {
      for (const name of Object.keys(sent || {})) {
        if (!e.params[name]) throw new Error(`${path.basename(samplesFile)}: ${e.name} declares no parameter ${name}`);
      }
      cases.push({
        id: `stored-${e.name}-${i + 1}`, file: e.file, endpoint: e, sql: e.sql.trim(), sent: sent || {},
        tables: tablesRead(e.sql), tags: [], expectError: false, expectRefused: false, expectExtension: false,
      });
    });
  }
  for (const name of Object.keys(samples)) {
    if (!endpoints.some((e) => e.name === name)) throw new Error(`${path.basename(samplesFile)}: no stored endpoint ${name}`);
  }
  return cases;
}

module.exports = { loadEndpoints, loadStoredCases, referenceParams, tablesRead };
