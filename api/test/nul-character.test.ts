// A NUL character (PostgreSQL stores none in text or jsonb) is the user's input problem: a
// clear refusal, never a 500 — and in a sync batch only that mutation is refused, so the
// changes behind it in the device's outbox still apply.
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateHumanId } from '@rescuelog/sync-protocol/platform/human-id';
import type { TestApp } from './helpers';
import { buildSyncApp, caseRow, Device, syncUser, type SyncUser } from './sync-fixtures';

let t: TestApp;
let alice: SyncUser;
beforeAll(async () => {
  t = await buildSyncApp();
  alice = await syncUser(t);
});
afterAll(async () => {
  await t.close();
});

describe('a NUL character in input', () => {
  it('refuses only the sync mutation that carries it; the next one in the batch applies', async () => {
    const device = new Device(alice);
    const bad = randomUUID();
    const good = randomUUID();
    const response = await device.push(
      device.m('case.upsert', {
        id: bad,
        humanId: generateHumanId('C'),
        fields: { patientName: 'Tha\u0000ndi' },
      }),
      device.m('case.upsert', {
        id: good,
        humanId: generateHumanId('C'),
        fields: { patientName: 'Thandi' },
      }),
    );
    expect(response.results.map((r) => r.code ?? r.status)).toEqual([
      'VALIDATION_FAILED',
      'applied',
    ]);
    expect(response.results[0]?.message).toContain('args.fields.patientName');
    expect(response.lastAppliedSeq).toBe(2);
    // The refusal is on record with the data as sent (the NUL kept as U+FFFD).
    const mutationId = response.results[0]?.mutationId ?? '';
    const refused = await t.db
      .selectFrom('syncRejections')
      .select('details')
      .where('mutationId', '=', mutationId)
      .executeTakeFirstOrThrow();
    expect(JSON.stringify(refused.details)).toContain('Tha\uFFFDndi');
    expect(
      await t.db.selectFrom('cases').select('id').where('id', '=', bad).executeTakeFirst(),
    ).toBeUndefined();
    expect((await caseRow(t, good))?.patientName).toBe('Thandi');
  });

  it('answers a case search filter holding one with 400 Invalid input', async () => {
    for (const query of [
      'patientName=a%00',
      'responder=%00x',
      'caseId=C%00',
      'incidentType=Fall%00',
    ]) {
      const response = await alice.client.get(`/api/cases?${query}`);
      expect(response.status, query).toBe(400);
      expect(((await response.json()) as { code: string }).code, query).toBe('VALIDATION_FAILED');
    }
  });
});
