// Issue 37: the changes the app counts as waiting to sync are the changes people made; a
// record that someone viewed a case (case.access, for the audit log) waits in the outbox too
// but is not a change. Opening a case twice and editing one field is one change, not three.
import { IDBFactory, IDBKeyRange } from 'fake-indexeddb';
import { afterEach, describe, expect, it } from 'vitest';
import type { SyncDatabase } from '../../src/client/local-db';
import { pendingChangeCount, pendingCount, saveMutation } from '../../src/client/outbox';
import { generateHumanId } from '../../src/platform/human-id';
import { openAppDatabase } from '../../src/records/device';

const USER_ID = 7;
const opened: SyncDatabase[] = [];
afterEach(() => {
  for (const db of opened.splice(0)) db.close();
});

describe('changes waiting to sync', () => {
  it('counts changes to records, not records of who viewed them', async () => {
    const db = openAppDatabase(USER_ID, { indexedDB: new IDBFactory(), IDBKeyRange });
    opened.push(db);
    const id = crypto.randomUUID();
    await saveMutation(db, {
      name: 'case.upsert',
      args: { id, humanId: generateHumanId('C'), fields: { patientName: 'Thabo' } },
      baseVersion: null,
      actorUserId: USER_ID,
    });
    for (let view = 0; view < 2; view += 1)
      await saveMutation(db, {
        name: 'case.access',
        args: { id: crypto.randomUUID(), caseId: id, action: 'view' },
        baseVersion: null,
        actorUserId: USER_ID,
      });
    expect(await pendingChangeCount(db)).toBe(1);
    // Ending a session still keeps every entry, access records included.
    expect(await pendingCount(db)).toBe(3);
  });
});
