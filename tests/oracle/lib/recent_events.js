'use strict';
// Writes the edge fixture's events again, at times relative to now (NDJSON on stdout), under the
// project "oracle-recent" with ids of their own: the windows of usage.api-counts (the last hour,
// day or 7 days) read them. The offsets stay minutes away from those windows' edges, so the
// reference and lqe, which read the clock a moment apart, see the same events.
// Usage: node lib/recent_events.js <edge.ndjson>
const fs = require('fs');

const MINUTES_AGO = [3, 11, 17, 26, 33, 47, 52, 75, 130, 600, 1300, 2000, 4000, 9500, 12000];

const now = Math.floor(Date.now() / 1000) * 1000;
const lines = fs.readFileSync(process.argv[2], 'utf8').split('\n').filter(Boolean);
lines.forEach((line, i) => {
  const at = new Date(now - MINUTES_AGO[i % MINUTES_AGO.length] * 60000 - 7000 - i * 1000);
  // The three top-level fields rewritten in the text: the rest (integers beyond 2^53) as written.
  const out = line
    .replace(/^\{"id":"[^"]*"/, `{"id":"10000000-0000-4000-8000-${String(i + 1).padStart(12, '0')}"`)
    .replace(/,"timestamp":"[^"]*"/, `,"timestamp":"${at.toISOString().replace('.000Z', 'Z')}"`)
    .replace(/,"project":"oracle"/, ',"project":"oracle-recent"');
  if (!out.includes('"oracle-recent"') || out === line) throw new Error(`unexpected fixture line: ${line.slice(0, 80)}`);
  process.stdout.write(`${out}\n`);
});
