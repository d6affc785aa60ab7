// The cache's own safety rules (lib/auth-cache.ts), with a notification source the test
// drives: it serves nothing until the epoch is confirmed, nothing while not listening, drops
// everything on an epoch gap, and keeps no entry read before a change it has heard of, also
// across a reconnect.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyBaseLogger } from 'fastify';
import { sql, type Kysely } from 'kysely';
import type { Database } from '@rescuelog/db/schema';
import { createTestDatabase, type TestDatabaseHandle } from '@rescuelog/db/testing';
import { registerNotificationSource, type NotificationHandlers } from '@rescuelog/db/notifications';
import { AuthCache } from '../src/lib/auth-cache';

const silent = {
  info: () => undefined,
  warn: () => undefined,
} as unknown as FastifyBaseLogger;

describe('AuthCache', () => {
  let handle: TestDatabaseHandle;
  let handlers: NotificationHandlers | undefined;

  beforeAll(async () => {
    handle = await createTestDatabase();
    // These cases speak in epochs from 0 (the values the notifications below carry); the
    // migrations may already have moved it (a seeded role changed on a new system).
    await sql`update auth_epoch set epoch = 0`.execute(handle.db);
    registerNotificationSource(handle.db, {
      subscribe(_channel, given) {
        handlers = given;
        given.onListening();
        return Promise.resolve(() => Promise.resolve());
      },
    });
  });

  afterAll(async () => {
    await handle.close();
  });

  async function started(): Promise<AuthCache<{ userId: number }, string>> {
    const cache = new AuthCache<{ userId: number }, string>(handle.db, silent, {
      pollMs: 60_000,
      staleBoundMs: 60_000,
    });
    await cache.start();
    return cache;
  }

  it('serves what it stored until a notification names it', async () => {
    const cache = await started();
    cache.putUser(1, 'one', '0');
    cache.putUser(2, 'two', '0');
    expect(cache.user(1)).toBe('one');
    handlers?.onNotification('1:u:1');
    expect(cache.user(1)).toBeUndefined();
    expect(cache.user(2)).toBe('two');
    await cache.stop();
  });

  it('serves nothing while the listener is lost, and starts empty when it is back', async () => {
    const cache = await started();
    cache.putSession('sid', { userId: 5 }, '0');
    expect(cache.session('sid')).toEqual({ userId: 5 });
    handlers?.onLost(new Error('connection reset'));
    expect(cache.session('sid')).toBeUndefined();
    cache.putSession('sid', { userId: 5 }, '0');
    expect(cache.session('sid')).toBeUndefined();
    handlers?.onListening();
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(cache.session('sid')).toBeUndefined();
    await cache.stop();
  });

  it('drops everything when an epoch was skipped (a missed notification)', async () => {
    const cache = await started();
    cache.putUser(1, 'one', '0');
    cache.putSession('a', { userId: 9 }, '0');
    handlers?.onNotification('3:u:2'); // epoch 1 and 2 never arrived
    expect(cache.user(1)).toBeUndefined();
    expect(cache.session('a')).toBeUndefined();
    await cache.stop();
  });

  it('keeps no entry read before a change it has heard of', async () => {
    const cache = await started();
    handlers?.onNotification('1:s:4');
    cache.putUser(4, 'read at epoch 0', '0');
    expect(cache.user(4)).toBeUndefined();
    cache.putUser(4, 'read at epoch 1', '1');
    expect(cache.user(4)).toBe('read at epoch 1');
    await cache.stop();
  });

  it('drops every user when a role changed, and sessions by their user', async () => {
    const cache = await started();
    cache.putUser(1, 'one', '0');
    cache.putSession('x', { userId: 1 }, '0');
    cache.putSession('y', { userId: 2 }, '0');
    handlers?.onNotification('1:*:');
    expect(cache.user(1)).toBeUndefined();
    expect(cache.session('x')).toEqual({ userId: 1 });
    handlers?.onNotification('2:s:1');
    expect(cache.session('x')).toBeUndefined();
    expect(cache.session('y')).toEqual({ userId: 2 });
    await cache.stop();
  });
});

// A reconnect while an epoch read is in flight: the read's snapshot may predate changes that
// committed before the new LISTEN (never notified) or after it (notified while the cache
// waits for that read). The epoch read is held back here (a Kysely plugin that delays its
// result), so the interleaving is the same on every run and on both databases.
describe('AuthCache across a reconnect', () => {
  let handle: TestDatabaseHandle;
  let handlers: NotificationHandlers | undefined;
  /** While set, the cache's epoch reads are answered only when `release` resolves it. */
  let held: { reached: () => void; release: Promise<void> } | undefined;
  let db: Kysely<Database>;

  beforeAll(async () => {
    handle = await createTestDatabase();
    db = handle.db.withPlugin({
      transformQuery: (args) => args.node,
      transformResult: async (args) => {
        const gate = held;
        if (gate) {
          gate.reached();
          await gate.release;
        }
        return args.result;
      },
    });
    registerNotificationSource(db, {
      subscribe(_channel, given) {
        handlers = given;
        given.onListening();
        return Promise.resolve(() => Promise.resolve());
      },
    });
  });

  afterAll(async () => {
    await handle.close();
  });

  async function epochNow(): Promise<number> {
    const row = await sql<{ epoch: string }>`select epoch::text as epoch from auth_epoch`.execute(
      handle.db,
    );
    return Number(row.rows[0]?.epoch);
  }

  /** Committed as the triggers would (one more epoch); the caller decides who hears of it. */
  async function change(): Promise<number> {
    await sql`update auth_epoch set epoch = epoch + 1`.execute(handle.db);
    return epochNow();
  }

  /** Holds the cache's next epoch read after the database answered it, until `release()`. */
  function hold(): { reached: Promise<void>; release: () => void } {
    let reached = (): void => undefined;
    let release = (): void => undefined;
    const reachedPromise = new Promise<void>((resolve) => (reached = resolve));
    const released = new Promise<void>((resolve) => (release = resolve));
    held = { reached, release: released };
    return {
      reached: reachedPromise,
      release: () => {
        held = undefined;
        release();
      },
    };
  }

  async function reconnecting(): Promise<{
    cache: AuthCache<{ userId: number }, string>;
    before: number;
    release: () => void;
  }> {
    const cache = new AuthCache<{ userId: number }, string>(db, silent, {
      pollMs: 60_000,
      staleBoundMs: 60_000,
    });
    await cache.start();
    const before = await epochNow();
    expect(cache.usable()).toBe(true);
    // The connection drops and comes back: the cache starts an epoch read, held here.
    handlers?.onLost(new Error('connection reset'));
    const gate = hold();
    handlers?.onListening();
    // The read has been answered by the database (its snapshot saw `before`), not yet seen.
    await gate.reached;
    return { cache, before, release: gate.release };
  }

  it('a change notified while the first epoch read is in flight is not lost', async () => {
    const { cache, before, release } = await reconnecting();
    // A user changes after the read's snapshot; its notification arrives before the read.
    const changed = await change();
    handlers?.onNotification(`${String(changed)}:u:7`);
    release();
    await expect.poll(() => cache.usable()).toBe(true);
    // A load of user 7 that read the row before that change must not be kept.
    cache.putUser(7, 'read before the change', String(before));
    expect(cache.user(7)).toBeUndefined();
    cache.putUser(7, 'read after the change', String(changed));
    expect(cache.user(7)).toBe('read after the change');
    await cache.stop();
  });

  it('an epoch read begun before a reconnect does not vouch for the cache after it', async () => {
    const { cache, before, release } = await reconnecting();
    // The connection drops again and a user changes while nobody listens (no notification);
    // then it comes back while the first read is still in flight.
    handlers?.onLost(new Error('connection reset'));
    const changed = await change();
    handlers?.onListening();
    release();
    await expect.poll(() => cache.usable()).toBe(true);
    cache.putUser(7, 'read before the change', String(before));
    expect(cache.user(7)).toBeUndefined();
    cache.putUser(7, 'read after the change', String(changed));
    expect(cache.user(7)).toBe('read after the change');
    await cache.stop();
  });
});
