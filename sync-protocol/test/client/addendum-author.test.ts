// The device signs its own pending addendum with the signed-in user's name and call sign
// (decision 011): the mutation carries no name (the server stamps the real one), so the local
// effect reads the profile the device remembered, and a rebuilt row (rebase after a pull or a
// rejection, also in the service worker) is signed again the same way.
import { IDBFactory, IDBKeyRange } from 'fake-indexeddb';
import { afterEach, describe, expect, it } from 'vitest';
import type { SyncDatabase } from '../../src/client/local-db';
import { rememberAuthor } from '../../src/client/device-store';
import { readLocalRecord } from '../../src/client/local-records';
import { saveMutation } from '../../src/client/outbox';
import { restoreFromServer } from '../../src/client/server-copies';
import { openAppDatabase } from '../../src/records/device';

const USER_ID = 7;
const opened: SyncDatabase[] = [];

function openDb(userId = USER_ID): SyncDatabase {
  const db = openAppDatabase(userId, { indexedDB: new IDBFactory(), IDBKeyRange });
  opened.push(db);
  return db;
}

afterEach(() => {
  for (const db of opened.splice(0)) db.close();
});

/** A completed case as the server sent it: the record an addendum corrects. */
async function completedCase(db: SyncDatabase): Promise<string> {
  const caseId = crypto.randomUUID();
  const data = {
    id: caseId,
    status: 'completed',
    approximateAge: 34,
    userId: db.userId,
    deletedAt: null,
  };
  await db.store('cases').put(data);
  await db.serverCopies.put({ id: caseId, table: 'cases', data, version: '5' });
  return caseId;
}

async function saveAddendum(
  db: SyncDatabase,
  caseId: string,
  actorUserId = db.userId,
): Promise<string> {
  const id = crypto.randomUUID();
  await saveMutation(db, {
    name: 'case.addendum',
    args: {
      id,
      caseId,
      reason: 'Age from ID',
      changes: [{ field: 'approximateAge', before: 34, after: 35 }],
    },
    baseVersion: null,
    actorUserId,
  });
  return id;
}

describe('the author of a pending addendum on the device', () => {
  it('is the signed-in user as the device knows them, offline, in the parsed local record', async () => {
    const db = openDb();
    await rememberAuthor(db, { fullName: 'Thandi Nkosi', callSign: 'Rescue 12' });
    const id = await saveAddendum(db, await completedCase(db));
    expect(await readLocalRecord(db, 'caseAddendum', id)).toMatchObject({
      userId: USER_ID,
      authorName: 'Thandi Nkosi',
      authorCallSign: 'Rescue 12',
    });
  });

  it('stays signed when the row is rebuilt from the server copy + pending outbox', async () => {
    const db = openDb();
    await rememberAuthor(db, { fullName: 'Thandi Nkosi', callSign: null });
    const caseId = await completedCase(db);
    const id = await saveAddendum(db, caseId);
    // What the drain does after a rejection of another change naming these records: reset to
    // the server's copy (the case; none yet for the addendum: removed) and replay what is
    // still pending.
    await db.transaction('rw', db.writeTables, async () => {
      await restoreFromServer(db, [caseId, id]);
    });
    expect(await readLocalRecord(db, 'caseAddendum', id)).toMatchObject({
      authorName: 'Thandi Nkosi',
      authorCallSign: null,
    });
  });

  it('is unnamed when the device knows no profile for the author (shown by user number, never a guess)', async () => {
    const db = openDb();
    const id = await saveAddendum(db, await completedCase(db));
    expect(await readLocalRecord(db, 'caseAddendum', id)).toMatchObject({
      userId: USER_ID,
      authorName: null,
      authorCallSign: null,
    });
  });
});
