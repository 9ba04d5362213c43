// A drain receiver for bench/drains/run.sh: answers 200 to every POST as soon as its body has
// arrived, and prints on SIGTERM the requests and bytes it took.
//   node receiver.js PORT
'use strict';
const http = require('http');

const port = Number(process.argv[2]);
let requests = 0;
let bytes = 0;
const server = http.createServer((req, res) => {
  req.on('data', (chunk) => { bytes += chunk.length; });
  req.on('end', () => {
    requests += 1;
    res.writeHead(200, {'content-type': 'application/json'});
    res.end('{}');
  });
});
server.keepAliveTimeout = 60000;
server.listen(port, '127.0.0.1');
process.on('SIGTERM', () => {
  console.log(JSON.stringify({requests, bytes}));
  process.exit(0);
});
