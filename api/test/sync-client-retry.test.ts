// The client engine's retry side against the real API over real HTTP (decision 016): a proxy
// in front of the API stands in for an outage (every request answered 503 with a
// Retry-After of an hour, as a maintenance page or a load balancer might) and then for the
// recovery. The engine's backoff and probe interval are shortened so the outage fits in a
// test; the clock, the timers, fetch, the session and the database are real.
import { createServer, request as forward, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { IDBFactory, IDBKeyRange } from 'fake-indexeddb';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import type { SyncDatabase } from '@rescuelog/sync-protocol/client/local-db';
import { pendingCount, saveMutation } from '@rescuelog/sync-protocol/client/outbox';
import { SyncEngine } from '@rescuelog/sync-protocol/client/sync-engine';
import {
  createFetchTransport,
  type SyncTransport,
} from '@rescuelog/sync-protocol/client/transport';
import { generateHumanId } from '@rescuelog/sync-protocol/platform/human-id';
import { SESSION_COOKIE } from '../src/plugins/external/session';
import { build, type TestApp } from './helpers';
import { ensureSyncSchema, syncUser, type SyncUser } from './sync-fixtures';
import { openAppDatabase } from '@rescuelog/sync-protocol/records/device';

type Mode = 'up' | 'down' | 'portal';

let t: TestApp;
let member: SyncUser;
let proxy: Server;
let proxyUrl: string;
let mode: Mode = 'up';
/** What went through the proxy: method, path and the status the client got. */
const seen: { at: number; method: string; path: string; status: number }[] = [];
const opened: SyncDatabase[] = [];

beforeAll(async () => {
  t = await build();
  await ensureSyncSchema(t);
  member = await syncUser(t);
  const target = new URL(t.url);
  proxy = createServer((req, res) => {
    const path = req.url ?? '/';
    const record = (status: number) =>
      seen.push({ at: Date.now(), method: req.method ?? '', path, status });
    if (mode === 'down') {
      req.resume();
      record(503);
      res.writeHead(503, { 'content-type': 'application/json', 'retry-after': '3600' });
      res.end(JSON.stringify({ error: 'Service Unavailable', code: 'SERVICE_UNAVAILABLE' }));
      return;
    }
    if (mode === 'portal') {
      req.resume();
      record(200);
      res.writeHead(200, { 'content-type': 'text/html' });
      res.end('<!doctype html><title>Hotel Wi-Fi</title><form>Accept the terms</form>');
      return;
    }
    const upstream = forward(
      {
        host: target.hostname,
        port: target.port,
        method: req.method,
        path,
        headers: { ...req.headers, host: target.host },
      },
      (answer) => {
        record(answer.statusCode ?? 0);
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      },
    );
    upstream.on('error', () => res.destroy());
    req.pipe(upstream);
  });
  await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
  proxyUrl = `http://127.0.0.1:${String((proxy.address() as AddressInfo).port)}`;
});

afterAll(async () => {
  await new Promise((resolve) => proxy.close(resolve));
  await t.close();
});

afterEach(() => {
  mode = 'up';
  seen.splice(0);
  for (const db of opened.splice(0)) db.close();
});

function throughProxy(): SyncTransport {
  return createFetchTransport({
    baseUrl: proxyUrl,
    headers: (): Record<string, string> =>
      member.client.sessionCookie
        ? { cookie: `${SESSION_COOKIE}=${member.client.sessionCookie}` }
        : {},
  });
}

describe('the engine after a server outage', () => {
  it("probes /api/ready: true only for the API's own answer", async () => {
    const transport = throughProxy();
    expect(await transport.ready?.()).toBe(true);
    mode = 'down';
    expect(await transport.ready?.()).toBe(false);
    mode = 'portal';
    expect(await transport.ready?.()).toBe(false);
    expect(await createFetchTransport({ baseUrl: 'http://127.0.0.1:9' }).ready?.()).toBe(false);
  });

  it('waits at most the cap whatever Retry-After says, and syncs as soon as a probe sees the API back', async () => {
    const db = openAppDatabase(member.id, { indexedDB: new IDBFactory(), IDBKeyRange });
    opened.push(db);
    const id = crypto.randomUUID();
    await saveMutation(db, {
      name: 'case.upsert',
      args: { id, humanId: generateHumanId('C'), fields: { patientName: 'Outage Patient' } },
      baseVersion: null,
      actorUserId: member.id,
    });
    const CAP_MS = 5_000;
    const engine = new SyncEngine({
      db,
      transport: throughProxy(),
      backoff: { baseMs: 100, maxMs: CAP_MS },
      probeIntervalMs: 150,
      isOnline: () => true,
    });
    try {
      mode = 'down';
      const failed = await engine.sync('app-start');
      // The server asked for an hour; the engine comes back within the cap.
      expect(failed).toMatchObject({ phase: 'backoff', failures: 1 });
      expect(failed.nextRetryAt! - Date.now()).toBeLessThanOrEqual(CAP_MS);
      expect(failed.nextRetryAt! - Date.now()).toBeGreaterThan(CAP_MS - 1_000);
      // A short outage: the probes keep finding it down.
      await vi.waitFor(
        () => expect(seen.filter((r) => r.path === '/api/ready').length).toBeGreaterThan(2),
        { timeout: 4_000, interval: 50 },
      );
      const retryWasDueAt = engine.getStatus().nextRetryAt!;
      mode = 'up';
      const recoveredAt = Date.now();
      // Drained, then pulled: the sync indicator says synced.
      await vi.waitFor(() => expect(engine.getStatus().phase).toBe('idle'), {
        timeout: 10_000,
        interval: 50,
      });
      expect(await pendingCount(db)).toBe(0);
      const push = seen.find((r) => r.path === '/api/sync/push' && r.status === 200);
      // Synced before the backoff's own retry was due: the probe woke it.
      expect(push!.at).toBeLessThan(retryWasDueAt);
      expect(push!.at - recoveredAt).toBeLessThan(CAP_MS);
      expect(
        seen.some((r) => r.path === '/api/ready' && r.status === 200 && r.at <= push!.at),
      ).toBe(true);
      expect(engine.getStatus()).toMatchObject({ phase: 'idle', failures: 0, lastError: null });
      const row = await t.db
        .selectFrom('cases')
        .select('patientName')
        .where('id', '=', id)
        .executeTakeFirst();
      expect(row).toEqual({ patientName: 'Outage Patient' });
    } finally {
      engine.stop();
    }
  });
});
