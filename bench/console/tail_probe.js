// Live-tail latency probe for bench/console/tail_latency.sh: follows an NDJSON tail of SOURCE
// filtered to its own marker, posts one marker event every INTERVAL ms for SECONDS, and prints
// one JSON line: markers posted and seen, and the post-to-arrival latency's p50, p99 and max.
//   node tail_probe.js URL KEY SOURCE [--seconds 20] [--interval 100]
'use strict';
const http = require('http');

const [url, key, source, ...rest] = process.argv.slice(2);
const opt = (name, fallback) => {
  const i = rest.indexOf(name);
  return i >= 0 ? Number(rest[i + 1]) : fallback;
};
const seconds = opt('--seconds', 20);
const interval = opt('--interval', 100);
const tag = `probe${process.pid}x${Date.now()}`;
const sentAt = new Map();
const latencies = [];
const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });

function post(n) {
  const body = JSON.stringify([{ message: `${tag} ${n}`, metadata: { probe: true } }]);
  sentAt.set(`${tag} ${n}`, process.hrtime.bigint());
  const req = http.request(`${url}/api/logs?source_name=${encodeURIComponent(source)}`, {
    method: 'POST', agent,
    headers: { 'X-API-Key': key, 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(body) },
  }, (res) => {
    if (res.statusCode !== 200) console.error(`post ${n}: HTTP ${res.statusCode}`);
    res.resume();
  });
  req.on('error', (e) => console.error(`post ${n}: ${e.message}`));
  req.end(body);
}

function percentile(sorted, p) {
  return sorted.length ? sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] : null;
}

function finish(tail) {
  tail.destroy();
  agent.destroy();
  const sorted = [...latencies].sort((a, b) => a - b);
  const round = (v) => (v === null ? null : Math.round(v * 10) / 10);
  console.log(JSON.stringify({
    posted: sentAt.size, seen: latencies.length,
    p50_ms: round(percentile(sorted, 50)), p99_ms: round(percentile(sorted, 99)), max_ms: round(sorted.at(-1) ?? null),
  }));
  process.exit(latencies.length === sentAt.size ? 0 : 1);
}

const lql = encodeURIComponent(tag);
const tail = http.get(`${url}/api/logs/tail?source=${encodeURIComponent(source)}&lql=${lql}`,
  { headers: { 'X-API-Key': key, Accept: 'application/x-ndjson' } }, (res) => {
    if (res.statusCode !== 200) {
      console.error(`tail: HTTP ${res.statusCode}`);
      process.exit(1);
    }
    let buffer = '';
    res.setEncoding('utf8');
    res.on('data', (chunk) => {
      buffer += chunk;
      let nl;
      while ((nl = buffer.indexOf('\n')) >= 0) {
        const line = buffer.slice(0, nl);
        buffer = buffer.slice(nl + 1);
        if (!line) continue;
        const message = JSON.parse(line);
        if (message.type !== 'event') continue;
        const start = sentAt.get(message.data.event_message);
        if (start !== undefined) latencies.push(Number(process.hrtime.bigint() - start) / 1e6);
      }
    });
    // The tail is open: post markers on a fixed schedule, then wait a second for the last.
    let n = 0;
    const timer = setInterval(() => post(n++), interval);
    setTimeout(() => {
      clearInterval(timer);
      setTimeout(() => finish(tail), 1000);
    }, seconds * 1000);
  });
tail.on('error', (e) => {
  console.error(`tail: ${e.message}`);
  process.exit(1);
});
