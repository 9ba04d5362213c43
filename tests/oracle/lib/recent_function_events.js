'use strict';
// Writes Edge Function events at times relative to now (NDJSON on stdout) for the windows of
// functions.req-stats, functions.resource-usage and functions.combined-stats (the last 15
// minutes to 7 days): invocations (function_edge: status codes of every class, execution times)
// or runtime events (function_events: log lines of every level and worker Shutdown events with
// CPU time and memory), for project_ref "oracle" and the functions fn1 and fn2. The offsets stay
// minutes away from the windows' edges and 20 seconds inside their minute, so the reference and
// lqe, which read the clock a moment apart, see the same events in the same buckets.
// Usage: node lib/recent_function_events.js function_edge|function_events
const MINUTES_AGO = [2, 5, 11, 26, 52, 130, 600, 1300, 4000, 9500];
const STATUSES = [200, 201, 302, 404, 500, 200, 429, 503];
const LEVELS = ['info', 'log', 'warn', 'warning', 'error', 'fatal', 'debug'];

const source = process.argv[2];
if (source !== 'function_edge' && source !== 'function_events') throw new Error(`unknown source ${source}`);
const minute = Math.floor(Date.now() / 60000) * 60000;
let n = 0;
MINUTES_AGO.forEach((ago, i) => {
  for (let k = 0; k < 4; ++k) {
    n += 1;
    const at = new Date(minute - ago * 60000 + 20000 + k * 1000).toISOString();
    const id = `20000000-0000-4000-8000-${String(n).padStart(12, '0')}`;
    const fn = k === 3 ? 'fn2' : 'fn1';
    let metadata;
    if (source === 'function_edge') {
      const status = STATUSES[(i + k) % STATUSES.length];
      metadata = { project_ref: 'oracle', function_id: fn, execution_time_ms: 5 + 7 * i + 3 * k, response: { status_code: status } };
    } else if (k === 2) {
      metadata = {
        project_ref: 'oracle', function_id: fn, event_type: 'Shutdown', level: 'log', cpu_time_used: 4 + i,
        memory_used: { heap: 1048576 * (1 + i), external: 524288 * (1 + k), total: 1048576 * (2 + i) },
      };
    } else {
      metadata = { project_ref: 'oracle', function_id: fn, event_type: 'Log', level: LEVELS[(i + k) % LEVELS.length] };
    }
    process.stdout.write(`${JSON.stringify({ id, timestamp: at, event_message: `event ${n}`, metadata })}\n`);
  }
});
