// Calls to the gateway with the API key of this tab (session storage only, never in a URL).
const KEY = 'lqe.apiKey';

export function apiKey() { return sessionStorage.getItem(KEY) || ''; }
export function setApiKey(key) { sessionStorage.setItem(KEY, key); }
export function clearApiKey() { sessionStorage.removeItem(KEY); }

export function queryString(params) {
  const q = new URLSearchParams();
  for (const [name, value] of Object.entries(params)) {
    if (value !== undefined && value !== null && value !== '') q.set(name, String(value));
  }
  const text = q.toString();
  return text ? '?' + text : '';
}

// {ok, status, body (parsed JSON or text), headers, ms, url}. Never throws for HTTP errors.
export async function getJson(path, params = {}, { signal } = {}) {
  const url = path + queryString(params);
  const started = performance.now();
  let response;
  try {
    response = await fetch(url, { headers: { 'X-API-Key': apiKey(), Accept: 'application/json' }, signal });
  } catch (err) {
    if (err.name === 'AbortError') throw err;
    return { ok: false, status: 0, body: { error: { message: 'the gateway did not answer: ' + err.message } }, url, ms: 0, headers: new Headers() };
  }
  const text = await response.text();
  let body = text;
  try { body = JSON.parse(text); } catch { /* a non-JSON answer is shown as text */ }
  return { ok: response.ok, status: response.status, body, headers: response.headers, ms: performance.now() - started, url };
}

// The error of an answer as {message, reason, source, line, column, hint}: lqe's
// {"error": {...}} shape, Logflare's {"error": "...", "message": "..."}, or plain text.
export function errorOf(answer) {
  const body = answer.body;
  const e = body && typeof body === 'object' ? body.error : undefined;
  if (e && typeof e === 'object') return { ...e, message: e.message || String(answer.status) };
  if (typeof e === 'string') return { message: body.message ? e + ': ' + body.message : e };
  if (typeof body === 'string' && body) return { message: body };
  return { message: 'HTTP ' + answer.status };
}

// True when the gateway has no such route (an older lqe): the console then says what is missing.
export function isMissingRoute(answer) {
  const e = errorOf(answer);
  return answer.status === 404 && /^no route for/.test(e.message || '');
}

// Fills `box` with the error's message and, for a positioned translator error whose text is
// known, the offending line with a caret under the column.
export function showError(box, answer, texts = {}) {
  const e = errorOf(answer);
  box.replaceChildren();
  const message = document.createElement('p');
  message.className = 'message';
  message.textContent = e.message;
  box.append(message);
  const text = texts[e.source] ?? texts[e.parameter];
  if (text !== undefined && e.line > 0 && e.column > 0) {
    const line = String(text).split('\n')[e.line - 1] ?? '';
    const pre = document.createElement('pre');
    pre.className = 'positioned';
    const caret = document.createElement('span');
    caret.className = 'caret';
    caret.textContent = ' '.repeat(e.column - 1) + '^';
    pre.append(line + '\n', caret);
    box.append(pre);
  }
  box.hidden = false;
}

// document.createElement with attributes: `text` (textContent), `dataset`, `on<event>`
// (listeners), booleans and non-strings as properties, strings as attributes.
export const el = (tag, props = {}, ...children) => {
  const node = document.createElement(tag);
  for (const [name, value] of Object.entries(props)) {
    if (name === 'text') node.textContent = value;
    else if (name === 'dataset') Object.assign(node.dataset, value);
    else if (name.startsWith('on')) node.addEventListener(name.slice(2), value);
    else if (typeof value !== 'string') node[name] = value;
    else node.setAttribute(name, value);
  }
  node.append(...children.filter((c) => c !== undefined && c !== null));
  return node;
};

// Rows (objects) as a table whose columns are every key met, in order of appearance.
export function resultTable(rows) {
  const columns = [];
  for (const row of rows) for (const k of Object.keys(row)) if (!columns.includes(k)) columns.push(k);
  const cell = (v) => (v === null || v === undefined ? '' : typeof v === 'object' ? JSON.stringify(v) : String(v));
  return el('table', {},
    el('thead', {}, el('tr', {}, ...columns.map((c) => el('th', { scope: 'col', text: c })))),
    el('tbody', {}, ...rows.map((r) => el('tr', {}, ...columns.map((c) => el('td', { text: cell(r[c]) }))))));
}
