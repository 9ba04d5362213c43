'use strict';
// Both engines' results to one comparable form: each cell a string (or null); instants as
// "YYYY-MM-DD HH:MM:SS.ffffff" UTC, maps and objects as JSON with sorted keys, booleans as
// ClickHouse writes the result type (true/false for Bool, 1/0 for UInt8).
const INSTANT = /^(\d{4}-\d{2}-\d{2})[T ](\d{2}:\d{2}:\d{2})(?:\.(\d{1,9}))?(?:Z|[+-]00(?::?00)?)?$/;

function canonical(v) {
  if (v === null || typeof v !== 'object') return v;
  if (Array.isArray(v)) return v.map(canonical);
  const out = {};
  for (const k of Object.keys(v).sort()) out[k] = canonical(v[k]);
  return out;
}

function cell(v, chType) {
  if (v === null || v === undefined) return null;
  if (typeof v === 'boolean') {
    if (chType && /^((Nullable|LowCardinality)\()*U?Int/.test(chType)) return v ? '1' : '0';
    return v ? 'true' : 'false';
  }
  if (typeof v === 'object') return JSON.stringify(canonical(v));
  if (typeof v === 'number') return String(v);
  const m = INSTANT.exec(v);
  if (m) return `${m[1]} ${m[2]}.${(m[3] || '').padEnd(6, '0').slice(0, 6)}`;
  // ClickHouse quotes 64-bit integers (and may write floats as strings); numbers compare as text.
  if (chType && /Int|Float|Decimal/.test(chType) && /^-?\d+(\.\d+)?(e[+-]?\d+)?$/i.test(v)) return String(Number(v));
  return v;
}

// rows: arrays of values; types: ClickHouse types per column (or null). -> arrays of strings.
function rows(values, types, ordered) {
  const out = values.map((r) => r.map((v, i) => cell(v, types ? types[i] : null)));
  if (!ordered) out.sort((a, b) => (JSON.stringify(a) < JSON.stringify(b) ? -1 : JSON.stringify(a) > JSON.stringify(b) ? 1 : 0));
  return out;
}

module.exports = { rows, cell };
