// The chaos spec's test page script (bundled by esbuild when the spec starts): the client
// sync engine from sync-protocol/src/client — the same code the app and its service worker
// run — over the browser's real IndexedDB, fetch, cookies and Web Locks, with a small API
// on window for the spec. There are no case screens yet, so this page stands in for them.
import { drainOutbox } from '@rescuelog/sync-protocol/client/drain';
import type { SyncDatabase } from '@rescuelog/sync-protocol/client/local-db';
import {
  pendingCount,
  readOutbox,
  readRejections,
  saveMutation,
} from '@rescuelog/sync-protocol/client/outbox';
import { pullChanges } from '@rescuelog/sync-protocol/client/pull';
import { SyncEngine, type SyncStatus } from '@rescuelog/sync-protocol/client/sync-engine';
import {
  createFetchTransport,
  type SyncTransport,
} from '@rescuelog/sync-protocol/client/transport';
import { generateHumanId } from '@rescuelog/sync-protocol/platform/human-id';
import { openAppDatabase } from '@rescuelog/sync-protocol/records/device';

export interface ChaosPageApi {
  start(userId: number): void;
  /** The database only, no engine (the benchmark drives the drain itself). */
  open(userId: number): void;
  /** One drain with this batch size; ms taken (requestMs of it waiting for the server's
   * answers, the rest on the device) and mutations acknowledged. */
  drain(
    batchSize: number,
  ): Promise<{ ms: number; requestMs: number; acknowledged: number; kind: string }>;
  save(patientName: string): Promise<string>;
  pending(): Promise<number>;
  maxAttempts(): Promise<number>;
  rejections(): Promise<number>;
  status(): SyncStatus;
  syncNow(): Promise<SyncStatus>;
  /** Times one local save (domain row + outbox entry) in ms, for the benchmark. */
  timeSave(patientName: string): Promise<number>;
  /** A new device's pull of everything (the user's database deleted first, then pulled in
   * pages of `limit`): ms taken (requestMs of it waiting for the server) and rows. */
  freshPull(limit: number): Promise<{ ms: number; requestMs: number; rows: number }>;
}

let db: SyncDatabase | null = null;
let engine: SyncEngine | null = null;
let userId = 0;

function need<T>(value: T | null): T {
  if (value === null) throw new Error('call chaos.start(userId) first');
  return value;
}

async function saveCase(patientName: string): Promise<string> {
  const id = crypto.randomUUID();
  await saveMutation(need(db), {
    name: 'case.upsert',
    args: {
      id,
      humanId: generateHumanId('C'),
      fields: { patientName, incidentType: 'Chaos test' },
    },
    baseVersion: null,
    actorUserId: userId,
  });
  return id;
}

/** The fetch transport, adding up the time spent waiting for the server's answers. */
function timedTransport(): SyncTransport & { requestMs(): number } {
  const fetchTransport = createFetchTransport();
  let requestMs = 0;
  return {
    async post(path, body) {
      const sent = performance.now();
      try {
        return await fetchTransport.post(path, body);
      } finally {
        requestMs += performance.now() - sent;
      }
    },
    requestMs: () => requestMs,
  };
}

const api: ChaosPageApi = {
  start(id) {
    userId = id;
    db = openAppDatabase(id);
    // Short timeout and backoff so a hung request and retries fit in a test.
    engine = new SyncEngine({
      db,
      transport: createFetchTransport({ timeoutMs: 2_000 }),
      backoff: { baseMs: 250, maxMs: 1_500 },
    });
    void engine.sync('app-start');
  },
  open(id) {
    userId = id;
    db = openAppDatabase(id);
  },
  async drain(batchSize) {
    const timed = timedTransport();
    const started = performance.now();
    const outcome = await drainOutbox({ db: need(db), transport: timed, batchSize });
    return {
      ms: performance.now() - started,
      requestMs: timed.requestMs(),
      acknowledged:
        outcome.kind === 'retry' || outcome.kind === 'drained' ? outcome.acknowledged : 0,
      kind: outcome.kind,
    };
  },
  async save(patientName) {
    const id = await saveCase(patientName).catch((error: unknown) => {
      // Dexie's errors do not survive page.evaluate's serialisation; say what happened.
      const e = error as {
        name?: string;
        message?: string;
        inner?: { name?: string; message?: string };
      };
      throw new Error(
        `${e.name ?? 'Error'}: ${e.message ?? String(error)}${e.inner ? ` (${e.inner.name ?? ''}: ${e.inner.message ?? ''})` : ''}`,
      );
    });
    void need(engine).sync('local-change');
    return id;
  },
  pending: () => pendingCount(need(db)),
  maxAttempts: async () => Math.max(0, ...(await readOutbox(need(db))).map((e) => e.attempts)),
  rejections: async () => (await readRejections(need(db))).length,
  status: () => need(engine).getStatus(),
  syncNow: () => need(engine).sync('manual'),
  async timeSave(patientName) {
    const started = performance.now();
    await saveCase(patientName);
    return performance.now() - started;
  },
  async freshPull(limit) {
    need(db).close();
    await openAppDatabase(userId).delete();
    db = openAppDatabase(userId);
    const timed = timedTransport();
    const started = performance.now();
    const outcome = await pullChanges({ db, transport: timed, limit });
    if (outcome.kind !== 'pulled') throw new Error(`pull: ${outcome.kind}`);
    return { ms: performance.now() - started, requestMs: timed.requestMs(), rows: outcome.changes };
  },
};

(globalThis as unknown as { chaos: ChaosPageApi }).chaos = api;
