// What the device does once the server has confirmed that a user's session is over (a 401
// from our API: timeout, logout elsewhere, password change; never a mere network failure).
// ASVS 14.3 and decision 023: with nothing waiting to sync, the user's database is deleted,
// so the next person on a shared tablet finds no patient data; with changes still waiting,
// nothing is lost: the database stays and is marked held, and the app opens it again only
// for that user's own sign-in. Framework-free, like the rest of client/ (page and tests).
import { z } from 'zod';
import '../zod-config';
import {
  clearActiveUser,
  getActiveUser,
  heldUserSchema,
  holdUser,
  releaseHeldUser,
  setActiveUser,
} from './active-user';
import type { LockManagerLike } from './drain-lock';
import { MAX_ENDING_USERS } from './ending-users';
import { syncDatabaseExists, type IndexedDbDependencies, type SyncDatabase } from './local-db';
import { pendingCount } from './outbox';
import { withSessionEndLock } from './session-end-lock';

/** One user in the page's mark of unfinished ends (ending-users.ts). */
export const endingUserSchema = heldUserSchema.pick({ name: true }).extend({
  id: heldUserSchema.shape.userId,
});
export type EndingUser = z.infer<typeof endingUserSchema>;

/**
 * The whole mark, oldest first: a list (an entry that does not parse is skipped), or the one
 * user a build before the list wrote. One entry per id (the last), at most MAX_ENDING_USERS.
 */
export const endingUsersSchema = z
  .union([z.array(z.unknown()), endingUserSchema.transform((user) => [user])])
  .transform((entries): EndingUser[] => {
    const byId = new Map<number, EndingUser>();
    for (const entry of entries) {
      const parsed = endingUserSchema.safeParse(entry);
      if (!parsed.success) continue;
      byId.delete(parsed.data.id);
      byId.set(parsed.data.id, parsed.data);
    }
    return [...byId.values()].slice(-MAX_ENDING_USERS);
  });

export type SessionEndOutcome = { kind: 'cleared' } | { kind: 'held'; pending: number };

export interface SessionEndOptions {
  /** How the sign-in prompt names the user whose changes are held. */
  name: string;
  /** Delete the database even with changes waiting: the user's own choice at logout
   * ("Delete them and log out"). */
  wipe?: boolean;
  deps?: IndexedDbDependencies;
  /** navigator.locks by default (session-end-lock.ts). */
  locks?: LockManagerLike;
  now?: Date;
}

/**
 * Clears or holds `db` (the ended session's user database). The caller has stopped every
 * drainer and screen using it on this page first; `db` is closed afterwards either way.
 * Runs under the exclusive session-end lock, so the worker never opens the database half-way
 * and two ends of the same session run one after the other. An end that finds the database
 * already deleted (by an earlier end or a wipe) creates nothing and leaves no hold behind:
 * a hold always names a database that exists.
 */
export function endDeviceSession(
  db: SyncDatabase,
  options: SessionEndOptions,
): Promise<SessionEndOutcome> {
  return withSessionEndLock(
    'exclusive',
    async () => {
      const userId = db.userId;
      // The worker must not drain this database under whoever signs in next.
      if ((await getActiveUser(options.deps)) === userId) await clearActiveUser(options.deps);
      // Counting what waits would open, and so create, a database already deleted.
      const exists = db.isOpen() || (await syncDatabaseExists(userId, options.deps));
      const pending = exists && options.wipe !== true ? await pendingCount(db) : 0;
      if (pending === 0) {
        if (exists) await db.delete();
        db.close();
        await releaseHeldUser(userId, options.deps);
        return { kind: 'cleared' };
      }
      db.close();
      await holdUser(
        {
          userId,
          name: options.name.slice(0, 200) || `User ${String(userId)}`,
          pending,
          since: (options.now ?? new Date()).toISOString(),
        },
        options.deps,
      );
      return { kind: 'held', pending };
    },
    options.locks,
  );
}

/**
 * The user signed in on this device: their database (held or not) is theirs to open and sync
 * again, and the worker drains it from now on. Anyone else's hold is left as it is. Under the
 * same lock as the end, so an end running meanwhile is not undone half-way.
 */
export function resumeDeviceSession(
  userId: number,
  deps?: IndexedDbDependencies,
  locks?: LockManagerLike,
): Promise<void> {
  return withSessionEndLock(
    'exclusive',
    async () => {
      await releaseHeldUser(userId, deps);
      await setActiveUser(userId, deps);
    },
    locks,
  );
}
