// Conflict review for administrators over real HTTP: list, view both values, resolve with
// the server's, the client's or a custom value as a new version that devices pull.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  syncConflictListSchema,
  syncConflictSchema,
} from '@rescuelog/sync-protocol/platform/conflicts';
import { build, type TestApp } from './helpers';
import {
  Device,
  ensureSyncSchema,
  humanId,
  pullAll,
  syncUser,
  uuid,
  type SyncUser,
} from './sync-fixtures';

describe('sync conflict review', () => {
  let t: TestApp;
  let alice: SyncUser;
  let admin: SyncUser;

  beforeAll(async () => {
    t = await build();
    await ensureSyncSchema(t);
    alice = await syncUser(t);
    admin = await syncUser(t, {}, 'administrator');
  });
  afterAll(() => t.close());

  /** Alice and the administrator both change `field` from the same base; returns the conflict id. */
  async function makeConflict(
    field: 'patientName' | 'approximateAge',
    serverValue: unknown,
    clientValue: unknown,
  ) {
    const aliceDevice = new Device(alice);
    const adminDevice = new Device(admin);
    const id = uuid();
    await aliceDevice.push(
      aliceDevice.m('case.upsert', {
        id,
        humanId: humanId('C'),
        fields: { patientName: 'Initial' },
      }),
    );
    const base = (
      await t.db
        .selectFrom('cases')
        .select('version')
        .where('id', '=', id)
        .executeTakeFirstOrThrow()
    ).version;
    await adminDevice.push(
      adminDevice.m('case.upsert', { id, fields: { [field]: serverValue } }, { baseVersion: base }),
    );
    const res = await aliceDevice.push(
      aliceDevice.m('case.upsert', { id, fields: { [field]: clientValue } }, { baseVersion: base }),
    );
    expect(res.results[0]?.conflicts).toHaveLength(1);
    const listed = syncConflictListSchema.parse(
      (
        (await (await admin.client.get('/api/admin/conflicts?resolved=false')).json()) as {
          conflicts: unknown;
        }
      ).conflicts,
    );
    const conflict = listed.find((c) => c.entityId === id);
    if (!conflict) throw new Error('conflict not listed');
    return { id, conflictId: conflict.id };
  }

  const resolve = (conflictId: string, body: unknown) =>
    admin.client.post(`/api/admin/conflicts/${conflictId}/resolve`, body);

  it('lists unresolved conflicts and shows both values and the value now', async () => {
    const { id, conflictId } = await makeConflict('patientName', 'Server Name', 'Client Name');
    const res = await admin.client.get(`/api/admin/conflicts/${conflictId}`);
    expect(res.status).toBe(200);
    const conflict = syncConflictSchema.parse(
      ((await res.json()) as { conflict: unknown }).conflict,
    );
    expect(conflict).toMatchObject({
      entity: 'case',
      entityId: id,
      field: 'patientName',
      serverValue: 'Server Name',
      serverAuthor: admin.id,
      clientValue: 'Client Name',
      clientAuthor: alice.id,
      currentValue: 'Client Name',
      resolvedAt: null,
    });
    expect(conflict.humanId).toMatch(/^C-/);
    const audit = await t.db
      .selectFrom('auditLog')
      .selectAll()
      .where('action', '=', 'sync.conflict.view')
      .where('entityId', '=', id)
      .execute();
    expect(audit).toHaveLength(1);
  });

  it("resolves with the server's value as a new version every device pulls, audited; twice is refused", async () => {
    const { id, conflictId } = await makeConflict('patientName', 'Keep Me', 'Overwrote');
    const { cursor } = await pullAll(alice.client);
    const res = await resolve(conflictId, { choice: 'server' });
    expect(res.status).toBe(200);
    expect(
      ((await res.json()) as { conflict: { resolution: string; currentValue: unknown } }).conflict,
    ).toMatchObject({ resolution: 'server', currentValue: 'Keep Me' });
    const { changes } = await pullAll(alice.client, cursor);
    expect(changes.find((c) => c.id === id)?.data).toMatchObject({ patientName: 'Keep Me' });
    const audit = await t.db
      .selectFrom('auditLog')
      .selectAll()
      .where('action', '=', 'sync.conflict.resolve')
      .where('entityId', '=', id)
      .executeTakeFirstOrThrow();
    expect(audit.details).toMatchObject({
      choice: 'server',
      before: 'Overwrote',
      after: 'Keep Me',
    });
    expect(audit.actorUserId).toBe(admin.id);

    const again = await resolve(conflictId, { choice: 'client' });
    expect(again.status).toBe(409);
    const unresolved = syncConflictListSchema.parse(
      (
        (await (await admin.client.get('/api/admin/conflicts?resolved=false')).json()) as {
          conflicts: unknown;
        }
      ).conflicts,
    );
    expect(unresolved.map((c) => c.id)).not.toContain(conflictId);
  });

  it('resolves with a custom value checked against the field, and with the client value', async () => {
    const { id, conflictId } = await makeConflict('approximateAge', 40, 45);
    expect((await resolve(conflictId, { choice: 'custom', value: 200 })).status).toBe(400);
    expect((await resolve(conflictId, { choice: 'custom' })).status).toBe(400);
    expect((await resolve(conflictId, { choice: 'custom', value: 42 })).status).toBe(200);
    expect(
      (
        await t.db
          .selectFrom('cases')
          .select('approximateAge')
          .where('id', '=', id)
          .executeTakeFirstOrThrow()
      ).approximateAge,
    ).toBe(42);

    const second = await makeConflict('patientName', 'A', 'B');
    expect((await resolve(second.conflictId, { choice: 'client' })).status).toBe(200);
    expect(
      (
        await t.db
          .selectFrom('cases')
          .select('patientName')
          .where('id', '=', second.id)
          .executeTakeFirstOrThrow()
      ).patientName,
    ).toBe('B');
  });

  it('is for administrators only', async () => {
    const { conflictId } = await makeConflict('patientName', 'X', 'Y');
    expect((await alice.client.get('/api/admin/conflicts')).status).toBe(403);
    expect(
      (await alice.client.post(`/api/admin/conflicts/${conflictId}/resolve`, { choice: 'client' }))
        .status,
    ).toBe(403);
    expect((await admin.client.get('/api/admin/conflicts/999999')).status).toBe(404);
    expect((await admin.client.get('/api/admin/conflicts/abc')).status).toBe(400);
  });
});
