// Least privilege for patient cases (issue 12, decision 024) over real HTTP: a member with no
// casesLogged entry (the Member role, or a custom role that gives only New Case) cannot pull,
// search, open or export another member's case, and still sees their own; a role an
// administrator grants casesLogged view to, or an administrator, sees every case. Each route
// asks the one rule (platform/access.ts canSeeAll with the case family's access).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ErrorCode } from '@rescuelog/sync-protocol/errors';
import type { Role } from '@rescuelog/sync-protocol/accounts/roles';
import type { CaseSummary } from '@rescuelog/sync-protocol/cases/api';
import { loginAs, type TestApp, type TestClient } from './helpers';
import {
  Device,
  RESPONDER,
  buildSyncApp,
  newCase,
  pullAll,
  syncUser,
  type SyncUser,
} from './sync-fixtures';

/** What `client` can reach of a case, by every route that serves one. */
async function reach(client: TestClient, c: { id: string; caseId: string }) {
  const pulled = (await pullAll(client)).changes.filter((ch) => ch.id === c.id);
  const search = await client.get(`/api/cases?caseId=${encodeURIComponent(c.caseId)}`);
  const listed = ((await search.json()) as CaseSummary[]).some((s) => s.id === c.id);
  const open = await client.get(`/api/cases/${c.caseId}`);
  const fhir = await client.get(`/api/cases/${c.caseId}/fhir`);
  return { pulled: pulled.length > 0, listed, open: open.status, fhir: fhir.status };
}

const SEES = { pulled: true, listed: true, open: 200, fhir: 200 };
const BLIND = { pulled: false, listed: false, open: 403, fhir: 403 };

describe('least privilege for patient cases', () => {
  let t: TestApp;
  let admin: TestClient;
  let roles: Role[];
  let author: SyncUser;
  let theirs: { id: string; caseId: string };

  const roleId = (name: string) => {
    const role = roles.find((r) => r.name === name);
    if (!role) throw new Error(`no role ${name}`);
    return role.id;
  };

  /** A new approved member on `roleId`, with no permissions of their own, signed in. */
  async function memberOn(role: number): Promise<SyncUser> {
    const user = await t.createUser({ status: 'approved' });
    const res = await admin.request('PATCH', `/api/admin/users/${String(user.row.id)}`, {
      json: { roleId: role },
    });
    expect(res.status).toBe(200);
    return { user, id: user.row.id, client: await loginAs(t, user) };
  }

  beforeAll(async () => {
    t = await buildSyncApp();
    admin = await loginAs(t, await t.createUser({ role: 'administrator', status: 'approved' }));
    roles = ((await (await admin.get('/api/admin/roles')).json()) as { roles: Role[] }).roles;
    author = await syncUser(t, RESPONDER);
    theirs = await newCase(new Device(author));
  });
  afterAll(() => t.close());

  it('a member on the Member role (no entries) cannot pull, search, open or export another member’s case', async () => {
    const member = await memberOn(roleId('member'));
    expect(await reach(member.client, theirs)).toEqual(BLIND);
    // Refusals are audited as before.
    const denials = await t.db
      .selectFrom('auditLog')
      .select('details')
      .where('action', '=', 'access.denied')
      .where('actorUserId', '=', member.id)
      .execute();
    expect(denials).toHaveLength(2);
    for (const d of denials) expect(d.details).toMatchObject({ code: ErrorCode.FORBIDDEN });
  });

  it('a member whose role gives New Case but says nothing of Cases Logged sees only their own cases', async () => {
    const role = (
      (await (
        await admin.post('/api/admin/roles', {
          name: 'crew-least',
          displayName: 'Crew (own cases)',
          permissions: { newCase: { read: true, create: true, edit: true } },
        })
      ).json()) as { role: Role }
    ).role;
    const crew = await memberOn(role.id);
    expect(await reach(crew.client, theirs)).toEqual(BLIND);

    // Their own case: every route serves it.
    const own = await newCase(new Device(crew));
    expect(await reach(crew.client, own)).toEqual(SEES);
    // The search without a filter lists only their own.
    const all = (await (await crew.client.get('/api/cases')).json()) as CaseSummary[];
    expect(all.map((c) => c.id)).toEqual([own.id]);
  });

  it('a role an administrator grants Cases Logged view to sees every case; so does an administrator', async () => {
    const observer = await memberOn(roleId('observer'));
    expect(await reach(observer.client, theirs)).toEqual(SEES);

    const granted = (
      (await (
        await admin.post('/api/admin/roles', {
          name: 'case-reviewer',
          displayName: 'Case reviewer',
          permissions: { casesLogged: { view: true } },
        })
      ).json()) as { role: Role }
    ).role;
    const reviewer = await memberOn(granted.id);
    expect(await reach(reviewer.client, theirs)).toEqual(SEES);

    // A user's own entry (set by an administrator on User Management) grants it too.
    const member = await memberOn(roleId('member'));
    const patched = await admin.request('PATCH', `/api/admin/users/${String(member.id)}`, {
      json: { permissions: { casesLogged: { view: true } } },
    });
    expect(patched.status).toBe(200);
    expect(await reach(member.client, theirs)).toEqual(SEES);

    expect(await reach(admin, theirs)).toEqual(SEES);
  });

  it('an explicit withholding entry still narrows an administrator-granted role', async () => {
    const member = await memberOn(roleId('observer'));
    await admin.request('PATCH', `/api/admin/users/${String(member.id)}`, {
      json: { permissions: { casesLogged: { view: false } } },
    });
    expect(await reach(member.client, theirs)).toEqual(BLIND);
  });
});
