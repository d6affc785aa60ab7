// Conflicts a person sees (decision 015): two tablets change the same field of the same case
// offline. The server keeps the later write and the conflict; the tablet whose value was
// replaced pulls the conflict (both values, who, when) onto its own database, and when an
// administrator keeps the replaced value, both tablets pull the settled record. The client
// engine is the real one (fake-indexeddb); everything else is the real API and database.
import { IDBFactory, IDBKeyRange } from 'fake-indexeddb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { drainOutbox } from '@rescuelog/sync-protocol/client/drain';
import type { SyncDatabase } from '@rescuelog/sync-protocol/client/local-db';
import { readLocalRecord } from '@rescuelog/sync-protocol/client/local-records';
import { saveMutation } from '@rescuelog/sync-protocol/client/outbox';
import { pullChanges } from '@rescuelog/sync-protocol/client/pull';
import {
  createFetchTransport,
  type SyncTransport,
} from '@rescuelog/sync-protocol/client/transport';
import { generateHumanId } from '@rescuelog/sync-protocol/platform/human-id';
import { openAppDatabase } from '@rescuelog/sync-protocol/records/device';
import { SESSION_COOKIE } from '../src/plugins/external/session';
import type { TestApp } from './helpers';
import { buildSyncApp, RESPONDER, syncUser, type SyncUser } from './sync-fixtures';

let t: TestApp;
let thandi: SyncUser;
let sipho: SyncUser;
let admin: SyncUser;

beforeAll(async () => {
  t = await buildSyncApp();
  // Two responders who may edit each other's cases (casesLogged edit), and an administrator.
  const crew = { ...RESPONDER, casesLogged: { view: true, edit: true, delete: false } };
  thandi = await syncUser(t, crew);
  sipho = await syncUser(t, crew);
  admin = await syncUser(t, {}, 'administrator');
});

afterAll(async () => {
  await t.close();
});

function tablet(user: SyncUser): { db: SyncDatabase; transport: SyncTransport } {
  const db = openAppDatabase(user.id, { indexedDB: new IDBFactory(), IDBKeyRange });
  const transport = createFetchTransport({
    baseUrl: t.url,
    headers: (): Record<string, string> =>
      user.client.sessionCookie ? { cookie: `${SESSION_COOKIE}=${user.client.sessionCookie}` } : {},
  });
  return { db, transport };
}

async function sync(d: { db: SyncDatabase; transport: SyncTransport }): Promise<void> {
  await drainOutbox(d);
  await pullChanges(d);
}

async function conflictsOn(db: SyncDatabase, caseUuid: string) {
  return db.records('syncConflict').where('entityId').equals(caseUuid).toArray();
}

describe('a conflict between two tablets', () => {
  it('reaches the tablet whose value was replaced, and its settlement reaches both', async () => {
    const a = tablet(thandi);
    const b = tablet(sipho);
    const id = crypto.randomUUID();
    await saveMutation(a.db, {
      name: 'case.upsert',
      args: { id, humanId: generateHumanId('C'), fields: { patientName: 'Unknown male' } },
      baseVersion: null,
      actorUserId: thandi.id,
    });
    await sync(a);
    await sync(b);
    const base = (await readLocalRecord(b.db, 'case', id))?.version as string;

    // Offline, both change the patient's name from the same version.
    await saveMutation(a.db, {
      name: 'case.upsert',
      args: { id, fields: { patientName: 'Themba Mokoena' } },
      baseVersion: base,
      actorUserId: thandi.id,
    });
    await saveMutation(b.db, {
      name: 'case.upsert',
      args: { id, fields: { patientName: 'Tembo Mokwena' } },
      baseVersion: base,
      actorUserId: sipho.id,
    });
    // Thandi's tablet syncs first; Sipho's later write wins on the server.
    await sync(a);
    await sync(b);
    await sync(a);

    // Thandi's tablet: the case shows the later value, and the conflict with both values,
    // both names and when.
    expect(await readLocalRecord(a.db, 'case', id)).toMatchObject({
      patientName: 'Tembo Mokwena',
    });
    const [onA] = await conflictsOn(a.db, id);
    expect(onA).toMatchObject({
      recordKind: 'case',
      field: 'patientName',
      serverValue: 'Themba Mokoena',
      serverAuthor: thandi.id,
      serverAuthorName: thandi.user.row.fullName,
      clientValue: 'Tembo Mokwena',
      clientAuthorName: sipho.user.row.fullName,
      resolvedAt: null,
    });
    expect(typeof onA?.createdAt).toBe('string');
    // Sipho's tablet has it too (he is the other author).
    expect(await conflictsOn(b.db, id)).toHaveLength(1);

    // The administrator keeps Thandi's value: an audited write that both tablets pull.
    const res = await admin.client.post(`/api/admin/conflicts/${String(onA?.id)}/resolve`, {
      choice: 'server',
    });
    expect(res.status).toBe(200);
    await pullChanges(a);
    await pullChanges(b);
    for (const d of [a, b]) {
      expect(await readLocalRecord(d.db, 'case', id)).toMatchObject({
        patientName: 'Themba Mokoena',
      });
      expect((await conflictsOn(d.db, id))[0]).toMatchObject({
        resolution: 'server',
        resolvedBy: admin.id,
      });
    }
    const audit = await t.db
      .selectFrom('auditLog')
      .select(['action', 'actorUserId'])
      .where('action', '=', 'sync.conflict.resolve')
      .where('entityId', '=', id)
      .execute();
    expect(audit).toEqual([{ action: 'sync.conflict.resolve', actorUserId: admin.id }]);
    a.db.close();
    b.db.close();
  });

  it('is not pulled by someone who neither wrote it nor may settle it', async () => {
    const outsider = await syncUser(t, RESPONDER);
    const d = tablet(outsider);
    await pullChanges(d);
    expect(await d.db.records('syncConflict').count()).toBe(0);
    // The administrator (may settle every kind) holds them all.
    const adminTablet = tablet(admin);
    await pullChanges(adminTablet);
    expect(await adminTablet.db.records('syncConflict').count()).toBeGreaterThan(0);
    d.db.close();
    adminTablet.db.close();
  });
});
