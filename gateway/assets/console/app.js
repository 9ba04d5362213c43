// The console's entry: sign-in, and the router between the Logs and Endpoints pages
// (#/logs, #/endpoints[/name]).
import { apiKey, setApiKey, clearApiKey, getJson, errorOf } from './api.js';
import { showLogs, stopLogs } from './logs.js';
import { showEndpoints } from './endpoints.js';

const $ = (id) => document.getElementById(id);
const VIEWS = ['signin-view', 'logs-view', 'endpoints-view'];

function showView(id) {
  for (const v of VIEWS) $(v).hidden = v !== id;
  $('sign-out').hidden = id === 'signin-view';
  $('nav-logs').toggleAttribute('aria-current', id === 'logs-view');
  $('nav-endpoints').toggleAttribute('aria-current', id === 'endpoints-view');
  if (id === 'logs-view') $('nav-logs').setAttribute('aria-current', 'page');
  if (id === 'endpoints-view') $('nav-endpoints').setAttribute('aria-current', 'page');
}

function route() {
  if (!apiKey()) {
    showView('signin-view');
    $('api-key').focus();
    return;
  }
  const hash = location.hash || '#/logs';
  if (hash.startsWith('#/endpoints')) {
    stopLogs();
    showView('endpoints-view');
    const name = decodeURIComponent(hash.slice('#/endpoints/'.length));
    showEndpoints(hash.startsWith('#/endpoints/') ? name : '');
  } else {
    showView('logs-view');
    showLogs();
  }
}

// A key is checked against the OpenAPI document, which every valid key may read.
async function signIn(event) {
  event.preventDefault();
  const key = $('api-key').value.trim();
  if (!key) return;
  setApiKey(key);
  const answer = await getJson('/api/openapi');
  if (answer.status === 401 || answer.status === 403) {
    clearApiKey();
    $('signin-error').textContent = 'This API key was refused: ' + errorOf(answer).message;
    return;
  }
  $('signin-error').textContent = '';
  $('api-key').value = '';
  route();
}

$('signin-form').addEventListener('submit', signIn);
$('sign-out').addEventListener('click', () => {
  stopLogs();
  clearApiKey();
  location.hash = '';
  location.reload();
});
window.addEventListener('hashchange', route);
route();
