// A change the server keeps failing to store never stalls the queue (decision 017): the real
// client engine (fake-indexeddb) against the real API. The failure is a fault in the server's
// code for one value, made here by a throwaway kind whose mutator throws on the server for
// it (as a bug would: a TypeError, not a rejection). The device tries it three times, then
// sets it aside with the later change to the same record, while its other records sync;
// nothing answers 500 and nothing is lost: both changes are in the device's inbox and in the
// server's sync_rejections, and "Try again" stores them, in order, once the server is fixed.
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { z } from 'zod';
import { drainOutbox } from '@rescuelog/sync-protocol/client/drain';
import { readLocalRecord } from '@rescuelog/sync-protocol/client/local-records';
import { readOutbox, readRejections, saveMutation } from '@rescuelog/sync-protocol/client/outbox';
import { trySetAsideAgain } from '@rescuelog/sync-protocol/client/set-aside';
import { defineRecord } from '@rescuelog/sync-protocol/platform/record';
import { createRegistry } from '@rescuelog/sync-protocol/platform/registry';
import { upsertMutator } from '@rescuelog/sync-protocol/platform/verbs';
import { APP_RECORDS } from '@rescuelog/sync-protocol/records/registry';
import type { TestApp } from './helpers';
import {
  buildSyncApp,
  deviceOf,
  migrateNotes,
  noteFields,
  noteKind,
  RESPONDER,
  syncUser,
  type SyncUser,
} from './sync-fixtures';

/** The server's fault, switched on and off by the test (a deploy with the bug, then the fix). */
const server = { broken: true };

const rigNoteKind = noteKind('rigNote', 'rigNotes', 'rig_notes');
const upsert = upsertMutator(rigNoteKind, noteFields, { requiredOnCreate: ['title'] });
const rigNote = defineRecord({
  ...rigNoteKind,
  mutators: [
    {
      ...upsert,
      apply: async (tx: Parameters<typeof upsert.apply>[0], args: z.output<typeof upsert.args>) => {
        if (tx.location === 'server' && server.broken && args.fields.title === 'Anchor 🧗')
          throw new TypeError("Cannot read properties of undefined (reading 'codePointAt')");
        await upsert.apply(tx, args);
      },
    },
  ],
});
const registry = createRegistry([...APP_RECORDS, rigNote]);

let t: TestApp;
let alice: SyncUser;
const statuses: number[] = [];

beforeAll(async () => {
  t = await buildSyncApp({
    registry,
    migrate: migrateNotes('rig_notes'),
  });
  alice = await syncUser(t, RESPONDER);
});

afterAll(async () => {
  await t.close();
});

function device(user: SyncUser) {
  return deviceOf(registry, user, async (input, init) => {
    const response = await fetch(input, init);
    statuses.push(response.status);
    return response;
  });
}

async function note(id: string) {
  const { rows } = await sql<{ title: string; body: string | null }>`
    select title, body from rig_notes where id = ${id}`.execute(t.db);
  return rows[0];
}

describe('a change the server keeps failing to store', () => {
  it('is tried 3 times, then set aside with the later change to its record, while other records sync', async () => {
    const phone = device(alice);
    const anchor = crypto.randomUUID();
    const other = crypto.randomUUID();
    const save = (id: string, fields: Record<string, unknown>) =>
      saveMutation(phone.db, {
        name: 'rigNote.upsert',
        args: { id, fields },
        baseVersion: null,
        actorUserId: alice.id,
      });
    await save(anchor, { title: 'Anchor 🧗', body: null }); // seq 1: the server fails on it
    await save(other, { title: 'Belay check', body: 'ok' }); // seq 2: another record
    await save(anchor, { body: 'Re-rigged at 14:05' }); // seq 3: the same record, later

    // Tries 1 and 2: the server commits nothing, answers 200 (not 500) naming the change,
    // and the engine backs off.
    for (const tries of [1, 2]) {
      const outcome = await drainOutbox({ db: phone.db, transport: phone.transport });
      expect(outcome).toMatchObject({ kind: 'retry', reason: 'server-error', acknowledged: 0 });
      expect(outcome.kind === 'retry' && outcome.message).toContain(`try ${String(tries)} of 3`);
      expect((await readOutbox(phone.db))[0]).toMatchObject({ seq: 1, serverFailures: tries });
    }
    expect(await note(other)).toBeUndefined();

    // Try 3: set aside; the other record syncs in the same drain.
    expect(await drainOutbox({ db: phone.db, transport: phone.transport })).toMatchObject({
      kind: 'drained',
    });
    expect(statuses.every((status) => status < 500)).toBe(true);
    expect(await note(other)).toEqual({ title: 'Belay check', body: 'ok' });
    expect(await note(anchor)).toBeUndefined();
    expect(await readOutbox(phone.db)).toEqual([]);

    // On the device: both changes of the anchor note in the inbox, whole, in order; the note
    // itself shows what the server holds (nothing yet).
    const inbox = await readRejections(phone.db);
    expect(inbox.map((r) => [r.seq, r.code, r.mutation.args])).toEqual([
      [1, 'SET_ASIDE', { id: anchor, fields: { title: 'Anchor 🧗', body: null } }],
      [3, 'HELD_BACK', { id: anchor, fields: { body: 'Re-rigged at 14:05' } }],
    ]);
    expect(new Set(inbox.map((r) => r.setAsideWith))).toEqual(new Set([inbox[0]?.mutationId]));
    expect(await readLocalRecord(phone.db, 'rigNote', anchor)).toBeUndefined();

    // On the server: kept for an administrator with the data, audited; seqs have no gap.
    const stored = await t.db
      .selectFrom('syncRejections')
      .select(['seq', 'reason', 'details'])
      .orderBy('seq')
      .execute();
    expect(stored.map((r) => [Number(r.seq), r.reason])).toEqual([
      [1, 'SET_ASIDE'],
      [3, 'HELD_BACK'],
    ]);
    expect(stored[0]?.details).toMatchObject({
      name: 'rigNote.upsert',
      setAsideMutationId: inbox[0]?.mutationId,
      args: { id: anchor, fields: { title: 'Anchor 🧗' } },
    });
    expect(stored[1]?.details).toMatchObject({ heldBehind: inbox[0]?.mutationId });
    const registered = await t.db
      .selectFrom('devices')
      .select('lastAppliedSeq')
      .where('userId', '=', alice.id)
      .executeTakeFirstOrThrow();
    expect(Number(registered.lastAppliedSeq)).toBe(3);
    const audited = await t.db
      .selectFrom('auditLog')
      .select(['action', 'outcome'])
      .where('entityId', '=', anchor)
      .execute();
    expect(audited).toEqual([
      { action: 'sync.rejected', outcome: 'failure' },
      { action: 'sync.rejected', outcome: 'failure' },
    ]);

    // The server is fixed; "Try again" saves both again, in order, and they store.
    server.broken = false;
    const head = inbox[0]?.mutationId ?? '';
    expect(await trySetAsideAgain(phone.db, head)).toBe(2);
    expect(await readRejections(phone.db)).toEqual([]);
    expect(await readLocalRecord(phone.db, 'rigNote', anchor)).toMatchObject({
      title: 'Anchor 🧗',
      body: 'Re-rigged at 14:05',
    });
    expect(await drainOutbox({ db: phone.db, transport: phone.transport })).toMatchObject({
      kind: 'drained',
      acknowledged: 2,
      rejected: 0,
    });
    expect(await note(anchor)).toEqual({ title: 'Anchor 🧗', body: 'Re-rigged at 14:05' });
    phone.db.close();
  });
});
