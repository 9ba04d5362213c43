'use strict';
// The oracle suite: every case runs through the ZetaSQL reference evaluator and through lqe, and
// the normalised results must be equal. Prints one line per failure with a reproducer and the
// summary `oracle: N passed, M failed, ...` (known mismatches listed in
// KNOWN_MISMATCHES.md are counted separately). Exit 1 on any unlisted mismatch.
//
// Environment (deploy/oracle.sh sets it): ORACLE_LQE_PORT, ORACLE_LQE_KEY, ORACLE_ENDPOINT,
// ORACLE_SOURCES ("source:cte ..."), ORACLE_DATA_DIR (per source: catalogue-<source>.tsv with
// path, bq_type, mode; rows-<source>.ndjson, the rows lqe stored), ORACLE_TABLES (the tables the
// stored endpoints read, each with catalogue-<table>.tsv and table-<table>.ndjson, its rows as
// lqe's PostgreSQL holds them), ORACLE_ROOT (the repository: the stored endpoints under sql/ and
// examples/, see lib/stored.js), ORACLE_SEED (random if unset), ORACLE_COUNT (generated queries,
// default 3000), ORACLE_FILTER (only case ids containing it), ORACLE_VERBOSE=1 (print known
// mismatches in full too).
const fs = require('fs');
const path = require('path');
const { ZetaSqlServer } = require('./lib/zetasql');
const catalogue = require('./lib/catalogue');
const { runLqe, runEndpoint } = require('./lib/lqe');
const norm = require('./lib/normalise');
const { loadCorpus, loadKnown } = require('./lib/cases');
const { generate } = require('./lib/generator');
const { loadStoredCases, referenceParams } = require('./lib/stored');

const env = (name, fallback) => {
  const v = process.env[name];
  if (v === undefined || v === '') {
    if (fallback === undefined) throw new Error(`${name} is not set`);
    return fallback;
  }
  return v;
};

function readCatalogue(file) {
  return fs.readFileSync(file, 'utf8').split('\n').filter(Boolean).map((l) => {
    const [p, type, mode] = l.split('\t');
    return { path: p, type, mode };
  });
}

async function referenceOptions(server) {
  const lang = await server.rpc('GetLanguageOptions', { maximum_features: true });
  lang.product_mode = 'PRODUCT_EXTERNAL';
  return { language_options: lang, default_timezone: 'UTC' };
}

async function runReference(server, options, catalogId, sql, params) {
  try {
    const request = { sql, options, registered_catalog_id: catalogId };
    if (params) {
      request.options = { ...options, query_parameters: params.types };
      request.params = params.values;
    }
    const r = await server.rpc('EvaluateQuery', request);
    return { ok: true, columns: r.prepared.columns || [], rows: (r.content.table_data.row || []).map((x) => x.cell || []) };
  } catch (e) {
    return { ok: false, code: e.code, message: e.details || e.message };
  }
}

const GRPC_UNIMPLEMENTED = 12;
// The reference's run-time errors (not its refusals at analysis).
const RUNTIME_ERROR = /out of range|overflow|division by zero/i;
const GRPC_INVALID_ARGUMENT = 3;

function referenceLacks(ref) {
  // "Function not found" for a function lqe's table has: this reference build lacks it.
  return !ref.ok && (ref.code === GRPC_UNIMPLEMENTED ||
    /Unsupported built-in function|not supported|unimplemented|optional function implementation|Function not found/i.test(ref.message));
}

// A difference by design (README "BigQuery fidelity"): PostgreSQL's planner replaces a strict
// operation with a NULL constant operand (`x > date_diff(NULL, NULL, month)`, `x + NULL`,
// `safe_cast('it''s' as int64) = x`) by NULL without evaluating the other operand, so an INT64
// overflow there is never raised; the reference evaluates every operand. Only for generated
// queries with overflowing INT64 arithmetic (feature int64_max_arith, or an INT64 extreme among
// the query's literals: seed 1233607482 overflowed on an UNNEST literal's 9223372036854775807)
// where the reference raises an overflow and lqe answers, and only when the query holds a NULL
// constant: the word NULL (not IS [NOT] NULL), or a SAFE_CAST of a literal that the reference
// itself evaluates to NULL.
const INT64_EXTREME = /\b922337203685477580[78]\b/;
async function foldedOperand(server, options, catalogId, c, ref, lqe) {
  if (c.file || ref.ok || !lqe.ok) return false;
  if (!c.tags.includes('int64_max_arith') && !INT64_EXTREME.test(c.sql)) return false;
  if (!/overflow/i.test(ref.message)) return false;
  if (/\bnull\b/i.test(c.sql.replace(/\bis\s+(not\s+)?null\b/gi, ''))) return true;
  for (const m of c.sql.matchAll(/safe_cast\(\s*'(?:[^'\\]|\\.)*'\s+as\s+\w+\s*\)/gi)) {
    const probe = await runReference(server, options, catalogId, `select (${m[0]}) is null as n`);
    if (probe.ok && probe.rows.length === 1 && probe.rows[0][0] && probe.rows[0][0].bool_value === true) return true;
  }
  return false;
}

// A difference by design (README "BigQuery fidelity"): the reference stops evaluating the inputs
// of LOGICAL_AND after the first FALSE (LOGICAL_OR: after the first TRUE), so an error in a later
// row's argument is not raised; which rows come first is not defined, and PostgreSQL evaluates
// every input. Confirmed per case, not assumed: the same query with LOGICAL_AND as MIN and
// LOGICAL_OR as MAX (equal over BOOL, without the short cut) must raise in the reference what lqe
// raises. -> the reference's error message, or null.
const SHORT_CUT_AGGREGATE = /\blogical_(and|or)\s*\(/gi;
async function shortCutError(server, options, catalogId, c, ref, lqe) {
  if (!ref.ok || lqe.ok || lqe.status !== 400 || !RUNTIME_ERROR.test(lqe.message)) return null;
  if (c.sql.search(SHORT_CUT_AGGREGATE) < 0) return null;  // search ignores the g flag's state
  const eager = c.sql.replace(SHORT_CUT_AGGREGATE, (_, kind) => (kind.toLowerCase() === 'and' ? 'min(' : 'max('));
  const again = await runReference(server, options, catalogId, eager);
  if (again.ok || (again.code === GRPC_INVALID_ARGUMENT && !RUNTIME_ERROR.test(again.message))) return null;
  return again.message;
}

// -> {verdict: 'pass'|'fail'|'unsupported'|'refused'|'extension'|'folded', why, ref, got}
function judge(c, ref, lqe) {
  if (referenceLacks(ref)) return { verdict: 'unsupported', why: ref.message };
  if (c.expectExtension) {
    // An lqe extension: the reference refuses the query at analysis, lqe answers.
    if (!ref.ok && ref.code === GRPC_INVALID_ARGUMENT && lqe.ok) return { verdict: 'extension', why: ref.message };
    return { verdict: 'fail', why: `case expects an lqe extension (reference refuses, lqe answers), got reference ${ref.ok ? 'rows' : ref.message}, lqe ${lqe.ok ? 'rows' : lqe.message}` };
  }
  if (c.expectRefused) {
    // Refused by design: lqe must refuse at translation (400 with its reason), never answer.
    if (!lqe.ok && lqe.status === 400) return { verdict: 'refused', why: lqe.message };
    return { verdict: 'fail', why: `case expects lqe to refuse by design, got ${lqe.ok ? `${lqe.rows.length} rows` : `${lqe.status}: ${lqe.message}`}` };
  }
  if (!ref.ok) {
    const analysis = ref.code === GRPC_INVALID_ARGUMENT && !RUNTIME_ERROR.test(ref.message);
    if (lqe.ok) return { verdict: 'fail', why: `reference ${analysis ? 'refuses' : 'raises'} (${ref.message}) but lqe returned ${lqe.rows.length} rows` };
    if (lqe.status >= 500) return { verdict: 'fail', why: `lqe answered ${lqe.status}: ${lqe.message}` };
    if (analysis && !c.expectError) return { verdict: 'fail', why: `reference refuses the case (not valid BigQuery?): ${ref.message}` };
    return { verdict: 'pass' };
  }
  if (!lqe.ok) return { verdict: 'fail', why: `lqe answered ${lqe.status}: ${lqe.message}` };
  if (c.expectError) return { verdict: 'fail', why: 'case expects an error but the reference returned rows' };
  // BigQuery rows are JSON objects: columns are matched by name; an anonymous column is named
  // f<k>_ (k counting anonymous columns), as BigQuery names it.
  let anonymous = 0;
  const names = ref.columns.map((col) => (col.name && !col.name.startsWith('$') ? col.name : `f${anonymous++}_`));
  if (lqe.rows.length > 0) {
    const got = Object.keys(lqe.rows[0]);
    const missing = names.filter((n) => !got.includes(n));
    if (missing.length || got.length !== names.length) {
      return { verdict: 'fail', why: `columns: reference ${JSON.stringify(names)}, lqe ${JSON.stringify(got)}` };
    }
  }
  let refRows;
  let gotRows;
  try {
    refRows = ref.rows.map((cells) => cells.map((v, i) => norm.fromReference(ref.columns[i].type, v)));
    gotRows = lqe.rows.map((row) => ref.columns.map((col, i) => norm.fromLqe(col.type, row[names[i]])));
  } catch (e) {
    if (e instanceof norm.Unsupported) return { verdict: 'unsupported', why: e.message };
    throw e;
  }
  const ordered = norm.hasOuterOrderBy(c.sql);
  const diff = norm.firstDifference(refRows, gotRows, ordered);
  if (diff) {
    const why = `rows differ (${diff.counts[0]} vs ${diff.counts[1]} rows${ordered ? ', ordered' : ', compared as multisets'}); first difference at row ${diff.row}: reference ${JSON.stringify(diff.reference)}, lqe ${JSON.stringify(diff.lqe)}`;
    return { verdict: 'fail', why, refRows, gotRows };
  }
  return { verdict: 'pass' };
}

function knownReason(known, c) {
  if (known.cases.has(c.id)) return known.cases.get(c.id);
  for (const tag of c.tags) if (known.features.has(tag)) return `feature ${tag}: ${known.features.get(tag)}`;
  return null;
}

function report(c, result, seed) {
  const where = c.endpoint ? `${c.file} with ${JSON.stringify(c.sent)}` : c.file ? `cases/${c.file}` : `seed ${seed}`;
  const lines = [`--- MISMATCH ${c.id} (${where}): ${result.why}`, c.sql];
  if (result.refRows && result.refRows.length + result.gotRows.length <= 10) {
    lines.push(`reference: ${JSON.stringify(result.refRows)}`);
    lines.push(`lqe:       ${JSON.stringify(result.gotRows)}`);
  }
  if (c.tags.length) lines.push(`features: ${c.tags.join(' ')}`);
  return lines.join('\n');
}

async function main() {
  const lqeTarget = { host: '127.0.0.1', port: Number(env('ORACLE_LQE_PORT')), key: env('ORACLE_LQE_KEY'), endpoint: env('ORACLE_ENDPOINT', 'oracle.edge') };
  const seed = Number(env('ORACLE_SEED', String(Math.floor(Math.random() * 2 ** 31))));
  const count = Number(env('ORACLE_COUNT', '3000'));
  const filter = env('ORACLE_FILTER', '');
  const verbose = env('ORACLE_VERBOSE', '') === '1';
  console.log(`oracle: seed ${seed} (ORACLE_SEED=${seed} reproduces the generated queries), ${count} generated queries`);

  const dataDir = env('ORACLE_DATA_DIR');
  const sources = env('ORACLE_SOURCES').split(/\s+/).filter(Boolean).map((pair) => {
    const [source, table] = pair.split(':');
    const tree = catalogue.buildTree(readCatalogue(path.join(dataDir, `catalogue-${source}.tsv`)));
    const events = fs.readFileSync(path.join(dataDir, `rows-${source}.ndjson`), 'utf8').split('\n').filter(Boolean).map(catalogue.parseLossless);
    return { source, table, tree, events };
  });
  const edge = sources.find((s) => s.table === 'edge_logs');
  if (!edge) throw new Error('ORACLE_SOURCES must include edge:edge_logs (the generator reads it)');

  const server = new ZetaSqlServer();
  await server.start();
  try {
    const options = await referenceOptions(server);
    const reg = await server.rpc('RegisterCatalog', {
      simple_catalog: {
        name: 'oracle',
        table: sources.map((s) => catalogue.tableProto(s.table, s.tree)),
        builtin_function_options: { language_options: options.language_options },
      },
      table_content: Object.fromEntries(sources.map((s) => [s.table, { table_data: { row: catalogue.tableRows(s.tree, s.events) } }])),
    });
    const catalogId = reg.registered_id;

    // The stored endpoints: their tables under their own names (`logs.edge`, ...).
    const stored = loadStoredCases(env('ORACLE_ROOT'), path.join(__dirname, 'stored.yaml'));
    const tables = env('ORACLE_TABLES').split(/\s+/).filter(Boolean).map((name) => {
      const tree = catalogue.buildTree(readCatalogue(path.join(dataDir, `catalogue-${name}.tsv`)));
      const rows = fs.readFileSync(path.join(dataDir, `table-${name}.ndjson`), 'utf8').split('\n').filter(Boolean).map(catalogue.parseLossless);
      return { name: `logs.${name}`, tree, rows };
    });
    for (const c of stored) {
      const missing = c.tables.filter((t) => !tables.some((x) => x.name === `logs.${t}`));
      if (missing.length) throw new Error(`${c.file} reads ${missing.join(', ')}, missing from ORACLE_TABLES`);
    }
    const storedReg = await server.rpc('RegisterCatalog', {
      simple_catalog: {
        name: 'stored',
        table: tables.map((t) => catalogue.storedTableProto(t.name, t.tree)),
        builtin_function_options: { language_options: options.language_options },
      },
      table_content: Object.fromEntries(tables.map((t) => [t.name, { table_data: { row: catalogue.storedTableRows(t.tree, t.rows) } }])),
    });
    const storedCatalogId = storedReg.registered_id;

    const cases = [...loadCorpus(path.join(__dirname, 'cases')), ...stored, ...generate(seed, count, edge.tree)]
      .filter((c) => !filter || c.id.includes(filter));
    const known = loadKnown(path.join(__dirname, 'KNOWN_MISMATCHES.md'));
    const tally = { pass: 0, fail: 0, known: 0, unsupported: 0, refused: 0, extension: 0, folded: 0, shortcut: 0 };
    const unsupported = [];
    const refused = [];
    const extensions = [];
    const folded = [];
    const shortcuts = [];
    const knownSeen = new Map();
    const storedRows = new Map();
    const started = Date.now();
    let next = 0;
    const worker = async () => {
      while (next < cases.length) {
        const c = cases[next++];
        const [ref, got] = c.endpoint
          ? await Promise.all([runReference(server, options, storedCatalogId, c.sql, referenceParams(c.endpoint, c.sent)), runEndpoint(lqeTarget, c.endpoint.name, c.sent)])
          : await Promise.all([runReference(server, options, catalogId, c.sql), runLqe(lqeTarget, c.sql)]);
        let result = judge(c, ref, got);
        if (c.endpoint) {
          const seen = storedRows.get(c.endpoint.name) || { runs: 0, rows: 0, empty: 0 };
          seen.runs++;
          seen.rows += ref.ok ? ref.rows.length : 0;
          if (!ref.ok || ref.rows.length === 0) seen.empty++;
          storedRows.set(c.endpoint.name, seen);
          if (verbose) console.log(`${c.id} ${JSON.stringify(c.sent)}: reference ${ref.ok ? `${ref.rows.length} rows` : ref.message}, lqe ${got.ok ? `${got.rows.length} rows` : got.message}`);
        }
        if (result.verdict === 'fail' && !c.endpoint) {
          const raised = await shortCutError(server, options, catalogId, c, ref, got);
          if (raised !== null) result = { verdict: 'shortcut', why: raised };
          else if (await foldedOperand(server, options, catalogId, c, ref, got)) result = { verdict: 'folded', why: ref.message };
        }
        if (result.verdict === 'fail') {
          const reason = knownReason(known, c);
          if (reason !== null) {
            tally.known++;
            knownSeen.set(c.id, reason);
            if (verbose) console.log(report(c, result, seed).replace('MISMATCH', 'KNOWN'));
            continue;
          }
        }
        tally[result.verdict]++;
        if (result.verdict === 'fail') console.log(report(c, result, seed));
        if (result.verdict === 'unsupported') unsupported.push(`${c.id}: ${result.why}`);
        if (result.verdict === 'refused') refused.push(`${c.id}: ${result.why}`);
        if (result.verdict === 'extension') extensions.push(`${c.id}: the reference refuses (${result.why})`);
        if (result.verdict === 'shortcut') shortcuts.push(`${c.id}: the reference skips the rest of a LOGICAL_AND/OR's inputs, which raise (${result.why}) when all are evaluated`);
        if (result.verdict === 'folded') folded.push(`${c.id}: the reference raises (${result.why}) in an operand next to a NULL constant`);
      }
    };
    await Promise.all([worker(), worker(), worker(), worker()]);

    for (const line of unsupported) console.log(`not supported by the reference: ${line}`);
    for (const line of refused) console.log(`refused by design: ${line}`);
    for (const line of extensions) console.log(`lqe extension: ${line}`);
    for (const line of folded) console.log(`folded by design: ${line}`);
    for (const line of shortcuts) console.log(`short-cut by design: ${line}`);
    const byReason = new Map();
    for (const reason of knownSeen.values()) {
      const key = reason.startsWith('feature ') ? reason.split(':')[0] : 'listed corpus cases';
      byReason.set(key, (byReason.get(key) || 0) + 1);
    }
    for (const [key, n] of byReason) console.log(`known mismatches: ${n} × ${key}`);
    const corpusKnown = [...known.cases.keys()].filter((id) => !knownSeen.has(id) && cases.some((c) => c.id === id));
    for (const id of corpusKnown) console.log(`note: ${id} is listed in KNOWN_MISMATCHES.md but now matches; remove it`);
    // A stored endpoint whose every sample answers no rows compares nothing: its samples miss the data.
    for (const [name, seen] of storedRows) {
      console.log(`stored endpoint ${name}: ${seen.runs} runs, ${seen.rows} rows compared (${seen.empty} runs empty)`);
      if (seen.rows === 0) {
        console.log(`--- MISMATCH stored endpoint ${name}: every sample in stored.yaml answers no rows`);
        tally.fail++;
      }
    }
    const endpoints = new Set(stored.map((c) => c.endpoint.name));
    console.log(`oracle: ${cases.length} cases in ${((Date.now() - started) / 1000).toFixed(1)} s, seed ${seed} (${cases.filter((c) => c.endpoint).length} of them the ${endpoints.size} stored endpoints as written)`);
    console.log(`oracle: ${tally.pass} passed, ${tally.fail} failed, ${tally.refused} refused-by-design, ${tally.extension} lqe-extensions, ${tally.unsupported} not-supported-by-reference, ${tally.folded} folded-by-design, ${tally.shortcut} short-cut-by-design, ${tally.known} known mismatches (KNOWN_MISMATCHES.md)`);
    process.exitCode = tally.fail > 0 ? 1 : 0;
  } finally {
    server.stop();
  }
}

main().catch((e) => {
  console.error(`oracle: ${e.stack || e.message}`);
  process.exit(2);
});
