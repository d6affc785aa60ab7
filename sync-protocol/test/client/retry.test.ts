// How soon the device syncs after the server comes back (issue 10, part 5; decision 016):
// the backoff is capped at a minute, a server's Retry-After is honoured but clamped to that
// minute, and while backing off a probe of GET /api/ready syncs at once when the server is
// back. Time is simulated: the engine takes `now` and `setTimer` from a virtual clock, the
// local database is fake-indexeddb and the server is the in-memory FakeSyncServer.
import { IDBFactory, IDBKeyRange } from 'fake-indexeddb';
import { afterEach, describe, expect, it } from 'vitest';
import { backoffDelay, DEFAULT_BACKOFF, retryDelay } from '../../src/client/backoff';
import type { SyncDatabase } from '../../src/client/local-db';
import { pendingCount, saveMutation } from '../../src/client/outbox';
import { SyncEngine, type SyncStatus } from '../../src/client/sync-engine';
import { pushResponseSchema } from '../../src/platform/push-pull';
import {
  classifyResponse,
  parseRetryAfter,
  type SyncTransport,
  type TransportResponse,
} from '../../src/client/transport';
import { generateHumanId } from '../../src/platform/human-id';
import { FakeSyncServer } from './fake-sync-server';
import { openAppDatabase } from '../../src/records/device';

const USER_ID = 7;
const MINUTE = 60_000;
const opened: SyncDatabase[] = [];

afterEach(() => {
  for (const db of opened.splice(0)) db.close();
});

async function dbWithOneChange(): Promise<SyncDatabase> {
  const db = openAppDatabase(USER_ID, { indexedDB: new IDBFactory(), IDBKeyRange });
  opened.push(db);
  const id = crypto.randomUUID();
  await saveMutation(db, {
    name: 'case.upsert',
    args: { id, humanId: generateHumanId('C'), fields: { patientName: 'Waiting Patient' } },
    baseVersion: null,
    actorUserId: USER_ID,
  });
  return db;
}

function unavailable(retryAfter: string | null = null): TransportResponse {
  return {
    status: 503,
    contentType: 'application/json; charset=utf-8',
    retryAfter,
    body: JSON.stringify({ error: 'Service Unavailable', code: 'SERVICE_UNAVAILABLE' }),
  };
}

/** A clock and scheduler the test moves by hand: timers fire in time order, and each one's
 * work (a sync, a probe) finishes before the clock moves on. */
function virtualClock() {
  let now = Date.UTC(2026, 10, 24, 6, 0, 0);
  const start = now;
  const timers: { at: number; ms: number; fn: () => void }[] = [];
  return {
    start,
    timers,
    now: () => now,
    setTimer: (fn: () => void, ms: number) => {
      const timer = { at: now + ms, ms, fn };
      timers.push(timer);
      return timer;
    },
    clearTimer: (handle: unknown) => {
      const i = timers.indexOf(handle as (typeof timers)[number]);
      if (i >= 0) timers.splice(i, 1);
    },
    /** Fires the next timer due; false when none is due by `until`. */
    async step(engine: SyncEngine, until = Number.POSITIVE_INFINITY): Promise<boolean> {
      timers.sort((a, b) => a.at - b.at);
      const next = timers[0];
      if (!next || next.at > until) return false;
      timers.shift();
      now = next.at;
      next.fn();
      await settled(engine);
      return true;
    },
  };
}

/** Lets a probe's answer arrive and any sync it (or a timer) started run to its end. */
async function settled(engine: SyncEngine): Promise<SyncStatus> {
  do await new Promise((resolve) => setImmediate(resolve));
  while (engine.getStatus().phase === 'syncing');
  return engine.getStatus();
}

describe('backoff', () => {
  it('never waits more than a minute, and keeps its jitter at the cap', () => {
    for (const random of [() => 0, () => 0.5, () => 1, Math.random]) {
      for (let failures = 1; failures <= 200; failures++) {
        expect(backoffDelay(failures, DEFAULT_BACKOFF, random)).toBeLessThanOrEqual(MINUTE);
        expect(retryDelay(failures, null, DEFAULT_BACKOFF, random)).toBeLessThanOrEqual(MINUTE);
      }
    }
    // Ten minutes of failures: devices spread over the second half of the minute.
    expect(backoffDelay(20, DEFAULT_BACKOFF, () => 0)).toBe(30_000);
    expect(backoffDelay(20, DEFAULT_BACKOFF, () => 1)).toBe(MINUTE);
  });

  it('waits for Retry-After when it is longer than the backoff, but at most the cap', () => {
    expect(retryDelay(1, 45_000, DEFAULT_BACKOFF, () => 0)).toBe(45_000);
    expect(retryDelay(10, 2_000, DEFAULT_BACKOFF, () => 0)).toBe(30_000);
    expect(retryDelay(1, 3_600_000, DEFAULT_BACKOFF, () => 0)).toBe(MINUTE);
  });
});

describe('Retry-After', () => {
  const now = Date.UTC(2026, 10, 24, 10, 0, 0);

  it('reads delay-seconds and all three HTTP-date forms', () => {
    expect(parseRetryAfter('120', undefined, now)).toBe(120_000);
    expect(parseRetryAfter(' 0 ', undefined, now)).toBe(0);
    expect(parseRetryAfter('Tue, 24 Nov 2026 10:01:30 GMT', undefined, now)).toBe(90_000);
    expect(parseRetryAfter('Tuesday, 24-Nov-26 10:00:10 GMT', undefined, now)).toBe(10_000);
    expect(parseRetryAfter('Tue Nov 24 10:00:05 2026', undefined, now)).toBe(5_000);
    // A date already past means "now", not a negative wait.
    expect(parseRetryAfter('Tue, 24 Nov 2026 09:00:00 GMT', undefined, now)).toBe(0);
    // The API's own body field wins over the header.
    expect(parseRetryAfter('120', 7, now)).toBe(7_000);
  });

  it('ignores what is neither (the backoff alone decides)', () => {
    for (const junk of ['soon', '12.5', '-3', '1e3', '', 'in 2026', 'Tue, 24 Nov 2026 10:01:30'])
      expect(parseRetryAfter(junk, undefined, now), junk).toBeNull();
  });

  it('is read from a 503 and any other 5xx, not only from a 429', () => {
    const seconds = classifyResponse(unavailable('30'), pushResponseSchema);
    expect(seconds).toMatchObject({ kind: 'retry', reason: 'server-error', retryAfterMs: 30_000 });
    const inAMinute = new Date(Date.now() + 60_000).toUTCString();
    const gateway = classifyResponse(
      { ...unavailable(inAMinute), status: 502, contentType: 'text/html', body: '<h1>502</h1>' },
      pushResponseSchema,
    );
    expect(gateway).toMatchObject({ kind: 'retry', reason: 'server-error' });
    expect(gateway.kind === 'retry' ? gateway.retryAfterMs : null).toBeGreaterThan(50_000);
    expect(classifyResponse(unavailable(), pushResponseSchema)).toMatchObject({
      retryAfterMs: null,
    });
  });

  it("makes the engine wait as long as the server asks, and a server's hour only a minute", async () => {
    const db = await dbWithOneChange();
    const server = new FakeSyncServer();
    let retryAfter = '45';
    const transport: SyncTransport = {
      post: async (path, body) => (retryAfter ? unavailable(retryAfter) : server.post(path, body)),
    };
    const clock = virtualClock();
    const engine = new SyncEngine({ db, transport, ...clock, random: () => 0 });
    expect(await engine.sync('app-start')).toMatchObject({
      phase: 'backoff',
      nextRetryAt: clock.start + 45_000,
    });
    expect(clock.timers.map((t) => t.ms)).toEqual([45_000]);

    retryAfter = '3600';
    await clock.step(engine);
    expect(engine.getStatus()).toMatchObject({ phase: 'backoff', failures: 2 });
    expect(clock.timers.map((t) => t.ms)).toEqual([MINUTE]);

    retryAfter = '';
    await clock.step(engine);
    expect(engine.getStatus()).toMatchObject({ phase: 'idle', failures: 0 });
    expect(clock.now() - clock.start).toBe(45_000 + MINUTE);
    expect(await pendingCount(db)).toBe(0);
  });
});

describe('health probe while backing off', () => {
  /** The fake server behind a switch: while `down`, every push and probe gets a 503. */
  function switchable(server: FakeSyncServer) {
    const state = { down: true, probes: 0, pushes: 0 };
    const transport: SyncTransport = {
      post: async (path, body) => {
        if (path === '/api/sync/push') state.pushes += 1;
        return state.down ? unavailable() : server.post(path, body);
      },
      ready: async () => {
        state.probes += 1;
        return !state.down;
      },
    };
    return { state, transport };
  }

  it('syncs at once when a probe sees the server back, without waiting for the retry', async () => {
    const db = await dbWithOneChange();
    const server = new FakeSyncServer();
    const { state, transport } = switchable(server);
    const clock = virtualClock();
    // Many failures already: the retry is a minute away.
    const engine = new SyncEngine({ db, transport, ...clock, random: () => 1 });
    for (let i = 0; i < 8; i++) await engine.sync('manual');
    expect(engine.getStatus()).toMatchObject({ phase: 'backoff', failures: 8 });
    expect(clock.timers.map((t) => t.ms).sort((a, b) => a - b)).toEqual([15_000, MINUTE]);

    await clock.step(engine); // the probe at 15 s: still down
    expect(state.probes).toBe(1);
    expect(engine.getStatus()).toMatchObject({ phase: 'backoff', failures: 8 });

    state.down = false;
    const pushesBefore = state.pushes;
    await clock.step(engine); // the probe at 30 s: back
    expect(clock.now() - clock.start).toBe(30_000);
    expect(state.probes).toBe(2);
    expect(state.pushes).toBe(pushesBefore + 1);
    expect(engine.getStatus()).toMatchObject({ phase: 'idle', failures: 0, lastError: null });
    expect(await pendingCount(db)).toBe(0);
    expect(server.applied).toHaveLength(1);
    // The pending retry and probes are gone: nothing more is sent.
    expect(clock.timers).toEqual([]);
  });

  it('does not turn probes into pushes when the server is up but the push keeps failing', async () => {
    const db = await dbWithOneChange();
    const { state, transport } = switchable(new FakeSyncServer());
    transport.ready = async () => {
      state.probes += 1;
      return true; // /api/ready is fine; the push still answers 503
    };
    const clock = virtualClock();
    const engine = new SyncEngine({ db, transport, ...clock, random: () => 1 });
    for (let i = 0; i < 8; i++) await engine.sync('manual');
    const pushesBefore = state.pushes;
    await clock.step(engine, clock.now() + 59_999);
    expect(state.probes).toBe(1);
    expect(state.pushes).toBe(pushesBefore);
    // Only the backoff's own retry remains.
    expect(clock.timers.map((t) => t.ms)).toEqual([MINUTE]);
  });

  it('does not probe without a network, after a 429, or when the retry comes first', async () => {
    const clock = virtualClock();
    const offlineDb = await dbWithOneChange();
    const offline = switchable(new FakeSyncServer());
    const offlineEngine = new SyncEngine({
      db: offlineDb,
      transport: offline.transport,
      ...clock,
      random: () => 1,
      isOnline: () => false,
    });
    for (let i = 0; i < 8; i++) await offlineEngine.sync('manual');
    await clock.step(offlineEngine);
    expect(offline.state.probes).toBe(0);
    offlineEngine.stop();
    clock.timers.splice(0);

    const limitedDb = await dbWithOneChange();
    const limited = switchable(new FakeSyncServer());
    limited.transport.post = async () => ({
      ...unavailable('50'),
      status: 429,
      body: JSON.stringify({ error: 'Too many requests', code: 'RATE_LIMITED' }),
    });
    const limitedEngine = new SyncEngine({
      db: limitedDb,
      transport: limited.transport,
      ...clock,
    });
    await limitedEngine.sync('app-start');
    expect(clock.timers.map((t) => t.ms)).toEqual([50_000]);
    limitedEngine.stop();
    clock.timers.splice(0);

    const freshDb = await dbWithOneChange();
    const fresh = switchable(new FakeSyncServer());
    const freshEngine = new SyncEngine({ db: freshDb, transport: fresh.transport, ...clock });
    await freshEngine.sync('app-start'); // first failure: the retry is about a second away
    expect(clock.timers).toHaveLength(1);
    expect(clock.timers[0]!.ms).toBeLessThan(15_000);
  });
});

describe('ten minutes of 503, then the server recovers', () => {
  const OUTAGE = 10 * MINUTE;

  /** Runs the outage and returns how long after recovery the first push succeeded. The
   * server recovers just after the first attempt (or probe) at or past ten minutes: right
   * after a failure, the worst moment for a device that only waits. */
  async function delayAfterRecovery(random: () => number, withProbe: boolean): Promise<number> {
    const db = await dbWithOneChange();
    const server = new FakeSyncServer();
    const clock = virtualClock();
    let down = true;
    let recoveredAt: number | null = null;
    let firstSuccessAt: number | null = null;
    let failedPushes = 0;
    const transport: SyncTransport = {
      post: async (path, body) => {
        if (down) {
          failedPushes += 1;
          return unavailable();
        }
        const response = await server.post(path, body);
        if (path === '/api/sync/push' && firstSuccessAt === null) firstSuccessAt = clock.now();
        return response;
      },
      ...(withProbe ? { ready: async () => !down } : {}),
    };
    const engine = new SyncEngine({ db, transport, ...clock, random });
    await engine.sync('app-start');
    while (firstSuccessAt === null) {
      if (!(await clock.step(engine, clock.start + OUTAGE + 10 * MINUTE)))
        throw new Error(`nothing scheduled at ${String(clock.now() - clock.start)} ms`);
      if (down && clock.now() - clock.start >= OUTAGE) {
        down = false;
        recoveredAt = clock.now();
      }
    }
    expect(engine.getStatus()).toMatchObject({ phase: 'idle', failures: 0 });
    expect(await pendingCount(db)).toBe(0);
    // The device kept trying all along (at least once a minute), not parked.
    expect(failedPushes).toBeGreaterThanOrEqual(10);
    return firstSuccessAt - recoveredAt!;
  }

  function seeded(seed: number): () => number {
    let state = seed;
    return () => {
      state = (state * 1_103_515_245 + 12_345) % 2 ** 31;
      return state / 2 ** 31;
    };
  }

  const randoms: [string, () => number][] = [
    ['no jitter', () => 0],
    ['half jitter', () => 0.5],
    ['full jitter', () => 1],
    ['seeded', seeded(16)],
  ];

  it.each(randoms)('syncs within 60 s of recovery by the backoff alone (%s)', async (_, random) => {
    const delay = await delayAfterRecovery(random, false);
    expect(delay).toBeGreaterThan(0);
    expect(delay).toBeLessThanOrEqual(MINUTE);
  });

  it.each(randoms)(
    'syncs within 15 s of recovery with the health probe (%s)',
    async (_, random) => {
      const delay = await delayAfterRecovery(random, true);
      expect(delay).toBeGreaterThan(0);
      expect(delay).toBeLessThanOrEqual(15_000);
    },
  );
});
