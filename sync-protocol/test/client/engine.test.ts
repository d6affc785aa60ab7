import { IDBFactory, IDBKeyRange } from 'fake-indexeddb';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { generateHumanId } from '../../src/platform/human-id';
import { SCHEMA_VERSION } from '../../src/platform/versions';
import { clearActiveUser, getActiveUser, setActiveUser } from '../../src/client/active-user';
import { drainOutbox } from '../../src/client/drain';
import { createLeaseLock } from '../../src/client/drain-lock';
import type { SyncDatabase } from '../../src/client/local-db';
import { readLocalRecord } from '../../src/client/local-records';
import {
  hasPendingChanges,
  pendingCount,
  readOutbox,
  readPullState,
  readPushState,
  readRejections,
  saveMutation,
  type MutationInput,
} from '../../src/client/outbox';
import { pullChanges } from '../../src/client/pull';
import { SyncEngine } from '../../src/client/sync-engine';
import { drainActiveUserOutbox } from '../../src/client/worker-drain';
import { FakeSyncServer, fullCase } from './fake-sync-server';
import { appDeviceSchema, openAppDatabase } from '../../src/records/device';

const USER_ID = 7;
const opened: SyncDatabase[] = [];

function openDb(factory = new IDBFactory()): SyncDatabase {
  const db = openAppDatabase(USER_ID, { indexedDB: factory, IDBKeyRange });
  opened.push(db);
  return db;
}

afterEach(() => {
  for (const db of opened.splice(0)) db.close();
});

function caseUpsert(id: string, fields: Record<string, unknown>, humanId?: string): MutationInput {
  return {
    name: 'case.upsert',
    args: { id, ...(humanId ? { humanId } : {}), fields },
    entityIds: [id],
    baseVersion: null,
    actorUserId: USER_ID,
  } as MutationInput;
}

async function saveCases(db: SyncDatabase, n: number): Promise<string[]> {
  const ids: string[] = [];
  for (let i = 0; i < n; i++) {
    const id = crypto.randomUUID();
    ids.push(id);
    await saveMutation(
      db,
      caseUpsert(id, { patientName: `Patient ${String(i)}` }, generateHumanId('C')),
    );
  }
  return ids;
}

/** A scheduler the test advances by hand. */
function manualTimers() {
  const pending: { fn: () => void; ms: number }[] = [];
  return {
    pending,
    setTimer: (fn: () => void, ms: number) => {
      const t = { fn, ms };
      pending.push(t);
      return t;
    },
    clearTimer: (handle: unknown) => {
      const i = pending.indexOf(handle as { fn: () => void; ms: number });
      if (i >= 0) pending.splice(i, 1);
    },
    fireNext(): number {
      const t = pending.shift();
      if (!t) throw new Error('no timer scheduled');
      t.fn();
      return t.ms;
    },
  };
}

describe('saveMutation', () => {
  it('stores the domain row and the outbox entry together, with seqs from 1 in order', async () => {
    const db = openDb();
    const [a, b] = await saveCases(db, 2);
    const outbox = await readOutbox(db);
    expect(outbox.map((e) => e.seq)).toEqual([1, 2]);
    expect(outbox[0]?.mutation.deviceId).toBe(outbox[1]?.mutation.deviceId);
    expect((await readLocalRecord(db, 'case', a!))?.patientName).toBe('Patient 0');
    expect(await hasPendingChanges(db, b!)).toBe(true);
    expect(await pendingCount(db)).toBe(2);
  });

  it('stores neither the row nor the entry (and uses no seq) when the local write fails', async () => {
    const db = openDb();
    const id = crypto.randomUUID();
    // The outbox write fails after the mutator already wrote the case row.
    const add = vi.spyOn(db.outbox, 'add').mockImplementationOnce(() => {
      throw new Error('disk full');
    });
    await expect(
      saveMutation(db, caseUpsert(id, { patientName: 'X' }, generateHumanId('C'))),
    ).rejects.toThrow('disk full');
    add.mockRestore();
    expect(await db.store('cases').get(id)).toBeUndefined();
    expect(await pendingCount(db)).toBe(0);
    await saveCases(db, 1);
    expect((await readOutbox(db)).map((e) => e.seq)).toEqual([1]);
  });

  it('refuses an invalid mutation before writing anything', async () => {
    const db = openDb();
    await expect(
      saveMutation(db, caseUpsert(crypto.randomUUID(), { approximateAge: -3 })),
    ).rejects.toThrow();
    expect(await pendingCount(db)).toBe(0);
  });

  it('keeps the device id per user database across reopening', async () => {
    const factory = new IDBFactory();
    const db = openDb(factory);
    await saveCases(db, 1);
    const deviceId = (await readOutbox(db))[0]?.mutation.deviceId;
    db.close();
    const again = openDb(factory);
    await saveCases(again, 1);
    const entries = await readOutbox(again);
    expect(entries.map((e) => [e.seq, e.mutation.deviceId])).toEqual([
      [1, deviceId],
      [2, deviceId],
    ]);
  });
});

describe('drain', () => {
  it('pushes in batches in seq order and empties the outbox', async () => {
    const db = openDb();
    await saveCases(db, 250);
    const server = new FakeSyncServer();
    const outcome = await drainOutbox({ db, transport: server, batchSize: 100 });
    expect(outcome).toMatchObject({ kind: 'drained', acknowledged: 250, rejected: 0 });
    expect(server.pushes.map((p) => p.length)).toEqual([100, 100, 50]);
    expect(server.pushes.flat()).toEqual(Array.from({ length: 250 }, (_, i) => i + 1));
    expect(server.applied).toHaveLength(250);
    expect(await pendingCount(db)).toBe(0);
    expect((await readPushState(db)).lastSuccessAt).not.toBeNull();
    // 250 saves in fake-indexeddb take seconds on a busy machine.
  }, 20_000);

  it('moves a rejected change to the rejections store with its reason and data', async () => {
    const db = openDb();
    const ids = await saveCases(db, 3);
    const entries = await readOutbox(db);
    const server = new FakeSyncServer();
    server.rejectIds.add(entries[1]!.mutationId);
    const outcome = await drainOutbox({ db, transport: server });
    expect(outcome).toMatchObject({ kind: 'drained', acknowledged: 3, rejected: 1 });
    expect(await pendingCount(db)).toBe(0);
    const rejections = await readRejections(db);
    expect(rejections).toHaveLength(1);
    expect(rejections[0]).toMatchObject({
      seq: 2,
      code: 'CASE_LOCKED',
      message: 'The case is completed; only addenda can be added.',
      dismissedAt: null,
    });
    expect(rejections[0]?.mutation.args).toMatchObject({
      id: ids[1],
      fields: { patientName: 'Patient 1' },
    });
  });

  it('counts a response lost after the server committed as a duplicate on retry: applied once', async () => {
    const db = openDb();
    await saveCases(db, 5);
    const server = new FakeSyncServer();
    server.faults.push({ kind: 'lost-after-commit' });
    expect(await drainOutbox({ db, transport: server })).toMatchObject({
      kind: 'retry',
      reason: 'network',
    });
    expect(await pendingCount(db)).toBe(5);
    expect(server.applied).toHaveLength(5);
    expect(await drainOutbox({ db, transport: server })).toMatchObject({
      kind: 'drained',
      acknowledged: 5,
    });
    expect(server.applied).toHaveLength(5);
    expect(await pendingCount(db)).toBe(0);
  });

  it('keeps every entry on 401, 5xx, captive-portal pages, network failures and 426', async () => {
    const db = openDb();
    await saveCases(db, 3);
    const server = new FakeSyncServer();
    const cases = [
      [
        { kind: 'status', status: 401, body: { error: 'Unauthorized', code: 'UNAUTHENTICATED' } },
        { kind: 'auth-required' },
      ],
      [
        { kind: 'status', status: 403, body: { error: 'Forbidden', code: 'ACCOUNT_SUSPENDED' } },
        { kind: 'auth-required' },
      ],
      [
        { kind: 'status', status: 500 },
        { kind: 'retry', reason: 'server-error' },
      ],
      [
        { kind: 'status', status: 502, body: '<html>Bad gateway</html>' },
        { kind: 'retry', reason: 'server-error' },
      ],
      [{ kind: 'captive-portal' }, { kind: 'retry', reason: 'captive-portal' }],
      [{ kind: 'network' }, { kind: 'retry', reason: 'network' }],
      [
        {
          kind: 'status',
          status: 426,
          body: { error: 'Update required', code: 'UPDATE_REQUIRED' },
        },
        { kind: 'update-required' },
      ],
    ] as const;
    for (const [fault, expected] of cases) {
      server.faults.push(fault);
      expect(await drainOutbox({ db, transport: server })).toMatchObject(expected);
      const outbox = await readOutbox(db);
      expect(outbox.map((e) => e.seq)).toEqual([1, 2, 3]);
      expect(outbox.every((e) => e.state === 'pending' && e.lastError !== null)).toBe(true);
    }
    expect((await readOutbox(db))[0]?.attempts).toBe(cases.length);
    expect(server.applied).toHaveLength(0);
    expect(await drainOutbox({ db, transport: server })).toMatchObject({
      kind: 'drained',
      acknowledged: 3,
    });
  });

  it('reports a seq gap on the server instead of spinning, and keeps the entries', async () => {
    const db = openDb();
    await saveCases(db, 2);
    const server = new FakeSyncServer();
    // Simulate the head of the queue having been lost (the server knows seq 0, we start at 2).
    await db.outbox.delete(1);
    expect(await drainOutbox({ db, transport: server })).toMatchObject({
      kind: 'retry',
      reason: 'not-acknowledged',
    });
    expect((await readOutbox(db)).map((e) => e.seq)).toEqual([2]);
  });

  it('never expires an entry: a change saved long ago still drains', async () => {
    const db = openDb();
    const id = crypto.randomUUID();
    await saveMutation(
      db,
      caseUpsert(
        id,
        { patientName: 'Old' },
        generateHumanId('C', undefined, new Date('2025-01-01')),
      ),
      () => new Date('2025-01-01T08:00:00Z'),
    );
    const server = new FakeSyncServer();
    for (let i = 0; i < 50; i++) {
      server.faults.push({ kind: 'network' });
      await drainOutbox({ db, transport: server, now: () => new Date('2026-11-21T00:00:00Z') });
    }
    expect((await readOutbox(db))[0]).toMatchObject({
      attempts: 50,
      createdAt: '2025-01-01T08:00:00.000Z',
    });
    expect(await drainOutbox({ db, transport: server })).toMatchObject({
      kind: 'drained',
      acknowledged: 1,
    });
    expect(server.applied[0]?.args).toMatchObject({ id, fields: { patientName: 'Old' } });
  });
});

describe('SyncEngine', () => {
  it('pauses on 401 (even the timer does nothing) and resumes after sign-in', async () => {
    const db = openDb();
    await saveCases(db, 2);
    const server = new FakeSyncServer();
    const timers = manualTimers();
    const engine = new SyncEngine({ db, transport: server, ...timers });
    server.persistentFault = {
      kind: 'status',
      status: 401,
      body: { error: 'Unauthorized', code: 'UNAUTHENTICATED' },
    };
    expect(await engine.sync('app-start')).toMatchObject({ phase: 'auth-required' });
    server.persistentFault = null;
    expect(await engine.sync('timer')).toMatchObject({ phase: 'auth-required' });
    expect(await engine.sync('online')).toMatchObject({ phase: 'auth-required' });
    expect(server.requests).toEqual(['/api/sync/push']);
    expect(timers.pending).toHaveLength(0);
    expect(await pendingCount(db)).toBe(2);
    expect(await engine.resume()).toMatchObject({ phase: 'idle', lastError: null });
    expect(await pendingCount(db)).toBe(0);
    expect(server.applied).toHaveLength(2);
  });

  it('backs off exponentially with jitter on 5xx and captive portals, then recovers', async () => {
    const db = openDb();
    await saveCases(db, 1);
    const server = new FakeSyncServer();
    const timers = manualTimers();
    const engine = new SyncEngine({
      db,
      transport: server,
      ...timers,
      random: () => 0.5,
      backoff: { baseMs: 1000, maxMs: 8000 },
    });
    server.persistentFault = { kind: 'status', status: 503 };
    const first = await engine.sync('app-start');
    expect(first).toMatchObject({ phase: 'backoff', failures: 1 });
    const delays: number[] = [];
    for (let i = 0; i < 5; i++) {
      if (i === 2) server.persistentFault = { kind: 'captive-portal' };
      const delay = timers.pending[0]?.ms;
      delays.push(delay ?? -1);
      timers.fireNext();
      await engine.sync('retry'); // joins the retry the timer started
    }
    // 0.75 × min(8000, 1000·2^(n-1)) for failures 1..5.
    expect(delays).toEqual([750, 1500, 3000, 6000, 6000]);
    expect(engine.getStatus()).toMatchObject({ phase: 'backoff', failures: 6 });
    expect(engine.getStatus().lastError).toMatch(/not RescueLog/);
    expect(await pendingCount(db)).toBe(1);
    // The periodic timer does not cut the backoff short.
    const requestsBefore = server.requests.length;
    await engine.sync('timer');
    expect(server.requests.length).toBe(requestsBefore);
    server.persistentFault = null;
    timers.fireNext();
    expect(await engine.sync('manual')).toMatchObject({
      phase: 'idle',
      failures: 0,
      lastError: null,
    });
    expect(await pendingCount(db)).toBe(0);
    expect(timers.pending).toHaveLength(0);
  });

  it('honours Retry-After on 429', async () => {
    const db = openDb();
    await saveCases(db, 1);
    const server = new FakeSyncServer();
    const timers = manualTimers();
    const engine = new SyncEngine({ db, transport: server, ...timers, random: () => 0 });
    server.faults.push({
      kind: 'status',
      status: 429,
      body: { error: 'Too many requests', code: 'RATE_LIMITED', retryAfterSeconds: 42 },
    });
    await engine.sync('app-start');
    expect(timers.pending[0]?.ms).toBe(42_000);
  });

  it('stops on 426 and keeps the queue for the updated app', async () => {
    const db = openDb();
    await saveCases(db, 2);
    const server = new FakeSyncServer();
    server.persistentFault = {
      kind: 'status',
      status: 426,
      body: { error: 'Update required', code: 'UPDATE_REQUIRED' },
    };
    const engine = new SyncEngine({ db, transport: server, ...manualTimers() });
    expect(await engine.sync('app-start')).toMatchObject({ phase: 'update-required' });
    expect(await engine.sync('online')).toMatchObject({ phase: 'update-required' });
    expect(server.requests).toEqual(['/api/sync/push']);
    expect(await pendingCount(db)).toBe(2);
    server.persistentFault = null;
    const updated = new SyncEngine({ db, transport: server, ...manualTimers() });
    expect(await updated.sync('app-start')).toMatchObject({ phase: 'idle' });
    expect(server.applied).toHaveLength(2);
  });

  it('lets only one drainer push at a time across two tabs (lease lock without Web Locks)', async () => {
    const factory = new IDBFactory();
    const tabA = openDb(factory);
    const tabB = openDb(factory);
    await saveCases(tabA, 30);
    const server = new FakeSyncServer();
    server.latencyMs = 15;
    const engineA = new SyncEngine({
      db: tabA,
      transport: server,
      lock: createLeaseLock(tabA),
      batchSize: 5,
      ...manualTimers(),
    });
    const engineB = new SyncEngine({
      db: tabB,
      transport: server,
      lock: createLeaseLock(tabB),
      batchSize: 5,
      ...manualTimers(),
    });
    await Promise.all([
      engineA.sync('app-start'),
      engineB.sync('app-start'),
      engineA.sync('online'),
      engineB.sync('visible'),
    ]);
    await Promise.all([engineA.sync('manual'), engineB.sync('manual')]);
    expect(server.maxConcurrent).toBe(1);
    expect(server.applied).toHaveLength(30);
    expect(server.pushes.flat().filter((seq, i, all) => all.indexOf(seq) !== i)).toEqual([]);
    expect(await pendingCount(tabB)).toBe(0);
  });

  it('runs again for a "Sync now" that arrived while a failing attempt was in flight', async () => {
    const db = openDb();
    await saveCases(db, 2);
    const server = new FakeSyncServer();
    server.latencyMs = 20;
    server.persistentFault = { kind: 'captive-portal' };
    const timers = manualTimers();
    const engine = new SyncEngine({ db, transport: server, ...timers });
    const first = engine.sync('app-start');
    await new Promise((r) => setTimeout(r, 5));
    server.persistentFault = null; // healed while the first attempt is still in the air
    const manual = engine.sync('manual');
    await first;
    expect(await manual).toMatchObject({ phase: 'idle', failures: 0 });
    expect(await pendingCount(db)).toBe(0);
  });

  it('a drain in flight picks up changes saved meanwhile', async () => {
    const db = openDb();
    await saveCases(db, 3);
    const server = new FakeSyncServer();
    server.latencyMs = 10;
    const engine = new SyncEngine({ db, transport: server, batchSize: 2, ...manualTimers() });
    const running = engine.sync('app-start');
    await saveCases(db, 2);
    await engine.sync('local-change');
    await running;
    expect(await pendingCount(db)).toBe(0);
    expect(server.applied.map((m) => m.seq)).toEqual([1, 2, 3, 4, 5]);
  });
});

describe('pull', () => {
  it('applies server changes and tombstones, keeping pending local values on top until acknowledged', async () => {
    const db = openDb();
    const server = new FakeSyncServer();
    const mine = crypto.randomUUID();
    const gone = crypto.randomUUID();
    const humanId = generateHumanId('C');
    server.serverWriteCase(mine, { patientName: 'Server name', incidentType: 'Fall' }, humanId);
    server.serverWriteCase(gone);
    expect(await pullChanges({ db, transport: server })).toMatchObject({
      kind: 'pulled',
      changes: 2,
    });
    expect((await readLocalRecord(db, 'case', mine))?.patientName).toBe('Server name');

    // Offline edit, then another device changes a different field and deletes the other case.
    await saveMutation(db, { ...caseUpsert(mine, { patientName: 'My edit' }), baseVersion: '1' });
    server.serverWriteCase(mine, { patientName: 'Server name', incidentType: 'Assault' }, humanId);
    server.serverWrite({ entity: 'case', id: gone, deleted: true, data: null });
    expect(await pullChanges({ db, transport: server })).toMatchObject({
      kind: 'pulled',
      changes: 2,
    });
    const rebased = await readLocalRecord(db, 'case', mine);
    expect(rebased).toMatchObject({
      patientName: 'My edit',
      incidentType: 'Assault',
      version: '3',
    });
    expect(await db.store('cases').get(gone)).toBeUndefined();

    // Once the server has it, the server's copy is the truth.
    expect(await drainOutbox({ db, transport: server })).toMatchObject({ kind: 'drained' });
    await pullChanges({ db, transport: server });
    expect(await readLocalRecord(db, 'case', mine)).toMatchObject({
      patientName: 'My edit',
      incidentType: 'Assault',
      version: '5',
    });
    expect(await hasPendingChanges(db, mine)).toBe(false);
  });

  it('pages through hasMore and stores the cursor', async () => {
    const db = openDb();
    const server = new FakeSyncServer();
    for (let i = 0; i < 7; i++) {
      const id = crypto.randomUUID();
      server.serverWriteCase(id);
    }
    expect(await pullChanges({ db, transport: server, limit: 3 })).toMatchObject({
      kind: 'pulled',
      changes: 7,
    });
    expect(await db.store('cases').count()).toBe(7);
    expect(await pullChanges({ db, transport: server, limit: 3 })).toMatchObject({
      kind: 'pulled',
      changes: 0,
    });
  });
});

describe('a pull page applied in bulk', () => {
  it('writes every record and copy of the page, and a record on it twice ends as its later change', async () => {
    const db = openDb();
    const ids = Array.from({ length: 5 }, () => crypto.randomUUID());
    const twice = ids[0] ?? '';
    const cases = ids.map((id, i) => ({
      entity: 'case',
      id,
      version: String(i + 1),
      deleted: false,
      data: fullCase(id, generateHumanId('C'), { version: String(i + 1) }),
    }));
    const page = {
      cursor: '6',
      hasMore: false,
      changes: [...cases, { entity: 'case', id: twice, version: '6', deleted: true, data: null }],
    };
    const transport = {
      post: () =>
        Promise.resolve({
          status: 200,
          contentType: 'application/json',
          retryAfter: null,
          body: JSON.stringify(page),
        }),
    };
    expect(await pullChanges({ db, transport })).toEqual({ kind: 'pulled', changes: 6 });
    expect(await readLocalRecord(db, 'case', twice)).toBeUndefined();
    for (const id of ids.slice(1)) expect(await readLocalRecord(db, 'case', id)).toBeDefined();
    expect(await db.store('cases').count()).toBe(4);
    // The case list's summaries follow the bulk writes too (device-summaries.ts middleware).
    const summaries = await db.store('caseSummaries').bulkGet(ids);
    expect(summaries.map((row) => row !== undefined)).toEqual([false, true, true, true, true]);
    expect(await db.serverCopies.count()).toBe(5);
    expect(await db.serverCopies.get(twice)).toMatchObject({ data: null, version: '6' });
  });
});

describe('where a pull starts', () => {
  /** A server holding one case (version 1), and the cursors the device's pulls sent it. */
  function serverWithOneCase(): { server: FakeSyncServer; cursors: () => (string | null)[] } {
    const server = new FakeSyncServer();
    const id = crypto.randomUUID();
    server.serverWriteCase(id);
    const post = vi.spyOn(server, 'post');
    const cursors = () =>
      post.mock.calls
        .filter(([path]) => path === '/api/sync/pull')
        .map(([, body]) => (body as { cursor: string | null }).cursor);
    return { server, cursors };
  }

  it('keeps the cursor while the access key read at each pull is the same, and starts over when it changes', async () => {
    const db = openDb();
    const { server, cursors } = serverWithOneCase();
    let key = 'role: member';
    const engine = new SyncEngine({
      db,
      transport: server,
      ...manualTimers(),
      accessKey: () => key,
    });
    await engine.sync('app-start');
    await engine.sync('timer');
    key = 'role: member, casesLogged view';
    await engine.sync('timer');
    expect(cursors()).toEqual([null, '1', null]);
    // The record came twice and is stored once.
    expect(await db.store('cases').count()).toBe(1);
  });

  it('starts over after an app update (SCHEMA_VERSION), so a kind the update adds arrives whole', async () => {
    const db = openDb();
    const { server, cursors } = serverWithOneCase();
    // The cursor an older app took (it knew fewer kinds), and one this app took.
    await db.syncState.put({
      key: 'pull',
      cursor: '1',
      lastPullAt: null,
      schemaVersion: SCHEMA_VERSION - 1,
    });
    await pullChanges({ db, transport: server });
    await pullChanges({ db, transport: server });
    expect(cursors()).toEqual([null, '1']);
    expect(await readPullState(db)).toMatchObject({ cursor: '1', schemaVersion: SCHEMA_VERSION });
    // A device that pulled before the version was kept starts over once too.
    await db.syncState.put({ key: 'pull', cursor: '1', lastPullAt: null });
    await pullChanges({ db, transport: server });
    expect(cursors().at(-1)).toBeNull();
  });
});

describe('drainActiveUserOutbox (the service worker path)', () => {
  it("drains only the active user's database, and only under that user's session", async () => {
    const factory = new IDBFactory();
    const deps = { indexedDB: factory, IDBKeyRange };
    const server = new FakeSyncServer();
    expect(
      await drainActiveUserOutbox({
        schema: appDeviceSchema,
        deps,
        transport: server,
        sessionUserId: async () => USER_ID,
      }),
    ).toEqual({ kind: 'no-user' });

    const db = openDb(factory);
    await saveCases(db, 4);
    await setActiveUser(USER_ID, deps);
    expect(await getActiveUser(deps)).toBe(USER_ID);
    expect(
      await drainActiveUserOutbox({
        schema: appDeviceSchema,
        deps,
        transport: server,
        sessionUserId: async () => 99,
      }),
    ).toEqual({
      kind: 'session-mismatch',
      sessionUserId: 99,
      activeUserId: USER_ID,
    });
    expect(server.requests).toEqual([]);
    expect(
      await drainActiveUserOutbox({
        schema: appDeviceSchema,
        deps,
        transport: server,
        sessionUserId: async () => USER_ID,
      }),
    ).toMatchObject({ kind: 'drained', acknowledged: 4 });
    expect(await pendingCount(db)).toBe(0);
    await clearActiveUser(deps);
    expect(await getActiveUser(deps)).toBeNull();
  });
});
