// Which user's database the service worker should drain, and whose unsynced changes are held
// behind their sign-in (session-end.ts, decision 023). The worker has no session state of its
// own: the page records the signed-in user here after sign-in and clears it on logout. It
// holds only user ids and names — no patient data — in a small database of its own.
import { Dexie, type Table } from 'dexie';
import { z } from 'zod';
import '../zod-config';
import type { IndexedDbDependencies } from './local-db';

export const DEVICE_DB_NAME = 'rescuelog-device';

const activeUserSchema = z.object({
  key: z.literal('active'),
  userId: z.number().int().positive(),
  since: z.string(),
});

/** A user whose session the server ended while changes of theirs still waited to sync: their
 * database stays, locked until they sign in again (decision 023). */
export const heldUserSchema = z.object({
  userId: z.number().int().positive(),
  /** How the sign-in prompt names them (full name, else email). */
  name: z.string().min(1).max(200),
  pending: z.number().int().nonnegative(),
  since: z.string(),
});
export type HeldUser = z.infer<typeof heldUserSchema>;

class DeviceDatabase extends Dexie {
  activeUser!: Table<{ key: string; [field: string]: unknown }, string>;
  heldUsers!: Table<{ userId: number; [field: string]: unknown }, number>;

  constructor(deps?: IndexedDbDependencies) {
    super(DEVICE_DB_NAME, deps ? (deps as ConstructorParameters<typeof Dexie>[1]) : undefined);
    this.version(1).stores({ activeUser: 'key' });
    this.version(2).stores({ heldUsers: 'userId' });
  }
}

async function withDeviceDb<T>(
  deps: IndexedDbDependencies | undefined,
  fn: (db: DeviceDatabase) => Promise<T>,
): Promise<T> {
  const db = new DeviceDatabase(deps);
  try {
    return await fn(db);
  } finally {
    db.close();
  }
}

export async function setActiveUser(userId: number, deps?: IndexedDbDependencies): Promise<void> {
  await withDeviceDb(deps, (db) =>
    db.activeUser.put({ key: 'active', userId, since: new Date().toISOString() }),
  );
}

export async function clearActiveUser(deps?: IndexedDbDependencies): Promise<void> {
  await withDeviceDb(deps, (db) => db.activeUser.delete('active'));
}

export async function getActiveUser(deps?: IndexedDbDependencies): Promise<number | null> {
  return withDeviceDb(deps, async (db) => {
    const parsed = activeUserSchema.safeParse(await db.activeUser.get('active'));
    return parsed.success ? parsed.data.userId : null;
  });
}

export async function holdUser(held: HeldUser, deps?: IndexedDbDependencies): Promise<void> {
  await withDeviceDb(deps, (db) => db.heldUsers.put(heldUserSchema.parse(held)));
}

export async function releaseHeldUser(userId: number, deps?: IndexedDbDependencies): Promise<void> {
  await withDeviceDb(deps, (db) => db.heldUsers.delete(userId));
}

/** The users whose changes are held, oldest first; a row that does not parse is skipped. */
export async function listHeldUsers(deps?: IndexedDbDependencies): Promise<HeldUser[]> {
  return withDeviceDb(deps, async (db) =>
    (await db.heldUsers.toArray())
      .map((row) => heldUserSchema.safeParse(row))
      .flatMap((parsed) => (parsed.success ? [parsed.data] : []))
      .sort((a, b) => a.since.localeCompare(b.since)),
  );
}
