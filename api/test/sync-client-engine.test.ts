// The client sync engine (sync-protocol/src/client) against the real API over real HTTP:
// its IndexedDB is fake-indexeddb, everything else — Fastify, the session cookie, the push
// and pull routes, the database — is the real thing.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { IDBFactory, IDBKeyRange } from 'fake-indexeddb';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { drainOutbox } from '@rescuelog/sync-protocol/client/drain';
import type { SyncDatabase } from '@rescuelog/sync-protocol/client/local-db';
import { readLocalRecord } from '@rescuelog/sync-protocol/client/local-records';
import {
  pendingCount,
  readOutbox,
  readRejections,
  saveMutation,
  type MutationInput,
} from '@rescuelog/sync-protocol/client/outbox';
import { pullChanges } from '@rescuelog/sync-protocol/client/pull';
import { SyncEngine } from '@rescuelog/sync-protocol/client/sync-engine';
import {
  createFetchTransport,
  type SyncTransport,
} from '@rescuelog/sync-protocol/client/transport';
import { generateHumanId } from '@rescuelog/sync-protocol/platform/human-id';
import { SESSION_COOKIE } from '../src/plugins/external/session';
import { build, type TestApp, type TestClient, type TestUser } from './helpers';
import { completeCaseFields, completeCaseVital, ensureSyncSchema, syncUser } from './sync-fixtures';
import { openAppDatabase } from '@rescuelog/sync-protocol/records/device';

let t: TestApp;
let member: TestUser;
let client: TestClient;
const opened: SyncDatabase[] = [];

beforeAll(async () => {
  t = await build();
  await ensureSyncSchema(t);
  // A member with the responder's usual permissions (create and edit own cases).
  ({ user: member, client } = await syncUser(t));
});

afterAll(async () => {
  await t.close();
});

afterEach(() => {
  for (const db of opened.splice(0)) db.close();
});

function openDb(): SyncDatabase {
  const db = openAppDatabase(member.row.id, { indexedDB: new IDBFactory(), IDBKeyRange });
  opened.push(db);
  return db;
}

/** The browser's fetch with its cookie, as the app and the worker send it. */
function transport(signedIn: () => boolean = () => true): SyncTransport {
  return createFetchTransport({
    baseUrl: t.url,
    headers: (): Record<string, string> =>
      signedIn() && client.sessionCookie
        ? { cookie: `${SESSION_COOKIE}=${client.sessionCookie}` }
        : {},
  });
}

function newCase(patientName: string): { id: string; humanId: string; input: MutationInput } {
  const id = crypto.randomUUID();
  const humanId = generateHumanId('C');
  return {
    id,
    humanId,
    input: {
      name: 'case.upsert',
      args: { id, humanId, fields: { patientName, incidentType: 'Motor vehicle accident' } },
      baseVersion: null,
      actorUserId: member.row.id,
    },
  };
}

async function serverCases(ids: string[]): Promise<{ id: string; patientName: string | null }[]> {
  if (ids.length === 0) return [];
  return t.db.selectFrom('cases').select(['id', 'patientName']).where('id', 'in', ids).execute();
}

describe('client engine against the real API', () => {
  it('drains 250 offline saves in seq-ordered batches, each case stored once, then pulls them back', async () => {
    const db = openDb();
    const cases = [];
    for (let i = 0; i < 250; i++) {
      const c = newCase(`Patient ${String(i)}`);
      cases.push(c);
      await saveMutation(db, c.input);
    }
    const seen: number[][] = [];
    const real = transport();
    const recording: SyncTransport = {
      post: (path, body) => {
        if (path === '/api/sync/push')
          seen.push((body as { mutations: { seq: number }[] }).mutations.map((m) => m.seq));
        return real.post(path, body);
      },
    };
    expect(await drainOutbox({ db, transport: recording, batchSize: 100 })).toMatchObject({
      kind: 'drained',
      acknowledged: 250,
      rejected: 0,
    });
    expect(seen.map((b) => b.length)).toEqual([100, 100, 50]);
    expect(seen.flat()).toEqual(Array.from({ length: 250 }, (_, i) => i + 1));
    const stored = await serverCases(cases.map((c) => c.id));
    expect(stored).toHaveLength(250);
    expect(await pendingCount(db)).toBe(0);

    expect(await pullChanges({ db, transport: real })).toMatchObject({ kind: 'pulled' });
    const local = await readLocalRecord(db, 'case', cases[7]!.id);
    expect(local).toMatchObject({
      caseId: cases[7]!.humanId,
      patientName: 'Patient 7',
      status: 'in_progress',
      userId: member.row.id,
    });
    expect(local?.version).toMatch(/^\d+$/);
  });

  it('applies a batch once when the response is lost after the server committed', async () => {
    const db = openDb();
    const cases = [newCase('Lost Response One'), newCase('Lost Response Two')];
    for (const c of cases) await saveMutation(db, c.input);
    const real = transport();
    let cut = true;
    const cutting: SyncTransport = {
      post: async (path, body) => {
        const response = await real.post(path, body);
        if (cut && path === '/api/sync/push') {
          cut = false;
          throw new TypeError('network connection was lost');
        }
        return response;
      },
    };
    expect(await drainOutbox({ db, transport: cutting })).toMatchObject({
      kind: 'retry',
      reason: 'network',
    });
    expect(await pendingCount(db)).toBe(2);
    expect(await serverCases(cases.map((c) => c.id))).toHaveLength(2);
    expect(await drainOutbox({ db, transport: cutting })).toMatchObject({
      kind: 'drained',
      acknowledged: 2,
    });
    expect(await serverCases(cases.map((c) => c.id))).toHaveLength(2);
    const applied = await t.db
      .selectFrom('appliedMutations')
      .select('mutationId')
      .where('deviceId', '=', (await readOutboxDevice(db)) ?? '')
      .execute();
    expect(applied).toHaveLength(2);
  });

  it('pauses on 401 without a session, keeps the queue, and resumes after sign-in', async () => {
    const db = openDb();
    const c = newCase('After Sign In');
    await saveMutation(db, c.input);
    let signedIn = false;
    const engine = new SyncEngine({
      db,
      transport: transport(() => signedIn),
      setTimer: () => null,
      clearTimer: () => undefined,
    });
    expect(await engine.sync('app-start')).toMatchObject({ phase: 'auth-required' });
    expect(await engine.sync('online')).toMatchObject({ phase: 'auth-required' });
    expect(await pendingCount(db)).toBe(1);
    expect(await serverCases([c.id])).toHaveLength(0);
    signedIn = true;
    expect(await engine.resume()).toMatchObject({ phase: 'idle', lastError: null });
    expect(await serverCases([c.id])).toEqual([{ id: c.id, patientName: 'After Sign In' }]);
  });

  it('moves a change the server refuses (a case completed on another device) to the rejections store with its data', async () => {
    // The tablet captures and completes the case; the phone (same responder) had pulled it
    // while it was open, and edits it offline before it hears of the completion.
    const tablet = openDb();
    const phone = openDb();
    const c = newCase('Locked Case');
    await saveMutation(tablet, {
      ...c.input,
      args: {
        ...(c.input.args as Record<string, unknown>),
        fields: completeCaseFields({ patientName: 'Locked Case' }),
      },
    } as MutationInput);
    await saveMutation(tablet, {
      name: 'vitalSign.record',
      args: completeCaseVital(c.id),
      baseVersion: null,
      actorUserId: member.row.id,
    });
    await drainOutbox({ db: tablet, transport: transport() });
    await pullChanges({ db: phone, transport: transport() });
    await saveMutation(tablet, {
      name: 'case.complete',
      args: { id: c.id, completedAt: new Date().toISOString() },
      baseVersion: null,
      actorUserId: member.row.id,
    });
    expect(await drainOutbox({ db: tablet, transport: transport() })).toMatchObject({
      kind: 'drained',
      acknowledged: 1,
      rejected: 0,
    });
    await saveMutation(phone, {
      name: 'case.upsert',
      args: { id: c.id, fields: { patientName: 'Too late' } },
      baseVersion: null,
      actorUserId: member.row.id,
    });
    expect(await drainOutbox({ db: phone, transport: transport() })).toMatchObject({
      kind: 'drained',
      acknowledged: 1,
      rejected: 1,
    });
    const [rejection] = await readRejections(phone);
    expect(rejection).toMatchObject({
      code: 'CASE_LOCKED',
      mutation: { args: { fields: { patientName: 'Too late' } } },
    });
    expect(await serverCases([c.id])).toEqual([{ id: c.id, patientName: 'Locked Case' }]);
    // The phone shows the server's case again: completed, its name unchanged.
    expect(await readLocalRecord(phone, 'case', c.id)).toMatchObject({
      patientName: 'Locked Case',
      status: 'completed',
    });
  });

  it('refuses on the device, at once, an edit of a case the device knows is completed', async () => {
    const db = openDb();
    const c = newCase('Completed here');
    await saveMutation(db, {
      ...c.input,
      args: {
        ...(c.input.args as Record<string, unknown>),
        fields: completeCaseFields({ patientName: 'Completed here' }),
      },
    } as MutationInput);
    await saveMutation(db, {
      name: 'vitalSign.record',
      args: completeCaseVital(c.id),
      baseVersion: null,
      actorUserId: member.row.id,
    });
    await saveMutation(db, {
      name: 'case.complete',
      args: { id: c.id, completedAt: new Date().toISOString() },
      baseVersion: null,
      actorUserId: member.row.id,
    });
    await expect(
      saveMutation(db, {
        name: 'case.upsert',
        args: { id: c.id, fields: { patientName: 'Too late' } },
        baseVersion: null,
        actorUserId: member.row.id,
      }),
    ).rejects.toMatchObject({ code: 'CASE_LOCKED' });
    expect(await readOutbox(db)).toHaveLength(3);
  });
});

describe('client engine behind something that is not the API', () => {
  let portal: Server;
  let portalUrl: string;

  beforeAll(async () => {
    portal = createServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/html' });
      res.end('<!doctype html><title>Hotel Wi-Fi</title><form>Accept the terms to continue</form>');
    });
    await new Promise<void>((resolve) => portal.listen(0, '127.0.0.1', resolve));
    portalUrl = `http://127.0.0.1:${String((portal.address() as AddressInfo).port)}`;
  });

  afterAll(async () => {
    await new Promise((resolve) => portal.close(resolve));
  });

  it('treats a captive-portal page as no answer and keeps the queue; refused connections too', async () => {
    const db = openDb();
    await saveMutation(db, newCase('Behind the portal').input);
    expect(
      await drainOutbox({ db, transport: createFetchTransport({ baseUrl: portalUrl }) }),
    ).toMatchObject({ kind: 'retry', reason: 'captive-portal' });
    expect(
      await drainOutbox({ db, transport: createFetchTransport({ baseUrl: 'http://127.0.0.1:9' }) }),
    ).toMatchObject({ kind: 'retry', reason: 'network' });
    const [entry] = await readOutbox(db);
    expect(entry).toMatchObject({ state: 'pending', attempts: 2 });
    expect(await drainOutbox({ db, transport: transport() })).toMatchObject({
      kind: 'drained',
      acknowledged: 1,
    });
  });
});

async function readOutboxDevice(db: SyncDatabase): Promise<string | undefined> {
  const row = await db.syncState.get('device');
  return typeof row?.deviceId === 'string' ? row.deviceId : undefined;
}
