// Helpers for the sync tests: a signed-in user with chosen permissions and a simulated device
// that numbers its mutations like the client's outbox and speaks the real HTTP API.
import { randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import { IDBFactory, IDBKeyRange } from 'fake-indexeddb';
import { z } from 'zod';
import { createSyncedTable } from '@rescuelog/db/synced-table';
import {
  serverColumns,
  timestampSchema,
  uuidSchema,
} from '@rescuelog/sync-protocol/platform/values';
import { SyncDatabase } from '@rescuelog/sync-protocol/client/local-db';
import {
  createFetchTransport,
  type FetchLike,
  type SyncTransport,
} from '@rescuelog/sync-protocol/client/transport';
import type { Registry } from '@rescuelog/sync-protocol/platform/registry';
import { appDeviceSchema } from '@rescuelog/sync-protocol/records/device';
import type { Permissions } from '@rescuelog/sync-protocol/permissions';
import type { CaseFields } from '@rescuelog/sync-protocol/cases/case-schema';
import { generateHumanId, type HumanIdPrefix } from '@rescuelog/sync-protocol/platform/human-id';
import type { MutationEnvelope as Mutation } from '@rescuelog/sync-protocol/platform/envelope';
import type {
  AppMutationArgs,
  AppMutationName as MutationName,
} from '@rescuelog/sync-protocol/records/registry';

type MutationOf<N extends MutationName> = { name: N; args: AppMutationArgs<N> };
import {
  pullAnswerSchema,
  pushResponseSchema,
  type PullResponse,
  type PushResponse,
} from '@rescuelog/sync-protocol/platform/push-pull';
import { PROTOCOL_VERSION, SCHEMA_VERSION } from '@rescuelog/sync-protocol/platform/versions';
import { SESSION_COOKIE } from '../src/plugins/external/session';
import {
  build,
  loginAs,
  type BuildOptions,
  type TestApp,
  type TestClient,
  type TestUser,
} from './helpers';

/** What a responder normally holds: create, edit and delete their own records. */
export const RESPONDER: Permissions = {
  newCase: { read: true, create: true, edit: true, delete: true },
  cprLogger: { read: true, create: true, edit: true, delete: true },
  multiPatient: { read: true, create: true, edit: false, delete: false },
  incidentReports: { read: true, create: true, edit: false, delete: false },
  casesLogged: { view: true, edit: false, delete: false },
  cprLogs: { view: true, edit: false, delete: false },
  multiPatientLogs: { view: true, edit: false, delete: false },
};

/** A responder whose casesLogged entry withholds view: they see (and may touch) only their own cases. */
export const OWN_CASES_ONLY: Permissions = {
  ...RESPONDER,
  casesLogged: { view: false, edit: false, delete: false },
};

/** The sync tests need the field-versions migration (2026-11-21T0700-sync-fields). */
export async function ensureSyncSchema(t: TestApp): Promise<void> {
  const { rows } = await sql<{
    n: number;
  }>`select count(*)::int as n from information_schema.columns
    where table_name = 'cases' and column_name = 'field_versions'`.execute(t.db);
  if ((rows[0]?.n ?? 0) === 0)
    throw new Error(
      'The database lacks cases.field_versions: is the sync-fields migration registered?',
    );
}

/** The real app (helpers.ts build()) on a database that has the sync schema. */
export async function buildSyncApp(options?: BuildOptions): Promise<TestApp> {
  const t = await build(options);
  try {
    await ensureSyncSchema(t);
  } catch (error) {
    await t.close();
    throw error;
  }
  return t;
}

export interface SyncUser {
  user: TestUser;
  id: number;
  client: TestClient;
}

export async function syncUser(
  t: TestApp,
  permissions: Permissions = RESPONDER,
  role: 'member' | 'administrator' = 'member',
): Promise<SyncUser> {
  const user = await t.createUser({ role, status: 'approved' });
  await setPermissions(t, user.row.id, permissions);
  return { user, id: user.row.id, client: await loginAs(t, user) };
}

/**
 * What an administrator's change of a user's permissions stores. The server's session cache
 * hears of it within its bound (decision 026, session-cache.test.ts); these tests are about
 * what sync does with the new permissions, so the cache is emptied at once.
 */
export async function setPermissions(
  t: TestApp,
  userId: number,
  permissions: Permissions,
): Promise<void> {
  await t.db
    .updateTable('users')
    .set({ permissions: JSON.stringify(permissions) })
    .where('id', '=', userId)
    .execute();
  t.app.authCache.flush();
}

/** The client engine's transport to the test server, signed in as `user` (their session cookie). */
export function transportAs(user: SyncUser, fetch?: FetchLike): SyncTransport {
  return createFetchTransport({
    baseUrl: user.client.baseUrl,
    headers: (): Record<string, string> =>
      user.client.sessionCookie ? { cookie: `${SESSION_COOKIE}=${user.client.sessionCookie}` } : {},
    ...(fetch ? { fetch } : {}),
  });
}

/**
 * A new device of `user` (fake-indexeddb) whose stores come from `registry` (a test's own
 * record kind next to the app's), with its transport to the test server.
 */
export function deviceOf(
  registry: Registry,
  user: SyncUser,
  fetch?: FetchLike,
): { db: SyncDatabase; transport: SyncTransport } {
  const db = new SyncDatabase(
    user.id,
    { ...appDeviceSchema, registry, version: appDeviceSchema.version + 1 },
    { indexedDB: new IDBFactory(), IDBKeyRange },
  );
  return { db, transport: transportAs(user, fetch) };
}

/** The server's row of a case (fails when there is none). */
export function caseRow(t: TestApp, id: string) {
  return t.db.selectFrom('cases').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
}

/** The audit log's entries for `action`, oldest first, narrowed to an actor or an entity. */
export function auditEntries(
  t: TestApp,
  action: string,
  where: { actorUserId?: number; entityId?: string } = {},
) {
  let query = t.db.selectFrom('auditLog').selectAll().where('action', '=', action);
  if (where.actorUserId !== undefined) query = query.where('actorUserId', '=', where.actorUserId);
  if (where.entityId !== undefined) query = query.where('entityId', '=', where.entityId);
  return query.orderBy('id').execute();
}

/**
 * A case with every field completion requires (sync-protocol case/completion.ts); with one
 * vital sign reading (completeCaseVital) it can be completed. Overrides replace fields.
 */
export function completeCaseFields(overrides: CaseFields = {}): CaseFields {
  const call = Date.parse('2026-11-21T08:00:00.000Z');
  return {
    patientName: 'Thandi',
    incidentType: 'MVA',
    incidentLocation: 'N2 near Somerset West',
    approximateAge: 34,
    patientGender: 'female',
    avpu: 'A',
    triageStatus: 'YELLOW',
    callReceivedTime: new Date(call).toISOString(),
    responderArrivalTime: new Date(call + 12 * 60_000).toISOString(),
    receivingHospital: 'Tygerberg Hospital',
    transportPriority: 'P2',
    ...overrides,
  };
}

/** The vital sign reading a complete case needs. */
export function completeCaseVital(caseId: string): MutationOf<'vitalSign.record'>['args'] {
  return {
    id: randomUUID(),
    caseId,
    type: 'heartRate',
    value: '88',
    numericValue: 88,
    timestamp: '2026-11-21T08:15:00.000Z',
  };
}

export const uuid = (): string => randomUUID();
export const humanId = (prefix: HumanIdPrefix): string => generateHumanId(prefix);

type ArgsOf<N extends MutationName> = MutationOf<N>['args'];

export class Device {
  readonly deviceId = randomUUID();
  seq = 0;

  constructor(readonly owner: SyncUser) {}

  /** The next mutation of this device's outbox. */
  m<N extends MutationName>(
    name: N,
    args: ArgsOf<N>,
    options: { baseVersion?: string | null; seq?: number } = {},
  ): Mutation {
    this.seq = options.seq ?? this.seq + 1;
    const ids = ['id', 'caseId', 'cprSessionId', 'mciIncidentId']
      .map((k) => (args as Record<string, unknown>)[k])
      .filter((v): v is string => typeof v === 'string' && /^[0-9a-f-]{36}$/.test(v));
    return {
      mutationId: randomUUID(),
      deviceId: this.deviceId,
      seq: this.seq,
      actorUserId: this.owner.id,
      name,
      args,
      entityIds: ids,
      baseVersion: options.baseVersion ?? null,
      clientTime: new Date().toISOString(),
      schemaVersion: SCHEMA_VERSION,
    } as Mutation;
  }

  pushRaw(mutations: unknown[], overrides: Record<string, unknown> = {}): Promise<Response> {
    return this.owner.client.post('/api/sync/push', {
      protocolVersion: PROTOCOL_VERSION,
      schemaVersion: SCHEMA_VERSION,
      deviceId: this.deviceId,
      mutations,
      ...overrides,
    });
  }

  async push(...mutations: Mutation[]): Promise<PushResponse> {
    const res = await this.pushRaw(mutations);
    if (res.status !== 200)
      throw new Error(`push failed: ${String(res.status)} ${await res.text()}`);
    return pushResponseSchema.parse(await res.json());
  }
}

/** A new case pushed from `device` (every field completion requires unless `fields` says otherwise). */
export async function newCase(
  device: Device,
  fields: ArgsOf<'case.upsert'>['fields'] = completeCaseFields(),
): Promise<{ id: string; caseId: string }> {
  const id = randomUUID();
  const caseId = generateHumanId('C');
  const [result] = (await device.push(device.m('case.upsert', { id, humanId: caseId, fields })))
    .results;
  if (result?.status !== 'applied')
    throw new Error(`the new case was not applied: ${JSON.stringify(result)}`);
  return { id, caseId };
}

/** A new case pushed from `device` with a vital sign reading, then completed. */
export async function completedCase(
  device: Device,
  fields: ArgsOf<'case.upsert'>['fields'] = completeCaseFields(),
): Promise<{ id: string; caseId: string }> {
  const c = await newCase(device, fields);
  const res = await device.push(
    device.m('vitalSign.record', completeCaseVital(c.id)),
    device.m('case.complete', { id: c.id, completedAt: '2026-11-21T09:30:00.000Z' }),
  );
  const outcomes = res.results.map((r) => r.code ?? r.status);
  if (outcomes.join() !== 'applied,applied')
    throw new Error(`the case was not completed: ${JSON.stringify(res.results)}`);
  return c;
}

export async function pull(
  client: TestClient,
  cursor: string | null,
  limit?: number,
): Promise<PullResponse> {
  const res = await client.post('/api/sync/pull', {
    protocolVersion: PROTOCOL_VERSION,
    schemaVersion: SCHEMA_VERSION,
    deviceId: randomUUID(),
    cursor,
    ...(limit === undefined ? {} : { limit }),
  });
  if (res.status !== 200) throw new Error(`pull failed: ${String(res.status)} ${await res.text()}`);
  return pullAnswerSchema.parse(await res.json());
}

/** Follows the cursor until hasMore is false. */
export async function pullAll(
  client: TestClient,
  cursor: string | null = null,
  limit?: number,
): Promise<{ cursor: string; changes: PullResponse['changes'] }> {
  const changes: PullResponse['changes'] = [];
  let next = cursor;
  for (;;) {
    const page = await pull(client, next, limit);
    changes.push(...page.changes);
    next = page.cursor;
    if (!page.hasMore) return { cursor: page.cursor, changes };
  }
}

/**
 * A throwaway record kind for tests of the sync engine itself: a note with a title and a body,
 * owned by its author, written by whoever may write incident reports (record-platform.test.ts
 * spells such a kind out as the example of adding one). Its fields for `upsertMutator`, and
 * `migrateNotes` for `buildSyncApp({ migrate })`.
 */
export function noteKind<const K extends string, const T extends string>(
  kind: K,
  table: T,
  sqlTable: string,
) {
  return {
    kind,
    label: kind,
    table,
    sqlTable,
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
    access: { module: 'incidentReports', logModule: 'incidentReports', viewAction: 'read' },
    device: { indexes: 'userId' },
  } as const;
}

export const noteFields = z.strictObject({
  title: z.string().min(1).max(200),
  body: z.string().max(5000).nullable(),
});

/** Creates a note kind's table (noteKind) with the one synced-table helper. */
export function migrateNotes(sqlTable: string): (db: unknown) => Promise<void> {
  return (db) =>
    createSyncedTable(
      db as Parameters<typeof createSyncedTable>[0],
      sqlTable,
      { lww: true },
      (table) => table.addColumn('title', 'text', (c) => c.notNull()).addColumn('body', 'text'),
    );
}
