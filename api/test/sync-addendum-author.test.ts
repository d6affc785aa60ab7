// An addendum names its author like a signature (docs/decisions/011): the server stamps the
// acting user's name and call sign from its users when it applies `case.addendum`, never a
// value the device sent; the pull, the push answer, GET /api/cases/:caseId and the FHIR
// export carry them, so another device shows them offline. Over real HTTP, real database.
import type { Bundle, Provenance } from '@medplum/fhirtypes';
import { IDBFactory, IDBKeyRange } from 'fake-indexeddb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { caseRecordResponseSchema } from '@rescuelog/sync-protocol/cases/api';
import { drainOutbox } from '@rescuelog/sync-protocol/client/drain';
import { rememberAuthor } from '@rescuelog/sync-protocol/client/device-store';
import { saveMutation } from '@rescuelog/sync-protocol/client/outbox';
import { pullChanges } from '@rescuelog/sync-protocol/client/pull';
import type { MutationEnvelope as Mutation } from '@rescuelog/sync-protocol/platform/envelope';
import { RejectionCode } from '@rescuelog/sync-protocol/platform/rejections';
import type { TestApp } from './helpers';
import {
  Device,
  buildSyncApp,
  completedCase,
  pullAll,
  syncUser,
  transportAs,
  uuid,
  type SyncUser,
} from './sync-fixtures';
import { openAppDatabase } from '@rescuelog/sync-protocol/records/device';

describe('addenda name their author', () => {
  let t: TestApp;
  let alice: SyncUser;
  let bob: SyncUser;

  beforeAll(async () => {
    t = await buildSyncApp();
    alice = await syncUser(t);
    bob = await syncUser(t); // casesLogged.view: sees every case
    await t.db
      .updateTable('users')
      .set({ fullName: 'Alice Mokoena', callSign: 'Rescue 7' })
      .where('id', '=', alice.id)
      .execute();
    await t.db
      .updateTable('users')
      .set({ fullName: 'Bob Naidoo', callSign: null })
      .where('id', '=', bob.id)
      .execute();
  });
  afterAll(() => t.close());

  const addendum = (device: Device, caseId: string, reason = 'Age from ID') =>
    device.m('case.addendum', {
      id: uuid(),
      caseId,
      reason,
      changes: [{ field: 'approximateAge', before: 34, after: 35 }],
    });

  const argsId = (m: Mutation) => (m.args as { id: string }).id;
  const addendumRow = (id: string) =>
    t.db.selectFrom('caseAddenda').selectAll().where('id', '=', id).executeTakeFirst();

  async function pulledAddendum(user: SyncUser, id: string) {
    const { changes } = await pullAll(user.client);
    const change = changes.find((c) => c.entity === 'caseAddendum' && c.id === id);
    return change?.entity === 'caseAddendum' ? change.data : undefined;
  }

  it("is stamped with the author's name and call sign, which another user's pull, the case record and the FHIR export carry", async () => {
    const device = new Device(alice);
    const c = await completedCase(device);
    const m = addendum(device, c.id);
    expect((await device.push(m)).results[0]?.status).toBe('applied');

    expect(await addendumRow(argsId(m))).toMatchObject({
      userId: alice.id,
      authorName: 'Alice Mokoena',
      authorCallSign: 'Rescue 7',
    });
    expect(await pulledAddendum(bob, argsId(m))).toMatchObject({
      userId: alice.id,
      authorName: 'Alice Mokoena',
      authorCallSign: 'Rescue 7',
    });

    const record = await bob.client.get(`/api/cases/${c.caseId}`);
    expect(record.status).toBe(200);
    expect(caseRecordResponseSchema.parse(await record.json()).addenda).toMatchObject([
      { id: argsId(m), authorName: 'Alice Mokoena', authorCallSign: 'Rescue 7' },
    ]);

    const fhir = await bob.client.get(`/api/cases/${c.caseId}/fhir`);
    expect(fhir.status).toBe(200);
    const bundle = (await fhir.json()) as Bundle;
    const provenance = (bundle.entry ?? [])
      .map((e) => e.resource)
      .find((r): r is Provenance => r?.resourceType === 'Provenance');
    expect(provenance?.agent[0]?.who?.display).toBe('Alice Mokoena (Rescue 7)');
  });

  it('a user without a call sign is named by name alone', async () => {
    const device = new Device(bob);
    const c = await completedCase(device);
    const m = addendum(device, c.id);
    expect((await device.push(m)).results[0]?.status).toBe('applied');
    expect(await pulledAddendum(alice, argsId(m))).toMatchObject({
      userId: bob.id,
      authorName: 'Bob Naidoo',
      authorCallSign: null,
    });
  });

  it('a name sent in the args is refused and nothing is written; one beside the envelope is ignored', async () => {
    const device = new Device(bob);
    const c = await completedCase(device);
    const forged = addendum(device, c.id);
    const inArgs = {
      ...forged,
      args: {
        ...(forged.args as Record<string, unknown>),
        authorName: 'Dr Someone Else',
        authorCallSign: 'HQ-1',
      },
    };
    const res = await device.pushRaw([inArgs]);
    expect(res.status).toBe(200);
    const body = (await res.json()) as { results: { status: string; code?: string }[] };
    expect(body.results[0]).toMatchObject({
      status: 'rejected',
      code: RejectionCode.VALIDATION_FAILED,
    });
    expect(await addendumRow(argsId(forged))).toBeUndefined();

    const beside = {
      ...addendum(device, c.id),
      authorName: 'Dr Someone Else',
      authorCallSign: 'HQ-1',
    };
    expect((await device.push(beside as Mutation)).results[0]?.status).toBe('applied');
    expect(await addendumRow(argsId(beside))).toMatchObject({
      userId: bob.id,
      authorName: 'Bob Naidoo',
      authorCallSign: null,
    });
  });

  it('keeps the name it was signed with when the user is renamed later; a new addendum has the new name', async () => {
    const carol = await syncUser(t);
    await t.db
      .updateTable('users')
      .set({ fullName: 'Carol Smit', callSign: 'Medic 3' })
      .where('id', '=', carol.id)
      .execute();
    const device = new Device(carol);
    const c = await completedCase(device);
    const first = addendum(device, c.id, 'First');
    expect((await device.push(first)).results[0]?.status).toBe('applied');
    await t.db
      .updateTable('users')
      .set({ fullName: 'Carol van Wyk', callSign: 'Medic 9' })
      .where('id', '=', carol.id)
      .execute();
    const second = device.m('case.addendum', {
      id: uuid(),
      caseId: c.id,
      reason: 'Second',
      changes: [],
    });
    expect((await device.push(second)).results[0]?.status).toBe('applied');

    const record = caseRecordResponseSchema.parse(
      await (await carol.client.get(`/api/cases/${c.caseId}`)).json(),
    );
    expect(record.addenda.map((a) => [a.reason, a.authorName, a.authorCallSign])).toEqual([
      ['First', 'Carol Smit', 'Medic 3'],
      ['Second', 'Carol van Wyk', 'Medic 9'],
    ]);
  });

  it("accepts an old client's addendum (schema version 1) and stamps it; a replay changes nothing and its answer carries the signed record", async () => {
    const device = new Device(alice);
    const c = await completedCase(device);
    const m = { ...addendum(device, c.id), schemaVersion: 1 };
    expect((await device.push(m)).results[0]?.status).toBe('applied');
    const row = await addendumRow(argsId(m));
    expect(row).toMatchObject({ authorName: 'Alice Mokoena', authorCallSign: 'Rescue 7' });
    const replay = await device.push(m);
    expect(replay.results[0]?.status).toBe('duplicate');
    expect((await addendumRow(argsId(m)))?.version).toBe(row?.version);
    // The push answer's copy of the record (what the device rebuilds it from) is signed too.
    expect(replay.records?.find((r) => r.id === argsId(m))?.data).toMatchObject({
      authorName: 'Alice Mokoena',
      authorCallSign: 'Rescue 7',
    });
  });

  it('an addendum from before names were stamped comes back with none (the author by user id only)', async () => {
    const device = new Device(alice);
    const c = await completedCase(device);
    const m = addendum(device, c.id);
    expect((await device.push(m)).results[0]?.status).toBe('applied');
    await t.db
      .updateTable('caseAddenda')
      .set({ authorName: null, authorCallSign: null })
      .where('id', '=', argsId(m))
      .execute();
    expect(await pulledAddendum(bob, argsId(m))).toMatchObject({
      userId: alice.id,
      authorName: null,
      authorCallSign: null,
    });
  });

  it("a device shows its own pending addendum signed offline, then the server's stamp after the pull; another device shows the author", async () => {
    const device = new Device(alice);
    const c = await completedCase(device);
    const mine = openAppDatabase(alice.id, { indexedDB: new IDBFactory(), IDBKeyRange });
    const theirs = openAppDatabase(bob.id, { indexedDB: new IDBFactory(), IDBKeyRange });
    try {
      const transport = transportAs(alice);
      expect(await pullChanges({ db: mine, transport })).toMatchObject({ kind: 'pulled' });
      // The device knows the profile it signed in with; the server has had a rename since.
      await rememberAuthor(mine, { fullName: 'Alice M.', callSign: 'R7' });
      const id = uuid();
      await saveMutation(mine, {
        name: 'case.addendum',
        args: {
          id,
          caseId: c.id,
          reason: 'Age from ID',
          changes: [{ field: 'approximateAge', before: 34, after: 35 }],
        },
        baseVersion: null,
        actorUserId: alice.id,
      });
      expect(await mine.store('caseAddenda').get(id)).toMatchObject({
        authorName: 'Alice M.',
        authorCallSign: 'R7',
      });

      expect(await drainOutbox({ db: mine, transport })).toMatchObject({
        kind: 'drained',
        rejected: 0,
      });
      expect(await pullChanges({ db: mine, transport })).toMatchObject({ kind: 'pulled' });
      expect(await mine.store('caseAddenda').get(id)).toMatchObject({
        authorName: 'Alice Mokoena',
        authorCallSign: 'Rescue 7',
      });

      expect(await pullChanges({ db: theirs, transport: transportAs(bob) })).toMatchObject({
        kind: 'pulled',
      });
      expect(await theirs.store('caseAddenda').get(id)).toMatchObject({
        userId: alice.id,
        authorName: 'Alice Mokoena',
        authorCallSign: 'Rescue 7',
      });
    } finally {
      mine.close();
      theirs.close();
    }
  });
});
