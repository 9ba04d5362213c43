'use strict';
// Both engines' results into one canonical form, guided by the reference's column types:
// INT64 and TIMESTAMP (µs) as decimal strings, FLOAT64 as numbers (compared with a tolerance),
// DATE/DATETIME/TIME as BigQuery's JSON text, STRUCT as the list of its field values.

const pad = (n, w = 2) => String(n).padStart(w, '0');

function fraction(nanos) {
  if (!nanos) return '';
  return `.${pad(Math.floor(nanos / 1000), 6)}`.replace(/0+$/, '');
}

function dateFromDays(days) {
  const d = new Date(Number(days) * 86400000);
  return `${pad(d.getUTCFullYear(), 4)}-${pad(d.getUTCMonth() + 1)}-${pad(d.getUTCDate())}`;
}

// ZetaSQL's packed civil time: seconds 6 bits, minutes 6, hours 5, day 5, month 4, year 14.
function datetimeFromBits(bits, nanos) {
  let b = BigInt(bits);
  const take = (n) => { const v = Number(b & ((1n << BigInt(n)) - 1n)); b >>= BigInt(n); return v; };
  const s = take(6); const mi = take(6); const h = take(5); const d = take(5); const mo = take(4); const y = take(14);
  return `${pad(y, 4)}-${pad(mo)}-${pad(d)}T${pad(h)}:${pad(mi)}:${pad(s)}${fraction(nanos)}`;
}

function timeFromBits(bits, nanos) {
  let b = BigInt(bits);
  const take = (n) => { const v = Number(b & ((1n << BigInt(n)) - 1n)); b >>= BigInt(n); return v; };
  const s = take(6); const mi = take(6); const h = take(5);
  return `${pad(h)}:${pad(mi)}:${pad(s)}${fraction(nanos)}`;
}

// A TIME as the reference returns it at the top level: one int64, nanoseconds 30 bits, then
// seconds 6, minutes 6, hours 5.
function timeFromPackedNanos(packed) {
  const b = BigInt(packed);
  const nanos = Number(b & ((1n << 30n) - 1n));
  return timeFromBits((b >> 30n).toString(), nanos);
}

function timestampMicros(ts) {
  return (BigInt(ts.seconds || 0) * 1000000n + BigInt(Math.floor((ts.nanos || 0) / 1000))).toString();
}

class Unsupported extends Error {}

function fromReference(type, v) {
  // BigQuery translates a NULL ARRAY into an empty ARRAY in a query's result (NULL and [] are
  // distinct only inside the query); the reference evaluator returns the NULL itself.
  if (!v || !v.value) return type.type_kind === 'TYPE_ARRAY' ? [] : null;
  switch (type.type_kind) {
    case 'TYPE_INT64': case 'TYPE_INT32': case 'TYPE_UINT32': case 'TYPE_UINT64':
      return String(v[v.value]);
    case 'TYPE_DOUBLE': case 'TYPE_FLOAT': return Number(v[v.value]);
    case 'TYPE_STRING': return v.string_value;
    case 'TYPE_BOOL': return v.bool_value;
    case 'TYPE_BYTES': return Buffer.from(v.bytes_value).toString('base64');
    case 'TYPE_TIMESTAMP': return timestampMicros(v.timestamp_value);
    case 'TYPE_DATE': return dateFromDays(v.date_value);
    case 'TYPE_DATETIME': return datetimeFromBits(v.datetime_value.bit_field_datetime_seconds, v.datetime_value.nanos);
    case 'TYPE_TIME':
      return typeof v.time_value === 'object'
        ? timeFromBits(v.time_value.bit_field_time_seconds, v.time_value.nanos)
        : timeFromPackedNanos(v.time_value);
    case 'TYPE_JSON': return canonicalJson(v.json_value);
    case 'TYPE_ARRAY': return (v.array_value.element || []).map((e) => fromReference(type.array_type.element_type, e));
    case 'TYPE_STRUCT':
      return (v.struct_value.field || []).map((f, i) => fromReference(type.struct_type.field[i].field_type, f));
    default: throw new Unsupported(`result type ${type.type_kind} is not compared by the harness`);
  }
}

function canonicalJson(text) {
  try { return JSON.stringify(JSON.parse(text)); } catch { return text; }
}

// lqe's JSON value (big integers kept as strings by the caller) in the same canonical form.
function fromLqe(type, v) {
  if (v === null || v === undefined) return null;
  switch (type.type_kind) {
    case 'TYPE_INT64': case 'TYPE_INT32': case 'TYPE_UINT32': case 'TYPE_UINT64':
    case 'TYPE_TIMESTAMP':
      return typeof v === 'number' && Number.isInteger(v) ? BigInt(v).toString() : String(v);
    case 'TYPE_DOUBLE': case 'TYPE_FLOAT': return typeof v === 'string' ? Number(v) : v;
    case 'TYPE_JSON': return typeof v === 'string' ? canonicalJson(v) : JSON.stringify(v);
    case 'TYPE_ARRAY':
      return Array.isArray(v) ? v.map((e) => fromLqe(type.array_type.element_type, e)) : { notAnArray: v };
    case 'TYPE_STRUCT': {
      // lqe renders a record as an array of one record.
      const obj = Array.isArray(v) && v.length === 1 ? v[0] : v;
      if (obj === null || typeof obj !== 'object') return { notAStruct: v };
      // BigQuery renders every schema field (null, [] when REPEATED): a missing key differs.
      return type.struct_type.field.map((f) => (f.field_name in obj ? fromLqe(f.field_type, obj[f.field_name]) : { missingField: f.field_name }));
    }
    default: return v;
  }
}

function closeNumbers(a, b) {
  if (Number.isNaN(a) && Number.isNaN(b)) return true;
  if (a === b) return true;
  const scale = Math.max(1, Math.abs(a), Math.abs(b));
  return Math.abs(a - b) <= 1e-9 * scale;
}

function equalValues(a, b) {
  if (typeof a === 'number' && typeof b === 'number') return closeNumbers(a, b);
  if (Array.isArray(a) && Array.isArray(b)) return a.length === b.length && a.every((x, i) => equalValues(x, b[i]));
  if (a && b && typeof a === 'object' && typeof b === 'object') return JSON.stringify(a) === JSON.stringify(b);
  return a === b;
}

// Sort key that tolerates float noise below the comparison tolerance.
function sortKey(row) {
  return JSON.stringify(row, (k, v) => (typeof v === 'number' ? Number(v.toPrecision(10)) : v));
}

const byKey = (x, y) => (sortKey(x) < sortKey(y) ? -1 : sortKey(x) > sortKey(y) ? 1 : 0);

// -> null when equal, else the first difference (for a minimal reproducer).
function firstDifference(ref, got, ordered) {
  const a = ordered ? ref : [...ref].sort(byKey);
  const b = ordered ? got : [...got].sort(byKey);
  for (let i = 0; i < Math.max(a.length, b.length); i++) {
    if (i >= a.length || i >= b.length || !equalValues(a[i], b[i])) {
      return { row: i, reference: i < a.length ? a[i] : '(no row)', lqe: i < b.length ? b[i] : '(no row)', counts: [a.length, b.length] };
    }
  }
  return null;
}

// True when the statement's outermost query ends in ORDER BY (outside parentheses and literals).
function hasOuterOrderBy(sql) {
  const stripped = sql
    .replace(/--[^\n]*/g, ' ')
    .replace(/'(?:\\.|[^'\\])*'|"(?:\\.|[^"\\])*"|`[^`]*`/g, "''");
  let depth = 0;
  let outer = '';
  for (const ch of stripped) {
    if (ch === '(') depth++;
    else if (ch === ')') depth--;
    else if (depth === 0) outer += ch;
  }
  return /\border\s+by\b/i.test(outer);
}

module.exports = { fromReference, fromLqe, firstDifference, hasOuterOrderBy, Unsupported };
