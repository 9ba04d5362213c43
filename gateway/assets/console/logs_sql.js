// The Logs page's SQL mode: a BigQuery-dialect query run in the sandbox of the logs.all endpoint
// (it may read that endpoint's source CTEs, edge_logs and the others), over the page's time range
// and a project; the rows replace the chart, events and top values.
import { getJson, showError, el, resultTable } from './api.js';

const $ = (id) => document.getElementById(id);
export const SQL_ENDPOINT = '/api/endpoints/query/logs.all';

export function sqlMode() {
  return $('language').value === 'sql';
}

// Shows the inputs and results of the chosen language; the live tail follows LQL only.
export function showLanguage() {
  const sql = sqlMode();
  $('lql-field').hidden = sql;
  $('sql-box').hidden = !sql;
  $('sql-view').hidden = !sql;
  for (const node of document.querySelectorAll('[data-lql-only]')) node.hidden = sql;
  $('tail-toggle').disabled = sql;
}

// Runs the SQL over [start, end); `current()` is false once a newer search started.
export async function searchSql({ start, end }, setStatus, current) {
  const params = {
    sql: $('sql').value,
    project: $('sql-project').value.trim(),
    iso_timestamp_start: start.toISOString(),
    iso_timestamp_end: end.toISOString(),
  };
  setStatus('Running…');
  const answer = await getJson(SQL_ENDPOINT, params);
  if (!current()) return;
  const out = $('sql-result');
  if (!answer.ok) {
    out.replaceChildren();
    setStatus('');
    showError($('search-error'), answer, { sql: params.sql, project: params.project });
    return;
  }
  const rows = Array.isArray(answer.body.result) ? answer.body.result : [];
  const truncated = answer.headers.get('X-Result-Truncated') === 'true';
  out.replaceChildren(rows.length ? resultTable(rows) : el('p', { class: 'muted', text: 'No rows.' }));
  out.dataset.rows = String(rows.length);
  setStatus(`${rows.length} row${rows.length === 1 ? '' : 's'}${truncated ? ' (cut at the endpoint\'s max_rows)' : ''} (${Math.round(answer.ms)} ms)`);
}
