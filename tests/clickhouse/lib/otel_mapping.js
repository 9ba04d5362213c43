'use strict';
// Logflare's default OTEL log mapping (its ClickHouse backend's MappingDefaults.for_log), written
// here in JavaScript from its documented paths, independently of lqe's SQL view (migration 019):
// an event as lqe stores it (id, timestamp, project, event_message, extra, metadata) -> one row of
// the ClickHouse `logs` table. "$.x" is a top-level key of the posted event: project, or a key of
// extra; "$.metadata.x" a key of metadata.

// lqe's table -> Studio's source name.
const SOURCE_NAMES = {
  edge: 'edge_logs',
  postgres: 'postgres_logs',
  function_edge: 'function_edge_logs',
  function_events: 'function_logs',
  auth: 'auth_logs',
  realtime: 'realtime_logs',
  storage: 'storage_logs',
  restapi: 'postgrest_logs',
  pooler: 'pgbouncer_logs',
};

// Where lqe (and logs.all) reads a source's project: the column, or a metadata key.
const PROJECT_IN_METADATA = {
  function_edge: 'project_ref',
  function_events: 'project_ref',
  realtime: 'project',
  storage: 'project',
};

const SEVERITY_NUMBER = {
  TRACE: 1, DEBUG: 5, INFO: 9, LOG: 9, NOTICE: 11, WARN: 13, WARNING: 13, ERROR: 17,
  FATAL: 21, CRITICAL: 21, EMERGENCY: 21, ALERT: 21, PANIC: 21,
};

// A JSON value as PostgreSQL's jsonb prints it ("[1, 2]", "{\"a\": 1}").
function jsonbText(v) {
  if (v === null) return 'null';
  if (Array.isArray(v)) return `[${v.map(jsonbText).join(', ')}]`;
  if (typeof v === 'object') {
    // jsonb orders keys by length, then bytewise.
    const keys = Object.keys(v).sort((a, b) =>
      Buffer.byteLength(a) - Buffer.byteLength(b) || Buffer.compare(Buffer.from(a), Buffer.from(b)));
    return `{${keys.map((k) => `${JSON.stringify(k)}: ${jsonbText(v[k])}`).join(', ')}}`;
  }
  return JSON.stringify(v);
}

// A scalar read as a String column reads it: a string as itself, anything else as its JSON text.
function asText(v) {
  if (v === undefined || v === null) return undefined;
  return typeof v === 'string' ? v : jsonbText(v);
}

// The value at a dotted path, undefined when absent.
function at(obj, path) {
  let cur = obj;
  for (const part of path.split('.')) {
    if (cur === null || typeof cur !== 'object' || Array.isArray(cur) || !(part in cur)) return undefined;
    cur = cur[part];
  }
  return cur;
}

// The first path present (not null), as text.
function firstOf(event, paths) {
  for (const p of paths) {
    const v = asText(at(event, p));
    if (v !== undefined) return v;
  }
  return undefined;
}

// Nested objects to dotted keys, scalars and arrays as text, null left out.
// A key reachable by more than one path (a key with a dot in it, {"a.b": 1} next to
// {"a": {"b": 2}}) keeps the value of the deepest path, then of the greatest path (keys compared
// bytewise, one by one): lqe's documented precedence (docs/clickhouse.md).
function comparePaths(a, b) {
  if (a.length !== b.length) return a.length - b.length;
  for (let i = 0; i < a.length; i++) {
    const c = Buffer.compare(Buffer.from(a[i]), Buffer.from(b[i]));
    if (c !== 0) return c;
  }
  return 0;
}

function flatten(obj, path = [], out = {}, paths = {}) {
  for (const [k, v] of Object.entries(obj)) {
    const p = [...path, k];
    if (v === null) continue;
    if (typeof v === 'object' && !Array.isArray(v)) {
      flatten(v, p, out, paths);
      continue;
    }
    const key = p.join('.');
    if (paths[key] === undefined || comparePaths(p, paths[key]) > 0) {
      out[key] = asText(v);
      paths[key] = p;
    }
  }
  return out;
}

// stored: {id, timestamp (ISO), project, event_message, extra, metadata}.
function toOtelRow(table, stored) {
  const extra = stored.extra || {};
  const metadata = stored.metadata || {};
  const project = PROJECT_IN_METADATA[table] ? asText(metadata[PROJECT_IN_METADATA[table]]) : stored.project;
  // The posted event's top level, as Logflare's paths see it.
  const event = { ...extra, metadata };
  if (stored.project !== null && stored.project !== undefined) event.project = stored.project;

  const raw = firstOf(event, ['severity_text', 'severityText', 'metadata.level', 'level',
    'metadata.parsed.error_severity']);
  const upper = raw === undefined ? undefined : raw.toUpperCase();
  const severityText = upper !== undefined && upper in SEVERITY_NUMBER ? upper : 'INFO';

  // metadata's keys win over top-level ones; project comes first, under both.
  const merged = { ...(project !== undefined && project !== null ? { project } : {}), ...extra, ...metadata };

  const pick = (paths) => firstOf({ ...event, project }, paths);
  const resource = {};
  const picks = {
    application_id: ['app_id', 'application_id', 'metadata.app_id'],
    application_name: ['metadata.context.application', 'app_name', 'application_name',
      'metadata.app_name', 'metadata.parsed.application_name'],
    cluster: ['metadata.cluster', 'cluster', 'resource.cluster'],
    host: ['metadata.host', 'metadata.context.host', 'host'],
    instance_id: ['metadata.instance_id'],
    machine_id: ['machine_id'],
    node: ['metadata.context.vm.node', 'resource.node'],
    organization_id: ['organization_id', 'org_id'],
    organization_slug: ['organization_slug'],
    project: ['project', 'project_ref', 'project_id', 'metadata.project', 'metadata.tenant',
      'metadata.tenantId'],
    region: ['metadata.region', 'region'],
    service_name: ['resource.service.name', 'service_name'],
    vector_file: ['metadata.vector_file'],
    vector_host: ['metadata.vector_host'],
  };
  for (const [k, paths] of Object.entries(picks)) {
    const v = pick(paths);
    if (v !== undefined) resource[k] = v;
  }

  return {
    id: stored.id,
    timestamp: stored.timestamp,
    project: project === undefined || project === null ? '' : project,
    source: SOURCE_NAMES[table],
    event_message: stored.event_message === null ? '' : stored.event_message,
    severity_text: severityText,
    severity_number: SEVERITY_NUMBER[severityText],
    service_name: firstOf(event, ['resource.service.name', 'service_name', 'resource.name',
      'metadata.context.application', 'metadata.context.service', 'SYSLOG_IDENTIFIER',
      '_SYSTEMD_UNIT']) ?? '',
    trace_id: firstOf(event, ['trace_id', 'traceId', 'otel_trace_id', 'metadata.otel_trace_id']) ?? '',
    span_id: firstOf(event, ['span_id', 'spanId', 'otel_span_id', 'metadata.otel_span_id']) ?? '',
    scope_name: firstOf(event, ['scope.name', 'metadata.context.module',
      'metadata.context.application', 'instrumentation_library.name', 'metadata.namespace',
      'metadata.module_path']) ?? '',
    log_attributes: flatten(merged),
    resource_attributes: resource,
  };
}

// The ClickHouse table of Logflare's OTEL log shape (the columns lqe's relation has).
const CREATE_TABLE = `CREATE TABLE logs (
  id String,
  timestamp DateTime64(6, 'UTC'),
  project String,
  source LowCardinality(String),
  event_message String,
  severity_text LowCardinality(String),
  severity_number UInt8,
  service_name String,
  trace_id String,
  span_id String,
  scope_name String,
  log_attributes Map(String, String),
  resource_attributes Map(String, String)
) ENGINE = MergeTree ORDER BY (source, timestamp)`;

module.exports = { SOURCE_NAMES, toOtelRow, flatten, jsonbText, CREATE_TABLE };
