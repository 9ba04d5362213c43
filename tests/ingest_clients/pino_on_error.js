// pino-logflare's onError callback (loaded in the transport's worker thread): records the failed
// batch's size and the error, for pino_client.js to report.
'use strict';
const fs = require('fs');

function report(payload, error) {
  const size = payload && payload.batch ? payload.batch.length : 0;
  const status = error && error.response ? ` status ${error.response.status}` : '';
  const data = error && error.data ? ` ${JSON.stringify(error.data)}` : '';
  fs.appendFileSync(process.env.LQE_PINO_ERROR_FILE,
                    `pino-logflare: POST of ${size} events failed:${status} ${error}${data}\n`);
}

module.exports = {report};
