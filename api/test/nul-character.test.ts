// A NUL character (PostgreSQL stores none in text or jsonb) is the user's input problem: a
// clear refusal, never a 500 — and in a sync batch only that mutation is refused, so the
// changes behind it in the device's outbox still apply.
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateHumanId } from '@rescuelog/sync-protocol/platform/human-id';
import { pushResponseSchema } from '@rescuelog/sync-protocol/platform/push-pull';
import { PROTOCOL_VERSION, SCHEMA_VERSION } from '@rescuelog/sync-protocol/platform/versions';
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
      'TEXT_NOT_STORABLE',
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

  it('refuses a lone surrogate, a 10,000-deep value and a 3 MiB note each with its own code; the rest of the batch applies', async () => {
    const device = new Device(alice);
    // JSON.stringify cannot write a 10,000-deep value (its stack), so it goes in as text, the
    // way a hostile client would send it.
    const DEEP = '__deep__';
    const ids = [randomUUID(), randomUUID(), randomUUID(), randomUUID()];
    const mutations = [
      device.m('case.upsert', {
        id: ids[0] ?? '',
        humanId: generateHumanId('C'),
        fields: { additionalNotes: 'pain \uD83D score' },
      }),
      device.m('case.upsert', {
        id: ids[1] ?? '',
        humanId: generateHumanId('C'),
        fields: { incidentPatients: [DEEP] },
      }),
      device.m('case.upsert', {
        id: ids[2] ?? '',
        humanId: generateHumanId('C'),
        fields: { additionalNotes: 'x'.repeat(3 * 1024 * 1024) },
      }),
      device.m('case.upsert', {
        id: ids[3] ?? '',
        humanId: generateHumanId('C'),
        fields: { patientName: 'Sipho' },
      }),
    ];
    const text = JSON.stringify({
      protocolVersion: PROTOCOL_VERSION,
      schemaVersion: SCHEMA_VERSION,
      deviceId: device.deviceId,
      mutations,
    }).replace(`"${DEEP}"`, `${'['.repeat(10_000)}"bottom"${']'.repeat(10_000)}`);
    const res = await alice.client.request('POST', '/api/sync/push', {
      body: text,
      headers: { 'content-type': 'application/json' },
    });
    expect(res.status).toBe(200);
    const response = pushResponseSchema.parse(await res.json());
    expect(response.results.map((r) => r.code ?? r.status)).toEqual([
      'TEXT_NOT_STORABLE',
      'VALUE_TOO_DEEP',
      'MUTATION_TOO_LARGE',
      'applied',
    ]);
    expect(response.results[0]?.message).toContain('args.fields.additionalNotes');
    expect(response.lastAppliedSeq).toBe(4);
    expect((await caseRow(t, ids[3] ?? ''))?.patientName).toBe('Sipho');
    // Each refusal is on record, the big one without its 3 MiB (the device keeps the data).
    const stored = await t.db
      .selectFrom('syncRejections')
      .select(['reason', 'details'])
      .where('deviceId', '=', device.deviceId)
      .orderBy('seq')
      .execute();
    expect(stored.map((r) => r.reason)).toEqual([
      'TEXT_NOT_STORABLE',
      'VALUE_TOO_DEEP',
      'MUTATION_TOO_LARGE',
    ]);
    expect(JSON.stringify(stored[0]?.details)).toContain('pain \uFFFD score');
    expect(stored[2]?.details).toMatchObject({ args: { truncated: true } });
  });

  it("stops storing refused data past a user's quota, still recording each refusal", async () => {
    const heavy = await syncUser(t);
    const device = new Device(heavy);
    // Random (incompressible) 60 KiB notes, each refused for the NUL at its start.
    const note = () =>
      `\u0000${Array.from({ length: 60 * 1024 }, () => String.fromCharCode(97 + Math.floor(Math.random() * 26))).join('')}`;
    const mutations = Array.from({ length: 150 }, () =>
      device.m('case.upsert', {
        id: randomUUID(),
        humanId: generateHumanId('C'),
        fields: { additionalNotes: note() },
      }),
    );
    const response = await device.push(...mutations);
    expect(response.results.every((r) => r.code === 'TEXT_NOT_STORABLE')).toBe(true);
    expect(response.lastAppliedSeq).toBe(150);
    const stored = await t.db
      .selectFrom('syncRejections')
      .select(['seq', 'details'])
      .where('deviceId', '=', device.deviceId)
      .orderBy('seq')
      .execute();
    expect(stored).toHaveLength(150);
    expect(JSON.stringify(stored[0]?.details)).toContain('additionalNotes');
    expect(stored.at(-1)?.details).toMatchObject({
      args: { omitted: 'quota' },
      message: expect.stringContaining('args.fields.additionalNotes'),
    });
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
