// Patient cases in the e2e run: the members who document them (registered once per run and
// reused: registration is rate limited per IP), the case screens' controls by the ids every
// case field carries (`field-<name>`, choices `field-<name>-<value>`), what the device holds
// (its per-user IndexedDB, read in the page) and what the server holds (the real API).
import { randomUUID } from 'node:crypto';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { expect, type APIRequestContext, type BrowserContext, type Page } from '@playwright/test';
import { z } from 'zod';
import {
  caseRecordResponseSchema,
  caseSummarySchema,
  type CaseRecordResponse,
  type CaseSummary,
} from '@rescuelog/sync-protocol/cases/api';
import type { Permissions } from '@rescuelog/sync-protocol/permissions';
import { PROTOCOL_VERSION, SCHEMA_VERSION } from '@rescuelog/sync-protocol/platform/versions';
import {
  apiApprove,
  apiLogin,
  apiRegister,
  newPerson,
  signInAsAdmin,
  type Person,
} from './accounts';
import { serverOrigin } from './fixtures';
import { readServerState } from './server';

/** What the web app sends on state-changing requests (the API refuses cross-site writes). */
export function writeHeaders(origin = serverOrigin()): Record<string, string> {
  return { 'x-requested-with': 'rescuelog', origin };
}

// ---------------------------------------------------------------------------------------
// Members
// ---------------------------------------------------------------------------------------

/**
 * The run's case responder: may start and capture cases (newCase) and, by an explicit
 * casesLogged view grant, sees everyone's cases (without one a member sees only their own:
 * decision 024). One account for every case spec (registration is rate limited per IP: 10
 * an hour).
 */
export const RESPONDER_PERMISSIONS: Permissions = {
  newCase: { read: true, create: true, edit: true },
  casesLogged: { view: true },
};

export interface CaseMember extends Person {
  id: number;
}

const storedMemberSchema = z.object({
  email: z.string(),
  password: z.string(),
  fullName: z.string(),
  qualifications: z.string(),
  callSign: z.string().optional(),
  id: z.number().int(),
});

const storedCookiesSchema = z.array(
  z.object({
    name: z.string(),
    value: z.string(),
    domain: z.string(),
    path: z.string(),
    expires: z.number(),
    httpOnly: z.boolean(),
    secure: z.boolean(),
    sameSite: z.enum(['Strict', 'Lax', 'None']),
  }),
);

function memberFile(): string {
  return path.join(readServerState().runDir, 'case-responder.json');
}
function cookieFile(): string {
  return path.join(readServerState().runDir, 'case-responder-cookies.json');
}

/** PATCH /api/admin/users/:id { permissions } as the administrator on `adminPage`. */
export async function apiSetPermissions(
  adminPage: Page,
  userId: number,
  permissions: Permissions,
): Promise<void> {
  await signInAsAdmin(adminPage);
  const response = await adminPage.request.patch(`/api/admin/users/${String(userId)}`, {
    headers: writeHeaders(),
    data: { permissions },
  });
  expect(
    response.ok(),
    `set permissions of ${String(userId)}: ${String(response.status())} ${await response.text()}`,
  ).toBe(true);
}

/**
 * `context` is signed in as the run's case responder (registered, approved and given
 * RESPONDER_PERMISSIONS on first use; afterwards the stored session is reused, or the
 * responder signs in again through the API).
 */
export async function signInAsCaseResponder(
  context: BrowserContext,
  adminPage: Page,
): Promise<CaseMember> {
  const request = context.request;
  if (!existsSync(memberFile())) {
    const person = { ...newPerson('Sipho Casebook'), callSign: 'RESCUE 12' };
    await signInAsAdmin(adminPage);
    const user = await apiRegister(request, person);
    await apiApprove(adminPage.request, user.id);
    await apiSetPermissions(adminPage, user.id, RESPONDER_PERMISSIONS);
    const member: CaseMember = { ...person, id: user.id };
    writeFileSync(memberFile(), JSON.stringify(member));
    writeFileSync(cookieFile(), JSON.stringify(await context.cookies()));
    return member;
  }
  const member = storedMemberSchema.parse(JSON.parse(readFileSync(memberFile(), 'utf8')));
  if (existsSync(cookieFile())) {
    await context.addCookies(
      storedCookiesSchema.parse(JSON.parse(readFileSync(cookieFile(), 'utf8'))),
    );
    if ((await request.get('/api/user')).ok()) return member;
    await context.clearCookies();
  }
  await apiLogin(request, member);
  writeFileSync(cookieFile(), JSON.stringify(await context.cookies()));
  return member;
}

// ---------------------------------------------------------------------------------------
// The app in the browser
// ---------------------------------------------------------------------------------------

export async function waitForServiceWorkerControl(page: Page): Promise<void> {
  await page.evaluate(async () => {
    await navigator.serviceWorker.ready;
  });
  await expect
    .poll(() => page.evaluate(() => navigator.serviceWorker.controller !== null), {
      timeout: 15_000,
    })
    .toBe(true);
}

/** The human case number of the case screen the page shows (from its URL). */
export function caseIdFromUrl(page: Page): string {
  const match =
    /\/(?:patient-details|primary-survey|secondary-survey|treatment-provided|response-details|case-completed)\/([^/?#]+)/.exec(
      page.url(),
    );
  if (!match?.[1]) throw new Error(`not on a case screen: ${page.url()}`);
  return decodeURIComponent(match[1]);
}

/** The case field's control (`field-<name>`). */
export function field(page: Page, name: string) {
  return page.locator(`#field-${name}`);
}

/** Types into a text, number or coordinate field and leaves it (the control saves on blur). */
export async function typeField(page: Page, name: string, value: string): Promise<void> {
  const input = field(page, name);
  await input.fill(value);
  await input.blur();
  await expect(input).toHaveValue(value);
}

/**
 * Taps a radio or checkbox by its id, as a finger would (its label). The controls are
 * controlled by the stored case: the mark appears once the device has saved the change.
 */
export async function tap(page: Page, id: string): Promise<void> {
  await page.locator(`label[for="${id}"]`).first().click();
  await expect(page.locator(`#${id}`)).toBeChecked();
}

/** Taps one option of a choice (`field-<name>-<value>`, values with spaces as dashes). */
export async function choose(page: Page, name: string, value: string | boolean): Promise<void> {
  const part = String(value)
    .replace(/[^A-Za-z0-9_-]+/g, '-')
    .replace(/^-+|-+$/g, '');
  await tap(page, `field-${name}-${part}`);
}

/** Ticks a checkbox field (an intervention, "examined"). */
export async function tick(page: Page, name: string): Promise<void> {
  await tap(page, `field-${name}`);
}

/**
 * Sets a case's time field to a local time ('YYYY-MM-DDTHH:mm'); on leaving the field it
 * shows the time in the app's one format (issue 37: '28 Nov 2026, 14:05', inputs included).
 */
export async function setTime(page: Page, name: string, local: string): Promise<void> {
  const input = field(page, name);
  await input.fill(local);
  await input.blur();
  await expect(input).toHaveValue(appDateTime(local));
}

/** A local time as every screen of the app writes it: '28 Nov 2026, 14:05' (en-GB). */
export function appDateTime(local: string): string {
  const [day = '', time = ''] = local.split('T');
  const [y = 0, m = 1, d = 1] = day.split('-').map(Number);
  const date = new Intl.DateTimeFormat('en-GB', {
    timeZone: 'UTC',
    day: 'numeric',
    month: 'short',
    year: 'numeric',
  }).format(Date.UTC(y, m - 1, d));
  return `${date}, ${time}`;
}

/** Taps the "Now" button beside a time field (the button controls the field's input). */
export async function tapNow(page: Page, name: string): Promise<void> {
  await page
    .getByRole('button', { name: /now$/i })
    .and(page.locator(`[aria-controls="field-${name}"]`))
    .click();
  await expect(field(page, name)).not.toHaveValue('');
}

/** A time `minutesAgo` before now, to the minute, as the device in Johannesburg shows it and
 * as the ISO instant it stores. */
export function localTime(minutesAgo: number, base = Date.now()): { local: string; iso: string } {
  const at = new Date(Math.floor(base / 60_000) * 60_000 - minutesAgo * 60_000);
  const parts = Object.fromEntries(
    new Intl.DateTimeFormat('en-GB', {
      timeZone: 'Africa/Johannesburg',
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      hourCycle: 'h23',
    })
      .formatToParts(at)
      .map((p) => [p.type, p.value]),
  ) as Record<string, string>;
  return {
    local: `${parts.year ?? ''}-${parts.month ?? ''}-${parts.day ?? ''}T${parts.hour ?? ''}:${parts.minute ?? ''}`,
    iso: at.toISOString(),
  };
}

/** The case screen's header: a group named by its "Case <number> · <patient>" line, with
 * the Dashboard link, the step's title and the record's sync mark. */
export function caseHeader(page: Page) {
  return page.getByRole('group', { name: /^Case / });
}

/** The case header's per-record sync mark. */
export function caseSyncMark(page: Page) {
  return caseHeader(page).getByRole('status');
}

/** The app's sync status bar. */
export function syncBar(page: Page) {
  return page.getByRole('region', { name: 'Sync status' });
}

// ---------------------------------------------------------------------------------------
// What the device holds (read in the page, straight from IndexedDB)
// ---------------------------------------------------------------------------------------

export interface DeviceCase {
  case: Record<string, unknown> | null;
  vitalSigns: Record<string, unknown>[];
  addenda: Record<string, unknown>[];
  pendingOutbox: number;
}

/** The signed-in user's local database rows for one case (by its human case number). */
export async function readDeviceCase(
  page: Page,
  userId: number,
  caseId: string,
): Promise<DeviceCase> {
  return page.evaluate(
    async ({ dbName, humanId }) => {
      const db = await new Promise<IDBDatabase>((resolve, reject) => {
        const open = indexedDB.open(dbName);
        open.onsuccess = () => resolve(open.result);
        open.onerror = () => reject(open.error ?? new Error('open failed'));
      });
      const all = <T>(request: IDBRequest<T>) =>
        new Promise<T>((resolve, reject) => {
          request.onsuccess = () => resolve(request.result);
          request.onerror = () => reject(request.error ?? new Error('read failed'));
        });
      try {
        const tx = db.transaction(['cases', 'vitalSigns', 'caseAddenda', 'outbox'], 'readonly');
        const cases = (await all(
          tx.objectStore('cases').index('caseId').getAll(humanId),
        )) as Record<string, unknown>[];
        const found = cases.find((c) => !c.deletedAt) ?? null;
        const uuid = typeof found?.id === 'string' ? found.id : '';
        const vitalSigns = uuid
          ? ((await all(tx.objectStore('vitalSigns').index('caseId').getAll(uuid))) as Record<
              string,
              unknown
            >[])
          : [];
        const addenda = uuid
          ? ((await all(tx.objectStore('caseAddenda').index('caseId').getAll(uuid))) as Record<
              string,
              unknown
            >[])
          : [];
        const pendingOutbox = uuid
          ? await all(tx.objectStore('outbox').index('entityIds').count(uuid))
          : 0;
        return { case: found, vitalSigns, addenda, pendingOutbox };
      } finally {
        db.close();
      }
    },
    { dbName: `rescuelog-user-${String(userId)}`, humanId: caseId },
  );
}

// ---------------------------------------------------------------------------------------
// What the server holds (the real API)
// ---------------------------------------------------------------------------------------

/** GET /api/cases/:caseId (audited as a view). */
export async function apiGetCase(
  request: APIRequestContext,
  caseId: string,
): Promise<CaseRecordResponse> {
  const response = await request.get(`/api/cases/${encodeURIComponent(caseId)}`);
  const body = await response.text();
  expect(response.ok(), `GET /api/cases/${caseId}: ${String(response.status())} ${body}`).toBe(
    true,
  );
  return caseRecordResponseSchema.parse(JSON.parse(body));
}

/** GET /api/cases with search filters (one page of up to 200). */
export async function apiSearchCases(
  request: APIRequestContext,
  query: Record<string, string>,
): Promise<CaseSummary[]> {
  const params = new URLSearchParams({ limit: '200', ...query });
  const response = await request.get(`/api/cases?${params.toString()}`);
  const body = await response.text();
  expect(
    response.ok(),
    `GET /api/cases?${params.toString()}: ${String(response.status())} ${body}`,
  ).toBe(true);
  return z.array(caseSummarySchema).parse(JSON.parse(body));
}

// ---------------------------------------------------------------------------------------
// Quick setup through the sync API (for specs about something other than capture)
// ---------------------------------------------------------------------------------------

export interface SeedMutation {
  name: string;
  args: unknown;
  entityIds: string[];
}

/**
 * Pushes mutations as a device of `actorUserId` would (one new device, seq from 1) and
 * expects every one applied. `request` must be signed in as that user.
 */
export async function apiPush(
  request: APIRequestContext,
  actorUserId: number,
  mutations: SeedMutation[],
): Promise<void> {
  const deviceId = randomUUID();
  const response = await request.post('/api/sync/push', {
    headers: writeHeaders(),
    data: {
      protocolVersion: PROTOCOL_VERSION,
      schemaVersion: SCHEMA_VERSION,
      deviceId,
      mutations: mutations.map((m, index) => ({
        mutationId: randomUUID(),
        deviceId,
        seq: index + 1,
        actorUserId,
        name: m.name,
        args: m.args,
        entityIds: m.entityIds,
        baseVersion: null,
        clientTime: new Date().toISOString(),
        schemaVersion: SCHEMA_VERSION,
      })),
    },
  });
  const body = await response.text();
  expect(response.ok(), `push: ${String(response.status())} ${body}`).toBe(true);
  const parsed = z
    .object({ results: z.array(z.object({ status: z.string(), message: z.string().optional() })) })
    .parse(JSON.parse(body));
  expect(parsed.results.map((r) => `${r.status}${r.message ? `: ${r.message}` : ''}`)).toEqual(
    mutations.map(() => 'applied'),
  );
}
