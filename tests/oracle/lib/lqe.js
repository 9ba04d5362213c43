'use strict';
// Runs BigQuery through lqe end to end, against a running `lqe serve`: a caller's SQL in a POST
// body to the sandboxed test endpoint, or a stored endpoint with its parameters; the rendered
// JSON result back.
const http = require('http');

const agent = new http.Agent({ keepAlive: true, maxSockets: 4 });

// JSON.parse that keeps integers beyond 2^53 exact (as strings); only number tokens outside
// strings are touched.
function parseLossless(text) {
  let out = '';
  let i = 0;
  while (i < text.length) {
    const ch = text[i];
    if (ch === '"') {
      let j = i + 1;
      while (text[j] !== '"') j += text[j] === '\\' ? 2 : 1;
      out += text.slice(i, j + 1);
      i = j + 1;
    } else if (ch === '-' || (ch >= '0' && ch <= '9')) {
      const m = /^-?\d+(\.\d+)?([eE][+-]?\d+)?/.exec(text.slice(i, i + 64));
      const tok = m[0];
      out += !m[1] && !m[2] && tok.replace('-', '').length > 15 ? `"${tok}"` : tok;
      i += tok.length;
    } else {
      out += ch;
      i++;
    }
  }
  return JSON.parse(out);
}

// One request to lqe -> {ok, rows} or {ok: false, status, message}.
function request({ host, port, key }, method, urlPath, body) {
  return new Promise((resolve) => {
    const headers = { 'x-api-key': key };
    if (body !== undefined) {
      headers['content-type'] = 'application/json';
      headers['content-length'] = Buffer.byteLength(body);
    }
    const req = http.request({ host, port, agent, method, path: urlPath, headers }, (res) => {
      const chunks = [];
      res.on('data', (c) => chunks.push(c));
      res.on('end', () => {
        const text = Buffer.concat(chunks).toString('utf8');
        let json;
        try { json = parseLossless(text); } catch { json = null; }
        if (res.statusCode === 200 && json && Array.isArray(json.result)) {
          resolve({ ok: true, rows: json.result });
        } else {
          const message = json && json.error ? json.error.message : text.slice(0, 300);
          resolve({ ok: false, status: res.statusCode, message });
        }
      });
    });
    req.on('error', (e) => resolve({ ok: false, status: 0, message: `lqe unreachable: ${e.message}` }));
    req.end(body);
  });
}

// The caller's SQL against the sandboxed test endpoint.
function runLqe(target, sql) {
  return request(target, 'POST', `/api/endpoints/query/${encodeURIComponent(target.endpoint)}`, JSON.stringify({ sql }));
}

// A stored endpoint's own query with these parameters ({name: value}; absent ones not sent).
function runEndpoint(target, endpoint, params) {
  const query = new URLSearchParams(params).toString();
  return request(target, 'GET', `/api/endpoints/query/${encodeURIComponent(endpoint)}${query ? `?${query}` : ''}`);
}

module.exports = { runLqe, runEndpoint };
