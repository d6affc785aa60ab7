// A device's pull after what its user may see changed (an administrator's grant): the server
// sends only changes after the device's cursor, so records the grant opens that are older
// than the cursor reach the device only because the pull starts over when the user's access
// key (client/pull.ts accessKeyOf, from GET /api/user) differs from the one its cursor was
// taken under. The client engine's pull against the real API; fake-indexeddb on the device.
import { IDBFactory, IDBKeyRange } from 'fake-indexeddb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SyncDatabase } from '@rescuelog/sync-protocol/client/local-db';
import { readLocalRecord } from '@rescuelog/sync-protocol/client/local-records';
import { readPullState } from '@rescuelog/sync-protocol/client/outbox';
import { accessKeyOf, pullChanges } from '@rescuelog/sync-protocol/client/pull';
import { openAppDatabase } from '@rescuelog/sync-protocol/records/device';
import { currentUserResponseSchema } from '@rescuelog/sync-protocol/accounts/users';
import { build, type TestApp } from './helpers';
import {
  Device,
  ensureSyncSchema,
  humanId,
  OWN_CASES_ONLY,
  RESPONDER,
  setPermissions,
  syncUser,
  transportAs,
  uuid,
  type SyncUser,
} from './sync-fixtures';

let t: TestApp;
let alice: SyncUser;
let member: SyncUser;
let db: SyncDatabase;

beforeAll(async () => {
  t = await build();
  await ensureSyncSchema(t);
  alice = await syncUser(t);
  member = await syncUser(t, OWN_CASES_ONLY);
  db = openAppDatabase(member.id, { indexedDB: new IDBFactory(), IDBKeyRange });
});

afterAll(async () => {
  db.close();
  await t.close();
});

/** The member's access key as the app computes it: from the server's answer to GET /api/user. */
async function accessKey(): Promise<string> {
  const res = await member.client.get('/api/user');
  expect(res.status).toBe(200);
  return accessKeyOf(currentUserResponseSchema.parse(await res.json()).user);
}

async function newCase(owner: SyncUser, patientName: string): Promise<string> {
  const device = new Device(owner);
  const id = uuid();
  const res = await device.push(
    device.m('case.upsert', { id, humanId: humanId('C'), fields: { patientName } }),
  );
  expect(res.results[0]?.status).toBe('applied');
  return id;
}

async function pull(): Promise<void> {
  const outcome = await pullChanges({
    db,
    transport: transportAs(member),
    accessKey: await accessKey(),
  });
  expect(outcome.kind).toBe('pulled');
}

describe('a pull after a grant', () => {
  it("brings the colleague's cases the grant opens, older than the device's cursor", async () => {
    // Alice's case first, then the member's own: the member's cursor ends past Alice's case.
    const hers = await newCase(alice, 'Older than the cursor');
    const mine = await newCase(member, 'Mine');
    await pull();
    expect(await readLocalRecord(db, 'case', mine)).toBeDefined();
    expect(await readLocalRecord(db, 'case', hers)).toBeUndefined();
    const before = await readPullState(db);
    expect(before.cursor).not.toBeNull();

    // The administrator grants Cases Logged view.
    await setPermissions(t, member.id, RESPONDER);
    await pull();
    expect((await readLocalRecord(db, 'case', hers))?.patientName).toBe('Older than the cursor');
    expect((await readPullState(db)).cursor).toBe(before.cursor);
  });

  it('keeps the cursor while the access is the same: nothing is sent again', async () => {
    const { cursor } = await readPullState(db);
    const outcome = await pullChanges({
      db,
      transport: transportAs(member),
      accessKey: await accessKey(),
    });
    expect(outcome).toEqual({ kind: 'pulled', changes: 0 });
    expect((await readPullState(db)).cursor).toBe(cursor);
  });
});
