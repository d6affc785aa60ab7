// Under load every request that needs the database waits for a pooled connection, in the
// order it asked. A sync pull or push must wait there once: a pull runs its statements on
// the connection it waited for, and neither route reads the auth cache's epoch after its
// answer (they change no user, role or session, so there is nothing to catch up on;
// decision 026's catch-up is for the routes that do; decision 039). Each test holds the route at its first statement, lets requests that
// came after it take every other connection of the pool (they wait for a table lock), lets
// the route go on, and expects its answer while the later requests still wait. Only a
// PostgreSQL server has a pool (the embedded database is one connection). A push runs on the
// pushes' own pool (decision 042): it answers even when the screens' pool has nothing left.
import { sql, type Transaction } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '@rescuelog/db/schema';
import { PROTOCOL_VERSION, SCHEMA_VERSION } from '@rescuelog/sync-protocol/platform/versions';
import type { TestApp } from './helpers';
import {
  buildSyncApp,
  Device,
  humanId,
  newCase,
  OWN_CASES_ONLY,
  pull,
  syncUser,
  type SyncUser,
  uuid,
} from './sync-fixtures';

const onPostgres = process.env.DATABASE_URL !== undefined;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe.skipIf(!onPostgres)('a sync route under a full pool', () => {
  let t: TestApp;
  let alice: SyncUser;
  let bob: SyncUser;
  let carol: SyncUser;

  beforeAll(async () => {
    // The cache polls nothing during a test, and never turns itself off: with a starved pool
    // its poll would stall and, after the stale bound, skip the catch-up on its own.
    t = await buildSyncApp({ authCache: { pollMs: 3_600_000, staleBoundMs: 3_600_000 } });
    alice = await syncUser(t);
    bob = await syncUser(t);
    carol = await syncUser(t, OWN_CASES_ONLY);
  });
  afterAll(() => t.close());

  /** A transaction on one of the pool's connections that `open` set up, held until released. */
  async function holdOpen(open: (tx: Transaction<Database>) => Promise<void>) {
    let done = (): void => undefined;
    const finished = new Promise<void>((resolve) => {
      done = resolve;
    });
    let opened = (_tx: Transaction<Database>): void => undefined;
    const ready = new Promise<Transaction<Database>>((resolve) => {
      opened = resolve;
    });
    const holder = t.db
      .transaction()
      .execute(async (tx) => {
        await open(tx);
        opened(tx);
        await finished;
        throw new Error('rolled back');
      })
      .catch(() => undefined);
    const tx = await ready;
    return {
      tx,
      release: async () => {
        done();
        await holder;
      },
    };
  }

  /**
   * Until `n` statements of this database wait for a lock; asked on a held connection (`tx`),
   * since the pool may have none to spare.
   */
  async function waitForLockWaits(tx: Transaction<Database>, n: number): Promise<void> {
    for (let i = 0; ; i++) {
      // A transaction keeps its first look at the activity unless told to look again.
      await sql`select pg_stat_clear_snapshot()`.execute(tx);
      const { rows } = await sql<{ n: number }>`select count(*)::int as n from pg_stat_activity
        where datname = current_database() and wait_event_type = 'Lock'`.execute(tx);
      if ((rows[0]?.n ?? 0) >= n) return;
      if (i > 300) throw new Error(`Fewer than ${String(n)} statements ever waited for a lock`);
      await sleep(10);
    }
  }

  /**
   * Runs `route` (held at its first statement by `holdRoute`), then takes the rest of the test
   * pool's 5 connections with unread counts that wait for a lock, then lets the route go on:
   * whether it answered while they still wait.
   */
  async function answersBeforeLaterRequests(
    holdRoute: (tx: Transaction<Database>) => Promise<void>,
    route: () => Promise<Response>,
  ): Promise<{ answered: boolean; status: number }> {
    const heldRoute = await holdOpen(holdRoute);
    const heldInbox = await holdOpen(async (tx) => {
      await sql`lock table notification_deliveries in access exclusive mode`.execute(tx);
    });
    let later: Array<Promise<Response>> = [];
    try {
      const answer = route();
      await waitForLockWaits(heldInbox.tx, 1);
      // The pool's 5: the two holders, the route's, and two unread counts; four more wait for
      // a connection (the route's holder and the route itself each give one back first).
      later = Array.from({ length: 6 }, () =>
        bob.client.get('/api/user/notifications/unread-count'),
      );
      await waitForLockWaits(heldInbox.tx, 3);
      await heldRoute.release();
      const outcome = await Promise.race([
        answer.then((res) => ({ answered: true, status: res.status })),
        sleep(3_000).then(() => ({ answered: false, status: 0 })),
      ]);
      await heldInbox.release();
      await answer;
      return outcome;
    } finally {
      await heldRoute.release();
      await heldInbox.release();
      for (const res of await Promise.all(later)) expect(res.status).toBe(200);
    }
  }

  it('a push answers while the screens hold every connection of their pool (decision 042)', async () => {
    const device = new Device(alice);
    await newCase(device);
    // The test pool's 5 connections, each in a transaction held open.
    const held = await Promise.all(Array.from({ length: 5 }, () => holdOpen(async () => {})));
    try {
      const answer = await Promise.race([
        device
          .pushRaw([device.m('case.upsert', { id: uuid(), humanId: humanId('C'), fields: {} })])
          .then((res) => res.status),
        sleep(3_000).then(() => 'still waiting after 3 s'),
      ]);
      expect(answer).toBe(200);
    } finally {
      await Promise.all(held.map((h) => h.release()));
    }
  });

  it('a pull answers while requests that came after it hold the rest of the pool', async () => {
    // Up to date: the pull is one statement, the horizon.
    const start = await pull(alice.client, null);
    const outcome = await answersBeforeLaterRequests(
      async (tx) => {
        // The horizon reads the sequence, which ALTER SEQUENCE … OWNER locks.
        await sql`alter sequence sync_version_seq owner to current_user`.execute(tx);
      },
      () =>
        alice.client.post('/api/sync/pull', {
          protocolVersion: PROTOCOL_VERSION,
          schemaVersion: SCHEMA_VERSION,
          deviceId: uuid(),
          cursor: start.cursor,
        }),
    );
    expect(outcome).toEqual({ answered: true, status: 200 });
  });

  it('a pull of two statements runs both on the connection it waited for', async () => {
    const start = await pull(carol.client, null);
    // A change Carol does not see: her pull reads the horizon, then which kinds have a change
    // for her (none): two statements (pull-service.ts).
    await newCase(new Device(bob));
    const outcome = await answersBeforeLaterRequests(
      async (tx) => {
        await sql`alter sequence sync_version_seq owner to current_user`.execute(tx);
      },
      () =>
        carol.client.post('/api/sync/pull', {
          protocolVersion: PROTOCOL_VERSION,
          schemaVersion: SCHEMA_VERSION,
          deviceId: uuid(),
          cursor: start.cursor,
        }),
    );
    expect(outcome).toEqual({ answered: true, status: 200 });
  });

  it('a push answers while requests that came after it hold the rest of the pool', async () => {
    const device = new Device(alice);
    await newCase(device);
    const outcome = await answersBeforeLaterRequests(
      async (tx) => {
        // The push's first statement locks its device's row.
        await sql`select 1 from devices where device_id = ${device.deviceId} for update`.execute(
          tx,
        );
      },
      () =>
        device.pushRaw([
          device.m('case.upsert', { id: uuid(), humanId: humanId('C'), fields: {} }),
        ]),
    );
    expect(outcome).toEqual({ answered: true, status: 200 });
  });
});
