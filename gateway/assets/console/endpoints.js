// The Endpoints page, generated from the OpenAPI document of the endpoints this key may run
// (GET /api/endpoints/openapi.json; GET /api/openapi on a gateway without it): a form per
// endpoint from its typed parameters, its rows, and positioned errors with a caret.
import { getJson, showError, errorOf, el, resultTable } from './api.js';

const $ = (id) => document.getElementById(id);
const PREFIX = '/api/endpoints/query/';
let endpoints = null;

async function loadDocument() {
  let answer = await getJson('/api/endpoints/openapi.json');
  // An lqe without it: the whole document, whose endpoint paths are the same.
  if (!answer.ok && answer.status !== 401) answer = await getJson('/api/openapi');
  return answer;
}

function endpointsOf(doc) {
  const out = [];
  for (const [path, item] of Object.entries(doc.paths || {})) {
    if (!path.startsWith(PREFIX) || path.includes('{') || !item.get) continue;
    out.push({ name: decodeURIComponent(path.slice(PREFIX.length)), path, op: item.get });
  }
  return out.sort((a, b) => a.name.localeCompare(b.name));
}

function inputFor(p, id) {
  const schema = p.schema || {};
  const common = { id, name: p.name };
  if (Array.isArray(schema.enum)) {
    const options = schema.enum.map((v) => el('option', { value: String(v), text: String(v) }));
    if (!p.required) options.unshift(el('option', { value: '', text: '(not set)' }));
    const select = el('select', common, ...options);
    select.value = schema.default !== undefined ? String(schema.default) : p.required ? String(schema.enum[0]) : '';
    return select;
  }
  if (schema.type === 'boolean') {
    const select = el('select', common, el('option', { value: '', text: '(not set)' }),
      el('option', { value: 'true', text: 'true' }), el('option', { value: 'false', text: 'false' }));
    select.value = schema.default !== undefined ? String(schema.default) : '';
    return select;
  }
  if (p.name === 'sql' || p.name === 'lql') {
    return el('textarea', { ...common, spellcheck: false, rows: 4 });
  }
  const input = el('input', { ...common, spellcheck: false });
  if (schema.type === 'integer' || schema.type === 'number') {
    input.type = 'number';
    if (schema.type === 'number') input.step = 'any';
  } else {
    input.type = 'text';
  }
  if (schema.format === 'date-time') input.placeholder = '2026-01-02T03:04:05Z';
  if (schema.default !== undefined) input.value = String(schema.default);
  return input;
}

async function run(endpoint, form, out, errorBox) {
  const params = {};
  const texts = {};
  for (const field of form.querySelectorAll('input, select, textarea')) {
    if (field.value !== '') params[field.name] = field.value;
    texts[field.name] = field.value;
  }
  errorBox.hidden = true;
  out.replaceChildren(el('p', { class: 'status', text: 'Running…' }));
  const answer = await getJson(endpoint.path, params);
  if (!answer.ok) {
    out.replaceChildren();
    // "query" errors point into the stored query, which the console does not have.
    showError(errorBox, answer, texts);
    return;
  }
  const rows = Array.isArray(answer.body.result) ? answer.body.result : [];
  const cache = answer.headers.get('X-Cache');
  const truncated = answer.headers.get('X-Result-Truncated') === 'true';
  const summary = `${rows.length} row${rows.length === 1 ? '' : 's'}${truncated ? ' (cut at max_rows)' : ''}` +
    `${cache ? `, cache ${cache}` : ''}, ${Math.round(answer.ms)} ms`;
  out.replaceChildren(el('p', { class: 'status', id: 'endpoint-summary', text: summary }),
    rows.length ? el('div', { class: 'result' }, resultTable(rows)) : el('p', { class: 'muted', text: 'No rows.' }));
}

// The stored query as PostgreSQL runs it: the OpenAPI document carries it (x-lqe-postgres-sql)
// only for a key with the private scope.
function postgresSection(endpoint) {
  const sql = endpoint.op['x-lqe-postgres-sql'];
  if (typeof sql !== 'string') return null;
  return el('details', { class: 'postgres' }, el('summary', { text: 'PostgreSQL of the stored query' }),
    el('pre', { class: 'mono', id: 'endpoint-postgres', text: sql }));
}

function showEndpoint(endpoint) {
  for (const b of $('endpoint-list').querySelectorAll('button')) {
    b.setAttribute('aria-current', String(b.dataset.name === endpoint.name));
  }
  const detail = $('endpoint-detail');
  const parameters = endpoint.op.parameters || [];
  const form = el('form', { class: 'endpoint-form', 'aria-label': `Parameters of ${endpoint.name}` });
  const grid = el('div', { class: 'params' });
  parameters.forEach((p, i) => {
    const id = `param-${i}`;
    const schema = p.schema || {};
    const type = schema.enum ? 'enum' : schema.format || schema.type || 'string';
    grid.append(el('label', { for: id, text: `${p.name}${p.required ? ' *' : ''} (${type})` }), inputFor(p, id));
    if (p.description) grid.append(el('p', { class: 'hint', text: p.description }));
  });
  const errorBox = el('div', { class: 'error-box', role: 'alert', id: 'endpoint-error', hidden: true });
  const out = el('div', { id: 'endpoint-result' });
  form.append(parameters.length ? grid : el('p', { class: 'muted', text: 'No parameters.' }),
    el('button', { type: 'submit', id: 'run-endpoint', text: `Run ${endpoint.name}` }));
  form.addEventListener('submit', (e) => { e.preventDefault(); run(endpoint, form, out, errorBox); });
  detail.replaceChildren(el('h3', { text: endpoint.name }),
    endpoint.op.summary ? el('p', { class: 'muted', text: endpoint.op.summary }) : null,
    el('p', {}, el('code', { text: `GET ${endpoint.path}` })), postgresSection(endpoint), form,
    errorBox, out);
}

export async function showEndpoints(selected) {
  if (!endpoints) {
    $('endpoints-status').textContent = 'Loading…';
    const answer = await loadDocument();
    if (!answer.ok) {
      $('endpoints-status').textContent = 'The endpoints could not be listed: ' + errorOf(answer).message;
      return;
    }
    endpoints = endpointsOf(answer.body);
    $('endpoints-status').textContent = `${endpoints.length} endpoint${endpoints.length === 1 ? '' : 's'} this key may run`;
    $('endpoint-list').replaceChildren(...endpoints.map((e) => el('li', {},
      el('button', { type: 'button', dataset: { name: e.name }, text: e.name, onclick: () => { location.hash = '#/endpoints/' + encodeURIComponent(e.name); } }))));
  }
  const endpoint = endpoints.find((e) => e.name === selected) || endpoints[0];
  if (endpoint) showEndpoint(endpoint);
}
