// The optional operations port: /healthz for orchestrators (200 when ready, 503 with what is not)
// and /metrics for Prometheus. Nothing else is served, and nothing about cases or users.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Registry } from 'prom-client';
import { readiness, type Check } from './health.ts';

export interface OpsServer {
  port: number;
  close(): Promise<void>;
}

export interface OpsOptions {
  port: number;
  host: string;
  checks: () => readonly Check[];
  /** The figures to serve, gathered at each scrape (a shard manager adds up its shards'). */
  metrics: () => Promise<Registry>;
}

export async function startOpsServer(o: OpsOptions): Promise<OpsServer> {
  const server = http.createServer((req, res) => {
    const path = new URL(req.url ?? '/', 'http://localhost').pathname;
    const send = (status: number, type: string, body: string) => res.writeHead(status, { 'content-type': type, 'cache-control': 'no-store' }).end(body);
    const failed = (e: unknown) => send(500, 'text/plain; charset=utf-8', `${(e as Error).message}\n`);
    if (req.method !== 'GET' && req.method !== 'HEAD') return send(405, 'text/plain; charset=utf-8', 'GET only\n');
    if (path === '/healthz') {
      return void readiness(o.checks())
        .then((r) => send(r.ready ? 200 : 503, 'application/json', `${JSON.stringify(r)}\n`))
        .catch(failed);
    }
    if (path === '/metrics') {
      return void o
        .metrics()
        .then(async (registry) => send(200, registry.contentType, await registry.metrics()))
        .catch(failed);
    }
    send(404, 'text/plain; charset=utf-8', 'not found: /healthz or /metrics\n');
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(o.port, o.host, () => resolve());
  });
  return {
    port: (server.address() as AddressInfo).port,
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
