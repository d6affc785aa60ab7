// A fault-injecting HTTP proxy for the sync chaos spec: the browser talks to it, it forwards
// to the real server, and while a fault is set it breaks the sync API's requests the ways
// real networks do — refuse (connection reset), hang, cut the response after the server
// committed, answer 500, or answer with a captive portal's HTML page; or the whole server is
// unavailable (503 with Retry-After: 3600 to the sync API and to GET /api/ready, the
// engine's health probe, as a maintenance page would answer). It also serves the
// chaos test page and its script (the client engine bundled from sync-protocol) on the same
// origin, so the page's IndexedDB, cookies and Web Locks are the app's.
import {
  createServer,
  request as httpRequest,
  type IncomingMessage,
  type Server,
  type ServerResponse,
} from 'node:http';
import type { AddressInfo } from 'node:net';

export type Fault =
  'refuse' | 'hang' | 'cut-after-commit' | 'server-error' | 'captive-portal' | 'unavailable';

export interface FaultProxy {
  origin: string;
  fault: Fault | null;
  /** Sync requests seen, by outcome, for the test's own assertions. */
  counts: Record<Fault | 'passed', number>;
  close(): Promise<void>;
}

export interface StaticFile {
  contentType: string;
  body: string | Buffer;
}

const SYNC_PATH = /^\/api\/sync\//;
const READY_PATH = '/api/ready';

export async function startFaultProxy(
  target: string,
  files: Record<string, StaticFile>,
): Promise<FaultProxy> {
  const targetUrl = new URL(target);
  const hanging = new Set<ServerResponse>();
  const proxy: FaultProxy = {
    origin: '',
    fault: null,
    counts: {
      refuse: 0,
      hang: 0,
      'cut-after-commit': 0,
      'server-error': 0,
      'captive-portal': 0,
      unavailable: 0,
      passed: 0,
    },
    close: async () => {
      for (const res of hanging) res.destroy();
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };

  function forward(
    req: IncomingMessage,
    res: ServerResponse,
    onResponse?: (upstream: IncomingMessage, body: Buffer) => void,
  ): void {
    const headers = { ...req.headers, host: targetUrl.host };
    // The API checks Origin against its PUBLIC_ORIGIN: to it, the proxy is the browser.
    if (headers.origin) headers.origin = targetUrl.origin;
    const upstream = httpRequest(
      {
        hostname: targetUrl.hostname,
        port: targetUrl.port,
        path: req.url,
        method: req.method,
        headers,
      },
      (upstreamRes) => {
        const chunks: Buffer[] = [];
        upstreamRes.on('data', (c: Buffer) => chunks.push(c));
        upstreamRes.on('end', () => {
          const body = Buffer.concat(chunks);
          if (onResponse) {
            onResponse(upstreamRes, body);
            return;
          }
          res.writeHead(upstreamRes.statusCode ?? 502, upstreamRes.headers);
          res.end(body);
        });
      },
    );
    upstream.on('error', () => res.destroy());
    req.pipe(upstream);
  }

  const server: Server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://proxy');
    const file = files[url.pathname];
    if (file) {
      res.writeHead(200, { 'content-type': file.contentType, 'cache-control': 'no-store' });
      res.end(file.body);
      return;
    }
    const faulted =
      SYNC_PATH.test(url.pathname) ||
      (proxy.fault === 'unavailable' && url.pathname === READY_PATH);
    const fault = faulted ? proxy.fault : null;
    if (faulted) proxy.counts[fault ?? 'passed'] += 1;
    switch (fault) {
      case null:
        forward(req, res);
        return;
      case 'refuse':
        req.socket.destroy();
        return;
      case 'hang':
        // Never answers; the client's request timeout has to give up on it.
        hanging.add(res);
        req.resume();
        return;
      case 'server-error':
        req.resume();
        res.writeHead(500, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ error: 'Internal Server Error', code: 'INTERNAL' }));
        return;
      case 'captive-portal':
        req.resume();
        res.writeHead(200, { 'content-type': 'text/html' });
        res.end(
          '<!doctype html><title>Station Wi-Fi</title><p>Accept the terms of use to continue.</p>',
        );
        return;
      case 'unavailable':
        req.resume();
        res.writeHead(503, { 'content-type': 'application/json', 'retry-after': '3600' });
        res.end(JSON.stringify({ error: 'Service Unavailable', code: 'SERVICE_UNAVAILABLE' }));
        return;
      case 'cut-after-commit':
        // The server applies the batch; the device never hears about it.
        forward(req, res, () => res.socket?.destroy());
        return;
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  proxy.origin = `http://127.0.0.1:${String((server.address() as AddressInfo).port)}`;
  return proxy;
}
