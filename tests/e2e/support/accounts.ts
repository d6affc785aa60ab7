// People in the e2e run and the ways they get in: through the real screens (what the spec
// tests) or through the real API (quick setup for specs about something else).
import { randomUUID } from 'node:crypto';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, type APIRequestContext, type Page } from '@playwright/test';
import { z } from 'zod';
import { serverOrigin } from './fixtures';
import { readServerState } from './server';

export interface Person {
  email: string;
  password: string;
  fullName: string;
  qualifications: string;
  callSign?: string;
}

/** The first account of the run; the first-admin spec registers it through the screen. */
export const ADMIN: Person = {
  email: 'admin@rescuelog-e2e.example.org',
  password: 'Ambulance-Base-7',
  fullName: 'Thandi Administrator',
  qualifications: 'Emergency Care Practitioner',
  callSign: 'BASE 1',
};

export function newPerson(name: string): Person {
  const id = randomUUID().slice(0, 8);
  return {
    email: `${name.toLowerCase().replace(/[^a-z]+/g, '.')}.${id}@rescuelog-e2e.example.org`,
    password: `Pass-${id}`,
    fullName: name,
    qualifications: 'Basic Ambulance Assistant',
  };
}

export const ID_DOCUMENT_FIXTURE = path.join(
  path.dirname(fileURLToPath(import.meta.url)),
  '..',
  'fixtures',
  'id-document.png',
);

const userSchema = z.object({
  id: z.number().int(),
  email: z.string(),
  status: z.string(),
  role: z.string(),
});
const userResponseSchema = z.object({ user: userSchema });
export type ApiUser = z.infer<typeof userSchema>;

/** What the web app sends on state-changing requests (the API refuses cross-site writes);
 * `origin` is the run's server unless a spec talks to a server of its own. */
export function writeHeaders(origin = serverOrigin()): Record<string, string> {
  return { 'x-requested-with': 'rescuelog', origin };
}

async function expectOk(
  response: Awaited<ReturnType<APIRequestContext['post']>>,
  what: string,
): Promise<unknown> {
  const body = await response.text();
  expect(response.ok(), `${what}: ${String(response.status())} ${body}`).toBe(true);
  return body === '' ? null : (JSON.parse(body) as unknown);
}

/** Registers `person` and signs in as them (registration itself signs nobody in). */
export async function apiRegister(
  request: APIRequestContext,
  person: Person,
  origin = serverOrigin(),
): Promise<ApiUser> {
  const { callSign, ...rest } = person;
  const response = await request.post('/api/register', {
    headers: writeHeaders(origin),
    data: { ...rest, ...(callSign ? { callSign } : {}) },
  });
  await expectOk(response, `register ${person.email}`);
  return apiLogin(request, person, origin);
}

export async function apiLogin(
  request: APIRequestContext,
  person: Person,
  origin = serverOrigin(),
): Promise<ApiUser> {
  const response = await request.post('/api/login', {
    headers: writeHeaders(origin),
    data: { email: person.email, password: person.password },
  });
  return userResponseSchema.parse(await expectOk(response, `login ${person.email}`)).user;
}

export async function apiApprove(
  adminRequest: APIRequestContext,
  userId: number,
  origin = serverOrigin(),
): Promise<void> {
  const response = await adminRequest.post(`/api/admin/users/${String(userId)}/approve`, {
    headers: writeHeaders(origin),
  });
  await expectOk(response, `approve user ${String(userId)}`);
}

/**
 * The administrator exists (registered first by the first-admin spec, or here when a spec
 * runs alone on a fresh server) and `page`'s context is signed in as them. The session
 * cookie is kept for the run: failed sign-ins slow down (decision 022), and
 * a real administrator does not sign in again for every page either.
 */
export async function signInAsAdmin(page: Page): Promise<void> {
  const context = page.context();
  const cookieFile = path.join(readServerState().runDir, 'admin-cookies.json');
  if (existsSync(cookieFile)) {
    const cookies = storedCookiesSchema.parse(JSON.parse(readFileSync(cookieFile, 'utf8')));
    await context.addCookies(cookies);
    const me = await page.request.get('/api/user');
    if (me.ok()) return;
    await context.clearCookies();
  }
  const login = await page.request.post('/api/login', {
    headers: writeHeaders(),
    data: { email: ADMIN.email, password: ADMIN.password },
  });
  if (login.status() === 401) {
    const registered = await apiRegister(page.request, ADMIN);
    expect(registered.role, 'the administrator must be the first account of the run').toBe(
      'administrator',
    );
  } else {
    await expectOk(login, 'administrator login');
  }
  writeFileSync(cookieFile, JSON.stringify(await context.cookies()));
}

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

/** A registered, approved member; `page`'s context is signed in as them. */
export async function signInAsNewMember(
  page: Page,
  adminPage: Page,
  name: string,
): Promise<Person & { id: number }> {
  const person = newPerson(name);
  const user = await apiRegister(page.request, person);
  await signInAsAdmin(adminPage);
  await apiApprove(adminPage.request, user.id);
  // Approval does not change the member's session; the next /api/user says approved.
  return { ...person, id: user.id };
}

export interface NotificationToSend {
  title: string;
  message: string;
  type?: 'general' | 'emergency' | 'system' | 'maintenance';
  priority?: 'low' | 'normal' | 'high' | 'critical';
  targetUserIds: number[];
}

/** POST /api/admin/notifications as the administrator signed in on `adminPage`. */
export async function apiSendNotification(
  adminPage: Page,
  notification: NotificationToSend,
): Promise<void> {
  const response = await adminPage.request.post('/api/admin/notifications', {
    headers: writeHeaders(),
    data: notification,
  });
  await expectOk(response, `send notification ${notification.title}`);
}

export async function fillRegisterForm(page: Page, person: Person): Promise<void> {
  await page.getByRole('tab', { name: 'Register' }).click();
  await page.getByLabel('Email').fill(person.email);
  await page.getByLabel('Password').fill(person.password);
  await page.getByLabel('Full name').fill(person.fullName);
  if (person.callSign) await page.getByLabel('Call sign').fill(person.callSign);
  await page.getByLabel('Qualifications').selectOption(person.qualifications);
}

export async function signInThroughScreen(page: Page, person: Person): Promise<void> {
  await page.goto('/auth');
  await page.getByLabel('Email').fill(person.email);
  await page.getByLabel('Password').fill(person.password);
  await page.getByRole('button', { name: 'Sign In' }).click();
}
