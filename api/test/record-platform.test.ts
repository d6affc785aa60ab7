// The record platform's promise (docs/decisions/014): a new record kind is one definition
// plus its migration, and it syncs offline to PostgreSQL with no other file touched. This
// test defines a throwaway kind here, in the test — a field note — registers it next to the
// app's kinds, migrates its table with the one helper, and drives the real client engine
// (fake-indexeddb) against the real API (push, pull, permissions, audit, conflicts).
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createSyncedTable } from '@rescuelog/db/synced-table';
import { drainOutbox } from '@rescuelog/sync-protocol/client/drain';
import { readLocalRecord } from '@rescuelog/sync-protocol/client/local-records';
import { readRejections, saveMutation } from '@rescuelog/sync-protocol/client/outbox';
import { pullChanges } from '@rescuelog/sync-protocol/client/pull';
import { defineRecord } from '@rescuelog/sync-protocol/platform/record';
import { createRegistry } from '@rescuelog/sync-protocol/platform/registry';
import {
  serverColumns,
  timestampSchema,
  uuidSchema,
} from '@rescuelog/sync-protocol/platform/values';
import { deleteMutator, upsertMutator } from '@rescuelog/sync-protocol/platform/verbs';
import { APP_RECORDS } from '@rescuelog/sync-protocol/records/registry';
import type { TestApp } from './helpers';
import { buildSyncApp, deviceOf, RESPONDER, syncUser, type SyncUser } from './sync-fixtures';

// ---- The whole new kind: one definition ------------------------------------------------
const fieldNoteFields = z.strictObject({
  title: z.string().min(1).max(200),
  body: z.string().max(5000).nullable(),
});
const fieldNoteKind = {
  kind: 'fieldNote',
  label: 'field note',
  table: 'fieldNotes',
  sqlTable: 'field_notes',
  record: z.object({
    id: uuidSchema,
    title: z.string(),
    body: z.string().nullable(),
    userId: z.number().int(),
    createdAt: timestampSchema,
    ...serverColumns,
  }),
  defaults: { body: null },
  lww: true,
  // Whoever may write incident reports may write field notes; others see their own.
  access: { module: 'incidentReports', logModule: 'incidentReports', viewAction: 'read' },
  device: { indexes: 'userId' },
} as const;
const fieldNote = defineRecord({
  ...fieldNoteKind,
  mutators: [
    upsertMutator(fieldNoteKind, fieldNoteFields, { requiredOnCreate: ['title'] }),
    deleteMutator(fieldNoteKind),
  ],
});
const registry = createRegistry([...APP_RECORDS, fieldNote]);
// ---- ... and its migration ------------------------------------------------------------
async function migrateFieldNotes(db: Parameters<typeof createSyncedTable>[0]): Promise<void> {
  await createSyncedTable(db, 'field_notes', { lww: true }, (t) =>
    t.addColumn('title', 'text', (c) => c.notNull()).addColumn('body', 'text'),
  );
}
// -----------------------------------------------------------------------------------------

let t: TestApp;
let alice: SyncUser;
let bob: SyncUser;

beforeAll(async () => {
  t = await buildSyncApp({
    registry,
    migrate: (db) => migrateFieldNotes(db as unknown as Parameters<typeof createSyncedTable>[0]),
  });
  alice = await syncUser(t, RESPONDER);
  bob = await syncUser(t, { ...RESPONDER, incidentReports: true });
});

afterAll(async () => {
  await t.close();
});

function device(user: SyncUser) {
  return deviceOf(registry, user);
}

async function fieldNoteRow(id: string) {
  // (Column names come back camelCased, like every query here.)
  const { rows } = await sql<{
    title: string;
    body: string | null;
    userId: number;
    deletedAt: Date | null;
    fieldVersions: Record<string, unknown>;
  }>`select title, body, user_id, deleted_at, field_versions from field_notes where id = ${id}`.execute(
    t.db,
  );
  return rows[0];
}

describe('a record kind added in one definition', () => {
  it('is saved offline on the device, syncs to PostgreSQL, reaches another device and is deleted', async () => {
    const phone = device(alice);
    const id = crypto.randomUUID();
    // Offline: saved on the device at once (its store comes from the definition).
    await saveMutation(phone.db, {
      name: 'fieldNote.upsert',
      args: { id, fields: { title: 'Rope anchor checked', body: 'Bolt 3 loose' } },
      baseVersion: null,
      actorUserId: alice.id,
    });
    expect(await readLocalRecord(phone.db, 'fieldNote', id)).toMatchObject({
      title: 'Rope anchor checked',
      userId: alice.id,
    });
    expect(await fieldNoteRow(id)).toBeUndefined();

    // Online: pushed, stored by the same mutator on the server, owned and versioned.
    expect(await drainOutbox({ db: phone.db, transport: phone.transport })).toMatchObject({
      kind: 'drained',
      acknowledged: 1,
    });
    expect(await fieldNoteRow(id)).toMatchObject({
      title: 'Rope anchor checked',
      body: 'Bolt 3 loose',
      userId: alice.id,
      deletedAt: null,
    });
    expect(Object.keys((await fieldNoteRow(id))?.fieldVersions ?? {}).sort()).toEqual([
      'body',
      'title',
    ]);
    const audit = await t.db
      .selectFrom('auditLog')
      .select(['action', 'entityType', 'actorUserId'])
      .where('entityId', '=', id)
      .execute();
    expect(audit).toEqual([
      { action: 'sync.fieldNote.upsert', entityType: 'fieldNote', actorUserId: alice.id },
    ]);

    // Bob may read every report-like record (incidentReports: true): his pull brings it.
    const tablet = device(bob);
    expect(await pullChanges({ db: tablet.db, transport: tablet.transport })).toMatchObject({
      kind: 'pulled',
    });
    expect(await readLocalRecord(tablet.db, 'fieldNote', id)).toMatchObject({
      title: 'Rope anchor checked',
    });

    // Bob may delete anyone's (incidentReports: true): a tombstone on the server, and the
    // note is gone from Alice's phone at its next pull.
    await saveMutation(tablet.db, {
      name: 'fieldNote.delete',
      args: { id },
      baseVersion: null,
      actorUserId: bob.id,
    });
    expect(await drainOutbox({ db: tablet.db, transport: tablet.transport })).toMatchObject({
      kind: 'drained',
      acknowledged: 1,
      rejected: 0,
    });
    expect((await fieldNoteRow(id))?.deletedAt).toBeInstanceOf(Date);
    await pullChanges({ db: phone.db, transport: phone.transport });
    expect(await readLocalRecord(phone.db, 'fieldNote', id)).toBeUndefined();
    phone.db.close();
    tablet.db.close();
  });

  it('is refused by the same rules on both sides: a missing title on the device, another owner on the server', async () => {
    const phone = device(alice);
    // The device refuses at once what the server would refuse (the same mutator and schema).
    await expect(
      saveMutation(phone.db, {
        name: 'fieldNote.upsert',
        args: { id: crypto.randomUUID(), fields: { body: 'no title' } },
        baseVersion: null,
        actorUserId: alice.id,
      }),
    ).rejects.toMatchObject({ code: 'MISSING_REQUIRED_FIELD' });

    // Bob's note; Alice (may read others' reports, not edit them) changes it: refused on the
    // server as another owner's, kept in her inbox with the data, and her device shows Bob's
    // title again.
    const tablet = device(bob);
    const id = crypto.randomUUID();
    await saveMutation(tablet.db, {
      name: 'fieldNote.upsert',
      args: { id, fields: { title: "Bob's note" } },
      baseVersion: null,
      actorUserId: bob.id,
    });
    await drainOutbox({ db: tablet.db, transport: tablet.transport });
    const aliceSees = await pullChanges({ db: phone.db, transport: phone.transport });
    expect(aliceSees.kind).toBe('pulled');
    expect(await readLocalRecord(phone.db, 'fieldNote', id)).toMatchObject({ userId: bob.id });
    await saveMutation(phone.db, {
      name: 'fieldNote.upsert',
      args: { id, fields: { title: 'Taken over' } },
      baseVersion: null,
      actorUserId: alice.id,
    });
    await drainOutbox({ db: phone.db, transport: phone.transport });
    const [rejection] = await readRejections(phone.db);
    expect(rejection).toMatchObject({ code: 'NOT_OWNER' });
    expect(rejection?.mutation.args).toMatchObject({ fields: { title: 'Taken over' } });
    expect((await fieldNoteRow(id))?.title).toBe("Bob's note");
    expect(await readLocalRecord(phone.db, 'fieldNote', id)).toMatchObject({ title: "Bob's note" });
    phone.db.close();
    tablet.db.close();
  });
});
