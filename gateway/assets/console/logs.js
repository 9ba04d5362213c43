// The Logs page: source, time range and LQL; the hits chart, the events table, top values of a
// field, and the live tail.
import { getJson, showError, isMissingRoute, errorOf, el } from './api.js';
import { renderHistogram } from './histogram.js';
import { startTail } from './tail.js';
import { loadSources } from './sources.js';
import { sqlMode, showLanguage, searchSql } from './logs_sql.js';

const $ = (id) => document.getElementById(id);
const RANGES = { '15m': 15 * 60e3, '1h': 3600e3, '24h': 86400e3, '7d': 7 * 86400e3 };
const MAX_ROWS = 500;  // rows kept in the table while tailing

let stopTail = null;
let tailKey = '';  // the source and LQL the running tail follows
let lastSearch = null;  // {source, lql, start, end} of the shown results
let searchSeq = 0;

// datetime-local value (local time) <-> Date
const toLocalInput = (d) => new Date(d.getTime() - d.getTimezoneOffset() * 60e3).toISOString().slice(0, 19);
const fromLocalInput = (v) => (v ? new Date(v) : null);

function currentRange() {
  const range = $('range').value;
  if (range !== 'custom') {
    const end = new Date();
    return { start: new Date(end.getTime() - RANGES[range]), end };
  }
  const start = fromLocalInput($('start').value);
  const end = fromLocalInput($('end').value) || new Date();
  return { start: start || new Date(end.getTime() - 3600e3), end };
}

function showCustom(show) {
  for (const node of document.querySelectorAll('[data-custom]')) node.hidden = !show;
}

function setStatus(text) { $('search-status').textContent = text; }
function setTailStatus(text) { $('tail-status').textContent = text; }

function eventRow(event, live) {
  const details = el('tr', { class: 'details', hidden: true });
  const json = JSON.stringify(event, null, 2);
  const copy = el('button', {
    type: 'button', class: 'plain', text: 'Copy as JSON',
    onclick: async () => {
      try { await navigator.clipboard.writeText(json); copy.textContent = 'Copied'; } catch { copy.textContent = 'Copy failed: select the text'; }
    },
  });
  details.append(el('td', { colspan: '3' }, el('pre', { class: 'mono', text: json }), copy));
  const toggle = el('button', {
    type: 'button', class: 'plain expand', 'aria-expanded': 'false', text: '▸',
    'aria-label': 'Show the event as JSON',
    onclick: () => {
      const open = details.hidden;
      details.hidden = !open;
      toggle.setAttribute('aria-expanded', String(open));
      toggle.textContent = open ? '▾' : '▸';
    },
  });
  const row = el('tr', { class: live ? 'event live' : 'event', dataset: { id: event.id ?? '' } },
    el('td', { class: 'time', text: (event.timestamp || '').replace('T', ' ').replace('Z', '') }),
    el('td', { class: 'message', text: event.event_message ?? '' }),
    el('td', {}, toggle));
  return [row, details];
}

function showEvents(events) {
  const body = $('events').tBodies[0];
  body.replaceChildren(...events.flatMap((e) => eventRow(e, false)));
  $('events-empty').hidden = events.length > 0;
}

function prependEvent(event) {
  const body = $('events').tBodies[0];
  body.prepend(...eventRow(event, true));
  while (body.rows.length > MAX_ROWS * 2) body.deleteRow(-1);
  $('events-empty').hidden = true;
}

async function loadHits(params, seq) {
  const svg = $('histogram');
  const answer = await getJson('/api/logs/hits', { ...params, buckets: 60 });
  if (seq !== searchSeq) return;
  svg.dataset.query = answer.url;
  if (!answer.ok) {
    svg.replaceChildren();
    $('histogram-total').textContent = isMissingRoute(answer)
      ? 'This gateway has no hits API (/api/logs/hits): the chart is not available.'
      : 'Chart: ' + errorOf(answer).message;
    return;
  }
  renderHistogram(svg, answer.body, (start, end) => {
    $('range').value = 'custom';
    showCustom(true);
    $('start').value = toLocalInput(start);
    $('end').value = toLocalInput(end);
    search();
  });
  svg.dataset.total = String(answer.body.total);
  $('histogram-total').textContent = `${answer.body.total} events, ${answer.body.bucket_seconds} s per bar`;
}

export async function loadFacets() {
  if (!lastSearch) return;
  const field = $('facet-field').value.trim();
  const list = $('facets');
  list.replaceChildren();
  if (!field) return;
  $('facets-status').textContent = 'Loading…';
  const answer = await getJson('/api/logs/facets', { ...lastSearch, field, limit: 10 });
  if (!answer.ok) {
    $('facets-status').textContent = isMissingRoute(answer)
      ? 'This gateway has no facets API (/api/logs/facets).'
      : errorOf(answer).message;
    return;
  }
  const values = answer.body.values || [];
  const max = Math.max(1, ...values.map((v) => v.count));
  for (const v of values) {
    const shown = v.value === null ? '(null)' : typeof v.value === 'object' ? JSON.stringify(v.value) : String(v.value);
    const meter = el('span', { class: 'meter' });
    meter.style.width = `${Math.round((v.count / max) * 100)}%`;
    const button = el('button', {
      type: 'button', class: 'facet', title: 'Filter on this value',
      onclick: () => {
        const name = field.startsWith('metadata.') ? 'm.' + field.slice(9) : field;
        const quoted = /[\s"]/.test(shown) ? JSON.stringify(shown) : shown;
        $('lql').value = ($('lql').value.trim() + ` ${name}:${quoted}`).trim();
        search();
      },
    }, el('span', { text: shown }), el('span', { class: 'count', text: String(v.count) }));
    list.append(el('li', {}, button, meter));
  }
  $('facets-status').textContent = values.length
    ? (answer.body.other ? `${answer.body.other} other` : '')
    : 'No values.';
}

export async function search() {
  const seq = ++searchSeq;
  const { start, end } = currentRange();
  $('search-error').hidden = true;
  if (sqlMode()) {
    await searchSql({ start, end }, setStatus, () => seq === searchSeq);
    return;
  }
  const params = { source: $('source').value, lql: $('lql').value.trim(), start: start.toISOString(), end: end.toISOString() };
  lastSearch = params;
  $('search-error').dataset.from = 'search';
  setStatus('Searching…');
  const hits = loadHits(params, seq);
  const answer = await getJson('/api/logs/events', { ...params, limit: 100 });
  if (seq !== searchSeq) return;
  if (!answer.ok) {
    showEvents([]);
    $('events-empty').hidden = true;
    if (isMissingRoute(answer)) {
      setStatus('');
      showError($('search-error'), { status: 404, body: { error: { message: 'This gateway has no search API (/api/logs/events); the live tail and the Endpoints page work.' } } });
    } else {
      setStatus('');
      showError($('search-error'), answer, { lql: params.lql });
    }
  } else {
    const events = answer.body.events || [];
    showEvents(events);
    setStatus(`${events.length} events shown, newest first (${Math.round(answer.ms)} ms)`);
  }
  await hits;
  loadFacets();
  // A changed filter or source restarts a running tail; an unchanged one keeps its stream.
  if (stopTail && tailKey !== JSON.stringify([params.source, params.lql])) restartTail();
}

function restartTail() {
  if (stopTail) stopTail();
  stopTail = null;
  if (!$('tail-toggle').checked) return;
  const params = { source: $('source').value, lql: $('lql').value.trim() };
  tailKey = JSON.stringify([params.source, params.lql]);
  setTailStatus(`Live tail of ${params.source}: connecting…`);
  const ended = (text) => {
    $('tail-toggle').checked = false;
    stopTail = null;
    setTailStatus(text);
  };
  stopTail = startTail(params, {
    onOpen: () => setTailStatus(`Live tail of ${params.source}: following new events`),
    onEvent: (event) => prependEvent(event),
    onDropped: (n) => setTailStatus(`Live tail: ${n} events dropped (the browser read too slowly)`),
    onError: (answer) => {
      ended('Live tail stopped');
      showError($('search-error'), answer, { lql: params.lql });
      $('search-error').dataset.from = 'tail';
    },
    onEnd: (reason) => {
      if ($('tail-toggle').checked) ended(`Live tail ended (${reason})`);
    },
  });
}

let initialised = false;
export async function showLogs() {
  if (initialised) return;
  initialised = true;
  const sources = await loadSources();
  $('source').replaceChildren(...sources.map((name) => el('option', { value: name, text: name })));
  $('range').addEventListener('change', () => {
    const custom = $('range').value === 'custom';
    showCustom(custom);
    if (custom && !$('start').value) {
      const { start, end } = { end: new Date(), start: new Date(Date.now() - 3600e3) };
      $('start').value = toLocalInput(start);
      $('end').value = toLocalInput(end);
    }
    if (!custom) search();
  });
  $('source').addEventListener('change', () => search());
  $('language').addEventListener('change', () => {
    if (sqlMode() && stopTail) stopLogs();
    showLanguage();
    search();
  });
  $('sql').addEventListener('keydown', (e) => {
    if (e.key === 'Enter' && (e.ctrlKey || e.metaKey)) {
      e.preventDefault();
      search();
    }
  });
  $('search-form').addEventListener('submit', (e) => { e.preventDefault(); search(); });
  $('facet-form').addEventListener('submit', (e) => { e.preventDefault(); loadFacets(); });
  $('tail-toggle').addEventListener('change', () => {
    // A tail's own error goes when the tail is toggled; the search's stays.
    if ($('search-error').dataset.from === 'tail') $('search-error').hidden = true;
    if ($('tail-toggle').checked) restartTail();
    else {
      if (stopTail) stopTail();
      stopTail = null;
      setTailStatus('Live tail stopped');
    }
  });
  showLanguage();
  search();
}

export function stopLogs() {
  if (stopTail) stopTail();
  stopTail = null;
  $('tail-toggle').checked = false;
  setTailStatus('');
}
