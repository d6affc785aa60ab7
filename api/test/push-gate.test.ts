// Pushes that touch the same record wait for each other (its row is locked until a push
// commits, decision 033); decision 030 makes the pushes beyond SYNC_PUSHES_AT_ONCE wait in the
// instance (lib/gate.ts), and decision 042 runs the ones it lets in on a pool of their own, so
// a burst of pushes (a crew's devices coming back into signal together, all writing one case)
// cannot take a connection from the screens' reads. The gate itself: its limit, its order, and a failing
// task's slot.
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Gate } from '../src/lib/gate';
import {
  buildSyncApp,
  completeCaseFields,
  Device,
  newCase,
  syncUser,
  type SyncUser,
} from './sync-fixtures';
import type { TestApp } from './helpers';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('Gate', () => {
  it('runs at most its limit at once, the others in the order they came', async () => {
    const gate = new Gate(2);
    let running = 0;
    let most = 0;
    const started: number[] = [];
    const releases: Array<() => void> = [];
    const tasks = [0, 1, 2, 3, 4].map((i) =>
      gate.run(async () => {
        started.push(i);
        running += 1;
        most = Math.max(most, running);
        await new Promise<void>((resolve) => releases.push(resolve));
        running -= 1;
        return i;
      }),
    );
    await sleep(10);
    expect(started).toEqual([0, 1]);
    expect(gate.waiting).toBe(3);
    while (releases.length > 0) {
      releases.shift()?.();
      await sleep(5);
    }
    expect(await Promise.all(tasks)).toEqual([0, 1, 2, 3, 4]);
    expect(started).toEqual([0, 1, 2, 3, 4]);
    expect(most).toBe(2);
    expect(gate.running).toBe(0);
  });

  it('gives a failed task’s turn to the next one', async () => {
    const gate = new Gate(1);
    const failed = gate.run(() => Promise.reject(new Error('boom')));
    const next = gate.run(() => Promise.resolve('next'));
    await expect(failed).rejects.toThrow('boom');
    expect(await next).toBe('next');
    expect(gate.running).toBe(0);
  });
});

// The case's row is locked from another connection, which only a PostgreSQL server has (the
// embedded database is one connection).
describe.skipIf(process.env.DATABASE_URL === undefined)('pushes waiting for a record', () => {
  let t: TestApp;
  let responder: SyncUser;

  beforeAll(async () => {
    t = await buildSyncApp();
    responder = await syncUser(t);
  });
  afterAll(() => t.close());

  it('leave the pool to the reads: the stats answer while more pushes wait than the pool has connections', async () => {
    // One of the test pool's 5 connections holds the case's row until told; 8 pushes of it
    // (each from its own device) then wait for it.
    const shared = await newCase(new Device(responder));
    let release = (): void => undefined;
    const released = new Promise<void>((resolve) => {
      release = resolve;
    });
    let locked = (): void => undefined;
    const isLocked = new Promise<void>((resolve) => {
      locked = resolve;
    });
    const holder = t.db.connection().execute(async (conn) => {
      await sql`begin`.execute(conn);
      await sql`select id from cases where id = ${shared.id} for update`.execute(conn);
      locked();
      await released;
      await sql`commit`.execute(conn);
    });
    let pushes: Array<Promise<Response>> = [];
    try {
      await isLocked;
      pushes = Array.from({ length: 8 }, () => {
        const device = new Device(responder);
        return device.pushRaw([
          device.m('case.upsert', {
            id: shared.id,
            humanId: shared.caseId,
            fields: completeCaseFields({ patientName: `Patient ${device.deviceId}` }),
          }),
        ]);
      });
      await sleep(300);
      const stats = await Promise.race([
        responder.client.get('/api/stats').then((res) => res.status),
        sleep(3000).then(() => 'still waiting after 3 s'),
      ]);
      expect(stats).toBe(200);
    } finally {
      release();
      await holder;
    }
    const answers = await Promise.all(pushes);
    expect(answers.map((res) => res.status)).toEqual(Array(8).fill(200));
  });
});
