'use strict';
// Starts the ZetaSQL reference server shipped in @fivetrandevelopers/zetasql and talks to it
// over its local-service gRPC API (RegisterCatalog, EvaluateQuery).
const path = require('path');
const net = require('net');
const { spawn } = require('child_process');
const grpc = require('@grpc/grpc-js');
const protoLoader = require('@grpc/proto-loader');

const PACKAGE_DIR = path.dirname(require.resolve('@fivetrandevelopers/zetasql/package.json'));
const SERVER_DIR = path.join(PACKAGE_DIR, 'lib', 'zetasql');

function freePort() {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address();
      srv.close(() => resolve(port));
    });
    srv.on('error', reject);
  });
}

function loadService() {
  const def = protoLoader.loadSync('local_service.proto', {
    keepCase: true,
    longs: String,
    enums: String,
    defaults: false,
    oneofs: true,
    includeDirs: [path.join(SERVER_DIR, 'protos')],
  });
  return grpc.loadPackageDefinition(def).zetasql.local_service.ZetaSqlLocalService;
}

function call(client, method, request) {
  return new Promise((resolve, reject) => {
    client[method](request, { deadline: Date.now() + 60000 }, (err, res) => (err ? reject(err) : resolve(res)));
  });
}

class ZetaSqlServer {
  async start() {
    if (process.platform !== 'linux' || process.arch !== 'x64') {
      throw new Error(`the reference server ships for linux x64 only (this is ${process.platform} ${process.arch})`);
    }
    const port = await freePort();
    this.proc = spawn(path.join(SERVER_DIR, 'remote_server.so'), ['127.0.0.1', String(port)], {
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    this.stderr = '';
    this.proc.stderr.on('data', (d) => { this.stderr += d.toString(); });
    this.exited = false;
    this.proc.on('exit', () => { this.exited = true; });
    const Service = loadService();
    this.client = new Service(`127.0.0.1:${port}`, grpc.credentials.createInsecure(), {
      'grpc.max_send_message_length': 256 << 20,
      'grpc.max_receive_message_length': 256 << 20,
    });
    for (let i = 0; i < 120; i++) {
      if (this.exited) throw new Error(`reference server exited: ${this.stderr}`);
      try {
        await call(this.client, 'GetLanguageOptions', { maximum_features: true });
        return;
      } catch (e) {
        if (e.code !== grpc.status.UNAVAILABLE) throw e;
      }
      await new Promise((r) => setTimeout(r, 250));
    }
    throw new Error('reference server did not answer within 30 s');
  }

  rpc(method, request) {
    return call(this.client, method, request);
  }

  stop() {
    if (this.client) this.client.close();
    if (this.proc && !this.exited) this.proc.kill('SIGKILL');
  }
}

module.exports = { ZetaSqlServer };
