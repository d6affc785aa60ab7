// One drainer at a time across tabs and the service worker. With the Web Locks API (every
// current browser) an exclusive lock named DRAIN_LOCK_NAME; without it, a lease row in the
// user's database (expiring, so a killed tab cannot hold it forever) plus an in-process
// flag. Two drainers would not corrupt anything (the server dedups by seq) but would send
// every batch twice.
import type { SyncDatabase } from './local-db';

export const DRAIN_LOCK_NAME = 'rescuelog-sync-drain';

/** The subset of navigator.locks we use (typed here so the code compiles in Node too). The
 * callback gets null when `ifAvailable` is set and the lock is taken. `mode` defaults to
 * 'exclusive', as in the Web Locks API (session-end-lock.ts takes it shared). */
export interface LockManagerLike {
  request<T>(
    name: string,
    options: { ifAvailable?: boolean; mode?: 'shared' | 'exclusive' },
    callback: (lock: unknown) => Promise<T> | T,
  ): Promise<T>;
}

export type LockResult<T> = { acquired: true; value: T } | { acquired: false };

export interface DrainLock {
  /** Runs fn while holding the lock, or returns { acquired: false } at once if another
   * drainer holds it (the holder drains until the outbox is empty, so nothing waits). */
  run<T>(fn: () => Promise<T>): Promise<LockResult<T>>;
}

export function webLocksFromGlobal(): LockManagerLike | undefined {
  const nav = (globalThis as { navigator?: { locks?: LockManagerLike } }).navigator;
  return nav?.locks && typeof nav.locks.request === 'function' ? nav.locks : undefined;
}

export function createWebLock(locks: LockManagerLike): DrainLock {
  return {
    async run<T>(fn: () => Promise<T>): Promise<LockResult<T>> {
      return locks.request<LockResult<T>>(DRAIN_LOCK_NAME, { ifAvailable: true }, async (lock) => {
        if (lock === null) return { acquired: false };
        return { acquired: true, value: await fn() };
      });
    },
  };
}

export interface LeaseLockOptions {
  leaseMs?: number;
  now?: () => number;
  owner?: string;
}

/** Fallback without Web Locks: a lease in syncState, renewed while the drain runs. */
export function createLeaseLock(db: SyncDatabase, options: LeaseLockOptions = {}): DrainLock {
  const leaseMs = options.leaseMs ?? 60_000;
  const now = options.now ?? Date.now;
  const owner = options.owner ?? globalThis.crypto.randomUUID();
  // The lease lets its own owner back in, so re-entry by this instance is refused here.
  let running = false;

  async function tryTake(): Promise<boolean> {
    return db.transaction('rw', db.syncState, async () => {
      const lease = await db.syncState.get('drainLease');
      const holder = typeof lease?.owner === 'string' ? lease.owner : null;
      const expiresAt = typeof lease?.expiresAt === 'number' ? lease.expiresAt : 0;
      if (holder !== null && holder !== owner && expiresAt > now()) return false;
      await db.syncState.put({ key: 'drainLease', owner, expiresAt: now() + leaseMs });
      return true;
    });
  }

  async function release(): Promise<void> {
    await db.transaction('rw', db.syncState, async () => {
      const lease = await db.syncState.get('drainLease');
      if (lease?.owner === owner) await db.syncState.delete('drainLease');
    });
  }

  return {
    async run<T>(fn: () => Promise<T>): Promise<LockResult<T>> {
      if (running) return { acquired: false };
      running = true;
      try {
        if (!(await tryTake())) return { acquired: false };
        const renew = setInterval(
          () => void tryTake().catch(() => undefined),
          Math.max(1000, leaseMs / 3),
        );
        try {
          return { acquired: true, value: await fn() };
        } finally {
          clearInterval(renew);
          await release();
        }
      } finally {
        running = false;
      }
    },
  };
}

/** Web Locks when the platform has them, else the lease. */
export function createDrainLock(
  db: SyncDatabase,
  locks: LockManagerLike | undefined = webLocksFromGlobal(),
): DrainLock {
  return locks ? createWebLock(locks) : createLeaseLock(db);
}
