// Logs lines with pino through the unmodified pino-logflare transport, pointed at lqe.
// Usage: node pino_client.js BASE_URL API_KEY SOURCE_NAME COUNT RUN_ID  (ends when stdin closes)
// Each line carries its index and RUN_ID so the test can find it again through logs.all; every
// tenth line is logged at warn and one extra line carries an Error. Exits 1 when the transport
// reported a failed POST (pino-logflare calls onError for any non-2xx answer or network error).
'use strict';
const fs = require('fs');
const os = require('os');
const path = require('path');
const pino = require('pino');

const [baseUrl, apiKey, sourceName, countText, runId] = process.argv.slice(2);
if (!runId) {
  console.error('usage: node pino_client.js BASE_URL API_KEY SOURCE_NAME COUNT RUN_ID');
  process.exit(2);
}
const count = Number(countText);
// onError runs in the transport's worker thread, so it is named by module and method; it writes
// each failure to this file, read back after the transport has closed.
const errorFile = path.join(os.tmpdir(), `pino-logflare-errors-${process.pid}.txt`);
process.env.LQE_PINO_ERROR_FILE = errorFile;

const transport = pino.transport({
  target: 'pino-logflare',
  options: {
    apiKey,
    sourceName,
    apiBaseUrl: baseUrl,
    // Batches go out when full (the line count is a multiple of 10). The timer would send a
    // partial batch while new lines join the same array, which pino-logflare then posts again.
    batchSize: 10,
    batchTimeout: 60000,
    onError: {module: path.join(__dirname, 'pino_on_error.js'), method: 'report'},
  },
});
const logger = pino(transport).child({project_ref: 'default', run_id: runId});

for (let i = 0; i < count; ++i) {
  const fields = {line: i, user: {id: `u-${i}`, admin: i % 2 === 0}};
  if (i % 10 === 9) {
    logger.warn(fields, `pino line ${i}`);
  } else {
    logger.info(fields, `pino line ${i}`);
  }
}
logger.error({err: new Error('disk full'), line: count}, `pino line ${count}`);

// Ending the stream makes pino-logflare post its last partial batch before the worker exits; the
// timer keeps this process alive until then (the worker does not).
const keepAlive = setInterval(() => {}, 1000);
transport.on('close', () => {
  clearInterval(keepAlive);
  let errors = '';
  try {
    errors = fs.readFileSync(errorFile, 'utf8');
    fs.unlinkSync(errorFile);
  } catch (e) {
    // no file: no failure was reported
  }
  if (errors !== '') {
    process.stderr.write(errors);
    process.exit(1);
  }
  console.log(`pino_client: logged ${count + 1} lines`);
});
// pino-logflare 0.5.2 clears a batch only after its POST returns, and its close handler sends the
// current batch too: ending while a POST is in flight sends that batch twice. So the transport
// is ended only when standard input closes, which the test does once it has seen every line
// arrive, as a long-running application ends long after its lines went out.
process.stdin.resume();
process.stdin.on('end', () => transport.end());
