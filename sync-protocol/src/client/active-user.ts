// Which user's database the service worker should drain. The worker has no session state of
// its own: the page records the signed-in user here after sign-in and clears it on logout.
// It holds only a user id — no patient data — in a small database of its own.
import { Dexie, type Table } from 'dexie';
import { z } from 'zod';
import type { IndexedDbDependencies } from './local-db';

export const DEVICE_DB_NAME = 'rescuelog-device';

const activeUserSchema = z.object({
  key: z.literal('active'),
  userId: z.number().int().positive(),
  since: z.string(),
});

class DeviceDatabase extends Dexie {
  activeUser!: Table<{ key: string; [field: string]: unknown }, string>;

  constructor(deps?: IndexedDbDependencies) {
    super(DEVICE_DB_NAME, deps ? (deps as ConstructorParameters<typeof Dexie>[1]) : undefined);
    this.version(1).stores({ activeUser: 'key' });
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
