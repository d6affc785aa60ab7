// Mass-casualty command over POST /api/sync/push and pull (issue 40): the rules the shared
// mutators enforce on the server (an unknown or closed incident, a duplicate tag, an unknown
// colour, a second close), re-triage that keeps every responder's row, and who may do what.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { triageState, type TriageRow } from '@rescuelog/sync-protocol/mci/triage';
import type { TestApp } from './helpers';
import {
  Device,
  RESPONDER,
  buildSyncApp,
  caseRow,
  completedCase,
  humanId,
  newCase,
  pullAll,
  syncUser,
  uuid,
  type SyncUser,
} from './sync-fixtures';

describe('mass-casualty command on the server', () => {
  let t: TestApp;
  let alice: SyncUser;
  let bob: SyncUser;
  let viewer: SyncUser;

  beforeAll(async () => {
    t = await buildSyncApp();
    alice = await syncUser(t);
    bob = await syncUser(t);
    viewer = await syncUser(t, {
      ...RESPONDER,
      multiPatient: { read: true, create: false, edit: false, delete: false },
    });
  });
  afterAll(() => t.close());

  async function declare(device: Device): Promise<string> {
    const id = uuid();
    const res = await device.push(
      device.m('mciIncident.upsert', {
        id,
        humanId: humanId('I'),
        fields: {
          startedAt: new Date().toISOString(),
          incidentType: 'Bus crash',
          majorIncident: true,
          casualtyEstimate: 20,
        },
      }),
    );
    expect(res.results[0]?.status).toBe('applied');
    return id;
  }

  function casualty(device: Device, incident: string, tagNumber: string, id = uuid()) {
    return device.m('mciCasualty.record', {
      id,
      mciIncidentId: incident,
      tagNumber,
      triageColour: 'YELLOW',
    });
  }

  it('refuses a casualty on an unknown incident, a duplicate tag and an unknown colour, and applies the rest of the batch', async () => {
    const a = new Device(alice);
    const incident = await declare(a);
    const res = await a.push(
      casualty(a, uuid(), 'A-1'),
      casualty(a, incident, 'A-1'),
      casualty(a, incident, ' a-1 '),
      a.m('mciCasualty.record', {
        id: uuid(),
        mciIncidentId: incident,
        tagNumber: 'A-2',
        triageColour: 'PURPLE' as 'RED',
      }),
      casualty(a, incident, 'A-3'),
    );
    expect(res.results.map((r) => r.code ?? r.status)).toEqual([
      'NOT_FOUND',
      'applied',
      'HUMAN_ID_COLLISION',
      'VALIDATION_FAILED',
      'applied',
    ]);
    expect(res.results[2]?.message).toBe('Tag a-1 is already used in this incident.');
    const rows = await t.db
      .selectFrom('mciCasualties')
      .select('tagNumber')
      .where('mciIncidentId', '=', incident)
      .orderBy('tagNumber')
      .execute();
    expect(rows.map((r) => r.tagNumber)).toEqual(['A-1', 'A-3']);
  });

  it('keeps both responders’ re-triage of one casualty, made offline on the same row: a conflict on the board', async () => {
    const a = new Device(alice);
    const b = new Device(bob);
    const incident = await declare(a);
    const casualtyId = uuid();
    const first = uuid();
    await a.push(
      casualty(a, incident, 'T-1', casualtyId),
      a.m('mciTriage.record', {
        id: first,
        mciIncidentId: incident,
        mciCasualtyId: casualtyId,
        colour: 'YELLOW',
        method: 'tag',
        triagedAt: '2026-12-08T10:00:00.000Z',
      }),
    );
    const retriage = (d: Device, colour: 'RED' | 'GREEN', at: string) =>
      d.m('mciTriage.record', {
        id: uuid(),
        mciIncidentId: incident,
        mciCasualtyId: casualtyId,
        colour,
        method: 'START',
        proposedColour: 'YELLOW',
        answers: { walking: 'no' },
        previousTriageIds: [first],
        triagedAt: at,
      });
    expect((await b.push(retriage(b, 'RED', '2026-12-08T10:05:00.000Z'))).results[0]?.status).toBe(
      'applied',
    );
    expect(
      (await a.push(retriage(a, 'GREEN', '2026-12-08T10:04:00.000Z'))).results[0]?.status,
    ).toBe('applied');

    const { changes } = await pullAll(bob.client);
    const rows = changes
      .filter((c) => c.entity === 'mciTriage' && c.data?.mciCasualtyId === casualtyId)
      .map((c) => c.data as unknown as TriageRow);
    expect(rows).toHaveLength(3);
    const state = triageState('YELLOW', rows);
    expect(state).toMatchObject({ colour: 'RED', conflict: true });
    // The server names who triaged, and keeps the proposal beside the override.
    const bobs = rows.find((r) => r.colour === 'RED');
    expect(bobs).toMatchObject({ proposedColour: 'YELLOW', userId: bob.id });
    expect(bobs?.responderName).toBeTruthy();
  });

  it('lets another responder transport a casualty; one without multiPatient create may not', async () => {
    const a = new Device(alice);
    const b = new Device(bob);
    const v = new Device(viewer);
    const incident = await declare(a);
    const id = uuid();
    await a.push(casualty(a, incident, 'T-9', id));
    const transport = (d: Device) =>
      d.m('mciCasualty.update', {
        id,
        fields: {
          transported: true,
          ambulance: 'ER24 Alpha 3',
          transportDestination: 'Groote Schuur',
          transportedAt: new Date().toISOString(),
        },
      });
    expect((await v.push(transport(v))).results[0]?.code).toBe('NOT_OWNER');
    expect((await b.push(transport(b))).results[0]?.status).toBe('applied');
    expect((await v.push(casualty(v, incident, 'V-1'))).results[0]?.code).toBe('FORBIDDEN');
    const row = await t.db
      .selectFrom('mciCasualties')
      .selectAll()
      .where('id', '=', id)
      .executeTakeFirstOrThrow();
    expect(row).toMatchObject({
      transported: true,
      ambulance: 'ER24 Alpha 3',
      triageColour: 'YELLOW',
    });
  });

  it('closes an incident once; a closed incident takes no casualty, triage, change or second close', async () => {
    const a = new Device(alice);
    const incident = await declare(a);
    const casualtyId = uuid();
    await a.push(casualty(a, incident, 'C-1', casualtyId));
    const endedAt = new Date(Date.now() + 60_000).toISOString();
    const closed = await a.push(a.m('mciIncident.close', { id: incident, endedAt }));
    expect(closed.results[0]?.status).toBe('applied');
    const res = await a.push(
      a.m('mciIncident.close', { id: incident, endedAt }),
      casualty(a, incident, 'C-2'),
      a.m('mciTriage.record', {
        id: uuid(),
        mciIncidentId: incident,
        mciCasualtyId: casualtyId,
        colour: 'RED',
        method: 'tag',
        triagedAt: endedAt,
      }),
      a.m('mciCasualty.update', { id: casualtyId, fields: { assignedTo: 'Late' } }),
      a.m('mciIncident.upsert', { id: incident, fields: { hazards: 'Late' } }),
    );
    expect(res.results.map((r) => r.code ?? r.status)).toEqual([
      'INVALID_STATE',
      'INVALID_STATE',
      'INVALID_STATE',
      'INVALID_STATE',
      'INVALID_STATE',
    ]);
    expect(res.results[0]?.message).toBe('The incident is already closed.');
    expect(res.results[1]?.message).toBe(
      'The incident is closed: nothing can be added or changed.',
    );
    const row = await t.db
      .selectFrom('mciIncidents')
      .selectAll()
      .where('id', '=', incident)
      .executeTakeFirstOrThrow();
    expect(row.status).toBe('completed');
    expect(row.hazards).toBeNull();
    expect(new Date(row.endedAt ?? 0).toISOString()).toBe(endedAt);
  });

  it('fills the multi-patient fields of every open linked case when the incident closes; a completed case is left as signed', async () => {
    const a = new Device(alice);
    const incident = await declare(a);
    const open = await newCase(a, { patientName: 'Open case' });
    const done = await completedCase(a);
    const doneBefore = await caseRow(t, done.id);
    const first = uuid();
    const second = uuid();
    await a.push(
      a.m('mciCasualty.record', {
        id: first,
        mciIncidentId: incident,
        tagNumber: 'L-1',
        triageColour: 'YELLOW',
        caseId: open.id,
      }),
      a.m('mciTriage.record', {
        id: uuid(),
        mciIncidentId: incident,
        mciCasualtyId: first,
        colour: 'RED',
        method: 'tag',
        triagedAt: new Date().toISOString(),
      }),
      a.m('mciCasualty.record', {
        id: second,
        mciIncidentId: incident,
        tagNumber: 'L-2',
        triageColour: 'GREEN',
        caseId: done.id,
      }),
    );
    const endedAt = new Date(Date.now() + 90_000).toISOString();
    const res = await a.push(a.m('mciIncident.close', { id: incident, endedAt }));
    expect(res.results[0]?.status).toBe('applied');
    const filled = await caseRow(t, open.id);
    expect(filled).toMatchObject({
      isMultiPatientIncident: true,
      multiPatientIncidentType: 'Bus crash',
      totalPatients: 2,
      triageCounts: { RED: 1, GREEN: 1 },
      incidentPatients: [
        { tag: 'L-1', colour: 'RED', transported: false },
        { tag: 'L-2', colour: 'GREEN', transported: false },
      ],
    });
    expect(filled.incidentDuration).toBeGreaterThanOrEqual(90);
    expect((await caseRow(t, done.id)).version).toBe(doneBefore.version);
  });
});
