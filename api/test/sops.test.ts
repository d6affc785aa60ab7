// Internal SOPs through sync (issue 42, decision 080): administrators publish versions, the
// server numbers them; every member sees them (whatever their role's permissions) and
// acknowledges a version once; a member cannot publish; a body with raw HTML is refused.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestApp } from './helpers';
import {
  buildSyncApp,
  Device,
  pullAll,
  RESPONDER,
  syncUser,
  uuid,
  type SyncUser,
} from './sync-fixtures';

let t: TestApp;
let admin: SyncUser;
let member: SyncUser;
let restricted: SyncUser;

beforeAll(async () => {
  t = await buildSyncApp();
  admin = await syncUser(t, {}, 'administrator');
  member = await syncUser(t, RESPONDER);
  // Every module switched off: SOPs are still theirs to read and acknowledge.
  restricted = await syncUser(t, { systemAdmin: false, firstAidProtocols: false });
});
afterAll(() => t.close());

const fields = {
  title: 'Vehicle check',
  category: 'Vehicles and equipment' as const,
  body: '# Daily\n- Oil',
};

async function versionsOf(user: SyncUser, sopId: string) {
  const { changes } = await pullAll(user.client);
  return changes
    .filter((c) => c.entity === 'sopVersion' && c.data?.sopId === sopId)
    .map((c) => c.data ?? {});
}

describe('internal SOPs', () => {
  it('an administrator publishes versions, numbered by the server; members see every one', async () => {
    const d = new Device(admin);
    const sopId = uuid();
    const v2 = uuid();
    const res = await d.push(
      d.m('sopVersion.publish', { id: sopId, sopId, ...fields }),
      d.m('sopVersion.publish', { id: v2, sopId, ...fields, body: '# Daily\n- Oil\n- Tyres' }),
    );
    expect(res.results.map((r) => r.status)).toEqual(['applied', 'applied']);
    for (const reader of [member, restricted]) {
      const versions = await versionsOf(reader, sopId);
      expect(versions.map((v) => [v.id, v.revision, v.userId])).toEqual(
        expect.arrayContaining([
          [sopId, 1, admin.id],
          [v2, 2, admin.id],
        ]),
      );
    }
  });

  it('a member cannot publish or revise an SOP', async () => {
    const d = new Device(member);
    const sopId = uuid();
    const res = await d.push(d.m('sopVersion.publish', { id: sopId, sopId, ...fields }));
    expect(res.results).toMatchObject([{ status: 'rejected', code: 'FORBIDDEN' }]);
    expect(await versionsOf(admin, sopId)).toEqual([]);
  });

  it('a version of an SOP that does not exist is refused', async () => {
    const d = new Device(admin);
    const res = await d.push(d.m('sopVersion.publish', { id: uuid(), sopId: uuid(), ...fields }));
    expect(res.results).toMatchObject([{ status: 'rejected', code: 'NOT_FOUND' }]);
  });

  it('refuses a body with raw HTML or a script link, and stores nothing', async () => {
    const d = new Device(admin);
    for (const body of ['<script>alert(1)</script>', '[x](javascript:alert(1))']) {
      const sopId = uuid();
      const res = await d.push(d.m('sopVersion.publish', { id: sopId, sopId, ...fields, body }));
      expect(res.results).toMatchObject([{ status: 'rejected', code: 'VALIDATION_FAILED' }]);
      expect(await versionsOf(admin, sopId)).toEqual([]);
    }
  });

  it('every member acknowledges a version once, and the administrator sees who did', async () => {
    const a = new Device(admin);
    const sopId = uuid();
    await a.push(a.m('sopVersion.publish', { id: sopId, sopId, ...fields }));
    const d = new Device(restricted);
    const first = await d.push(
      d.m('sopAcknowledgement.record', { id: uuid(), sopVersionId: sopId }),
    );
    expect(first.results).toMatchObject([{ status: 'applied' }]);
    const again = await d.push(
      d.m('sopAcknowledgement.record', { id: uuid(), sopVersionId: sopId }),
    );
    expect(again.results).toMatchObject([{ status: 'rejected', code: 'INVALID_STATE' }]);
    const { changes } = await pullAll(admin.client);
    const acks = changes.filter(
      (c) => c.entity === 'sopAcknowledgement' && c.data?.sopVersionId === sopId,
    );
    expect(acks.map((c) => [c.data?.userId, c.data?.revision, c.data?.sopId])).toEqual([
      [restricted.id, 1, sopId],
    ]);
  });
});
