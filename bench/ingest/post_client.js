// HTTP ingest load client for bench/ingest/run.sh: posts the events of an NDJSON file to lqe
// from C concurrent keep-alive connections and prints one JSON line of figures.
//   node post_client.js URL KEY FILE --shape vector|pino [--concurrency 16] [--batch-bytes N]
//        [--batch-events N] [--rate BATCHES_PER_S] [--seconds S] [--gzip]
// vector: JSON arrays of at most --batch-bytes (default 1 MB), to /api/logs?source_name=...;
// pino:   {"batch":[...]} of --batch-events (default 100), to /logs?source_name=..., as
//         pino-logflare sends them.
// Without --rate every connection posts its next batch as soon as the last is answered, each
// batch once (all events of the file). With --rate the batches are sent on a fixed schedule
// (cycling over the file) for --seconds, and latency is measured from the scheduled start, so a
// slow answer that delays the next send is counted, not hidden.
'use strict';
const fs = require('fs');
const http = require('http');
const zlib = require('zlib');

function parseArgs(argv) {
  const opts = {concurrency: 16, batchBytes: 1000000, batchEvents: 100, rate: 0, seconds: 10,
                gzip: false};
  const positional = [];
  for (let i = 0; i < argv.length; ++i) {
    const a = argv[i];
    if (a === '--shape') opts.shape = argv[++i];
    else if (a === '--concurrency') opts.concurrency = Number(argv[++i]);
    else if (a === '--batch-bytes') opts.batchBytes = Number(argv[++i]);
    else if (a === '--batch-events') opts.batchEvents = Number(argv[++i]);
    else if (a === '--rate') opts.rate = Number(argv[++i]);
    else if (a === '--seconds') opts.seconds = Number(argv[++i]);
    else if (a === '--gzip') opts.gzip = true;
    else positional.push(a);
  }
  [opts.url, opts.key, opts.file, opts.source] = positional;
  opts.source = opts.source || 'cloudflare.logs.prod';
  return opts;
}

function buildBatches(opts) {
  const lines = fs.readFileSync(opts.file, 'utf8').split('\n').filter((l) => l !== '');
  const batches = [];
  let current = [];
  let bytes = 2;
  const flush = () => {
    if (current.length === 0) return;
    const json = opts.shape === 'pino' ? `{"batch":[${current.join(',')}]}`
                                        : `[${current.join(',')}]`;
    const raw = Buffer.from(json);
    batches.push({body: opts.gzip ? zlib.gzipSync(raw, {level: 1}) : raw,
                  events: current.length});
    current = [];
    bytes = 2;
  };
  for (const line of lines) {
    const full = opts.shape === 'pino' ? current.length >= opts.batchEvents
                                       : bytes + line.length + 1 > opts.batchBytes;
    if (full) flush();
    current.push(line);
    bytes += line.length + 1;
  }
  flush();
  return batches;
}

function percentile(sorted, p) {
  if (sorted.length === 0) return 0;
  return sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))];
}

async function main() {
  const opts = parseArgs(process.argv.slice(2));
  const batches = buildBatches(opts);
  const url = new URL(opts.url);
  const path = (opts.shape === 'pino' ? '/logs' : '/api/logs') +
               `?source_name=${encodeURIComponent(opts.source)}`;
  const agent = new http.Agent({keepAlive: true, maxSockets: opts.concurrency});
  const statuses = {};
  const latencies = [];
  let events = 0;
  let requests = 0;

  const post = (batch) => new Promise((resolve) => {
    const headers = {'Content-Type': 'application/json', 'x-api-key': opts.key,
                     'Content-Length': batch.body.length};
    if (opts.gzip) headers['Content-Encoding'] = 'gzip';
    const req = http.request({host: url.hostname, port: url.port, path, method: 'POST', agent,
                              headers}, (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode));
    });
    req.on('error', (e) => resolve(`error:${e.code || e.message}`));
    req.end(batch.body);
  });
  const record = (status, batch, started) => {
    statuses[status] = (statuses[status] || 0) + 1;
    latencies.push(Number(process.hrtime.bigint() - started) / 1e6);
    ++requests;
    if (status === 200) events += batch.events;
  };

  const t0 = process.hrtime.bigint();
  if (opts.rate > 0) {
    // Fixed schedule: batch k is due at t0 + k / rate; at most `concurrency` in flight.
    const total = Math.max(1, Math.round(opts.rate * opts.seconds));
    let next = 0;
    const worker = async () => {
      for (;;) {
        const k = next++;
        if (k >= total) return;
        const due = t0 + BigInt(Math.round((k / opts.rate) * 1e9));
        const wait = Number(due - process.hrtime.bigint()) / 1e6;
        if (wait > 0) await new Promise((r) => setTimeout(r, wait));
        const batch = batches[k % batches.length];
        record(await post(batch), batch, due);
      }
    };
    await Promise.all(Array.from({length: opts.concurrency}, worker));
  } else {
    let next = 0;
    const worker = async () => {
      for (;;) {
        const k = next++;
        if (k >= batches.length) return;
        const started = process.hrtime.bigint();
        record(await post(batches[k]), batches[k], started);
      }
    };
    await Promise.all(Array.from({length: opts.concurrency}, worker));
  }
  const seconds = Number(process.hrtime.bigint() - t0) / 1e9;
  latencies.sort((a, b) => a - b);
  const bodyBytes = batches.reduce((n, b) => n + b.body.length, 0) / batches.length;
  console.log(JSON.stringify({
    shape: opts.shape, concurrency: opts.concurrency, batches: batches.length,
    mean_body_bytes: Math.round(bodyBytes), requests, events, seconds: +seconds.toFixed(2),
    events_per_s: Math.round(events / seconds), statuses,
    latency_ms: {p50: +percentile(latencies, 0.5).toFixed(1),
                 p99: +percentile(latencies, 0.99).toFixed(1),
                 max: +percentile(latencies, 1).toFixed(1)},
  }));
  agent.destroy();
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
