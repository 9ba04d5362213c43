'use strict';
// lqe's field catalogue (path, bq_type, mode rows for one source) as a BigQuery table schema for
// the reference evaluator: every RECORD is REPEATED (as in Logflare's BigQuery tables), so
// `metadata` is ARRAY<STRUCT<...>>; and the NDJSON events converted to rows of that schema.

const SCALAR_KINDS = {
  STRING: 'TYPE_STRING',
  INT64: 'TYPE_INT64',
  FLOAT64: 'TYPE_DOUBLE',
  BOOL: 'TYPE_BOOL',
  TIMESTAMP: 'TYPE_TIMESTAMP',
};

// rows: [{path, type, mode}] -> tree {name, type, mode, children: Map}
function buildTree(rows) {
  const root = { name: '', type: 'RECORD', mode: 'NULLABLE', children: new Map() };
  const sorted = [...rows].sort((a, b) => a.path.split('.').length - b.path.split('.').length);
  for (const row of sorted) {
    const parts = row.path.split('.');
    let node = root;
    for (const part of parts.slice(0, -1)) {
      if (!node.children.has(part)) throw new Error(`catalogue: ${row.path} has no parent record`);
      node = node.children.get(part);
    }
    node.children.set(parts[parts.length - 1], { name: parts[parts.length - 1], type: row.type, mode: row.mode, children: new Map() });
  }
  return root;
}

function isRepeated(node) {
  return node.type === 'RECORD' || node.mode === 'REPEATED';
}

function elementType(node) {
  if (node.type === 'RECORD') {
    return {
      type_kind: 'TYPE_STRUCT',
      struct_type: { field: [...node.children.values()].map((c) => ({ field_name: c.name, field_type: zetaType(c) })) },
    };
  }
  const kind = SCALAR_KINDS[node.type];
  if (!kind) throw new Error(`catalogue: no reference type for ${node.type}`);
  return { type_kind: kind };
}

function zetaType(node) {
  const element = elementType(node);
  return isRepeated(node) ? { type_kind: 'TYPE_ARRAY', array_type: { element_type: element } } : element;
}

function microsToTimestamp(us) {
  const big = BigInt(us);
  let seconds = big / 1000000n;
  let micros = big % 1000000n;
  if (micros < 0n) { micros += 1000000n; seconds -= 1n; }
  return { timestamp_value: { seconds: seconds.toString(), nanos: Number(micros) * 1000 } };
}

// ISO 8601 in UTC as the fixtures and PostgreSQL's JSON (TimeZone UTC) write it: a date, or a
// date and time with up to six fraction digits and Z or +00[:00].
function isoToMicros(iso) {
  const m = /^(\d{4}-\d\d-\d\d)(?:[T ](\d\d:\d\d:\d\d)(?:\.(\d{1,6}))?)?(Z|\+00(?::?00)?)?$/.exec(iso);
  if (!m || (m[2] && !m[4])) throw new Error(`timestamp must be ISO 8601 UTC: ${iso}`);
  const ms = Date.parse(`${m[1]}T${m[2] || '00:00:00'}Z`);
  return (BigInt(ms) * 1000n + BigInt((m[3] || '').padEnd(6, '0') || '0')).toString();
}

// One JSON value (as parsed losslessly: integers kept as strings by the caller) -> ValueProto.
function scalarValue(node, v) {
  if (v === null || v === undefined) return {};
  switch (node.type) {
    case 'STRING': return { string_value: String(v) };
    case 'INT64': return { int64_value: String(v) };
    case 'FLOAT64': return { double_value: Number(v) };
    case 'BOOL': return { bool_value: Boolean(v) };
    case 'TIMESTAMP': return microsToTimestamp(isoToMicros(v));
    default: throw new Error(`catalogue: no reference value for ${node.type}`);
  }
}

function structValue(node, obj) {
  return { struct_value: { field: [...node.children.values()].map((c) => fieldValue(c, obj ? obj[c.name] : undefined)) } };
}

function fieldValue(node, v) {
  if (!isRepeated(node)) return scalarValue(node, v);
  // A missing repeated field is an empty array in BigQuery; an object is a one-element record.
  const items = v === null || v === undefined ? [] : Array.isArray(v) ? v : [v];
  const element = node.type === 'RECORD' ? (x) => structValue(node, x) : (x) => scalarValue(node, x);
  return { array_value: { element: items.map(element) } };
}

// The sandbox CTE's columns: timestamp, id, event_message, metadata (as lqe's stored query reads).
const CTE_COLUMNS = ['timestamp', 'id', 'event_message', 'metadata'];

function tableProto(name, tree) {
  return {
    name,
    column: CTE_COLUMNS.map((c) => ({ name: c, type: zetaType(tree.children.get(c)) })),
  };
}

function tableRows(tree, events) {
  return events.map((e) => ({ cell: CTE_COLUMNS.map((c) => fieldValue(tree.children.get(c), e[c])) }));
}

// A whole table as lqe's catalogue describes it (every top-level column; a RECORD without
// fields, which no query can read a field of, is left out) and its rows.
function storedColumns(tree) {
  return [...tree.children.values()].filter((c) => c.type !== 'RECORD' || c.children.size > 0);
}

function storedTableProto(name, tree) {
  return { name, column: storedColumns(tree).map((c) => ({ name: c.name, type: zetaType(c) })) };
}

function storedTableRows(tree, rows) {
  const columns = storedColumns(tree);
  return rows.map((r) => ({ cell: columns.map((c) => fieldValue(c, r[c.name])) }));
}

// Parses NDJSON keeping integers beyond 2^53 exact (as strings).
function parseLossless(line) {
  return JSON.parse(line.replace(/([:\[,]\s*)(-?\d{16,})(?=\s*[,\]}])/g, '$1"$2"'));
}

module.exports = { buildTree, zetaType, tableProto, tableRows, storedTableProto, storedTableRows, parseLossless, CTE_COLUMNS };
