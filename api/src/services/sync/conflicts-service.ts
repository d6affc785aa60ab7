// Conflict review for administrators: list, view both values (and the value now), resolve by
// keeping the server's value, the client's, or a custom one. A resolution is written as a
// new version of the field (so every device pulls it) and audited by the route.
import type { Kysely } from 'kysely';
import type { Database, JsonValue, SyncConflict as ConflictRow } from '@rescuelog/db/schema';
import { ErrorCode, validationErrorBody } from '@rescuelog/sync-protocol/errors';
import type { ConflictResolution, SyncConflict } from '@rescuelog/sync-protocol/sync/conflicts';
import {
  caseFieldsSchema,
  cprSessionFieldsSchema,
  incidentReportFieldsSchema,
  mciCasualtyFieldsSchema,
  mciIncidentFieldsSchema,
} from '@rescuelog/sync-protocol/sync/entities';
import { ApiError } from '../../lib/api-error';
import {
  ENTITY_TABLE,
  asJson,
  dynamic,
  entityOfConflictType,
  lockSyncWrites,
  nextVersion,
  readFieldVersions,
  sameValue,
  toDbValue,
  toWireValue,
  type LwwEntity,
  type Row,
} from './sync-tables';

const FIELD_SCHEMAS = {
  case: caseFieldsSchema,
  cprSession: cprSessionFieldsSchema,
  incidentReport: incidentReportFieldsSchema,
  mciIncident: mciIncidentFieldsSchema,
  mciCasualty: mciCasualtyFieldsSchema,
} as const;

const HUMAN_ID_COLUMN: Record<LwwEntity, string | null> = {
  case: 'caseId',
  cprSession: 'sessionId',
  incidentReport: 'incidentId',
  mciIncident: 'incidentId',
  mciCasualty: 'tagNumber',
};

const notFound = () => new ApiError(404, ErrorCode.NOT_FOUND, 'Conflict not found');

function entityOf(row: ConflictRow): LwwEntity {
  const entity = entityOfConflictType(row.entityType);
  if (!entity) throw new Error(`Unknown conflict entity type ${row.entityType}`);
  return entity;
}

async function toDto(
  db: Kysely<Database>,
  row: ConflictRow,
  withCurrent: boolean,
): Promise<SyncConflict> {
  const entity = entityOf(row);
  const record = await dynamic(db)
    .selectFrom(ENTITY_TABLE[entity])
    .selectAll()
    .where('id', '=', row.entityId)
    .executeTakeFirst();
  const humanIdColumn = HUMAN_ID_COLUMN[entity];
  return {
    id: String(row.id),
    entity,
    entityId: row.entityId,
    humanId: record && humanIdColumn ? String(record[humanIdColumn]) : null,
    field: row.field,
    baseVersion: row.baseVersion,
    serverValue: row.serverValue,
    serverAuthor: row.serverAuthor,
    clientValue: row.clientValue,
    clientAuthor: row.clientAuthor,
    ...(withCurrent && record
      ? { currentValue: asJson(toWireValue(row.field, record[row.field])) }
      : {}),
    createdAt: row.createdAt.toISOString(),
    resolvedAt: row.resolvedAt ? row.resolvedAt.toISOString() : null,
    resolvedBy: row.resolvedBy,
    resolution: (row.resolution as ConflictResolution | null) ?? null,
  };
}

export async function listConflicts(
  db: Kysely<Database>,
  filter: { resolved: boolean | undefined; limit: number },
): Promise<SyncConflict[]> {
  let query = db.selectFrom('syncConflicts').selectAll();
  if (filter.resolved === true) query = query.where('resolvedAt', 'is not', null);
  if (filter.resolved === false) query = query.where('resolvedAt', 'is', null);
  const rows = await query.orderBy('id', 'desc').limit(filter.limit).execute();
  const out: SyncConflict[] = [];
  for (const row of rows) out.push(await toDto(db, row, false));
  return out;
}

export async function getConflict(db: Kysely<Database>, id: string): Promise<SyncConflict> {
  const row = await db
    .selectFrom('syncConflicts')
    .selectAll()
    .where('id', '=', id)
    .executeTakeFirst();
  if (!row) throw notFound();
  return toDto(db, row, true);
}

export interface ResolvedConflict {
  conflict: SyncConflict;
  before: JsonValue;
  after: JsonValue;
}

export async function resolveConflict(
  db: Kysely<Database>,
  adminId: number,
  id: string,
  choice: ConflictResolution,
  custom: JsonValue | undefined,
): Promise<ResolvedConflict> {
  const result = await db.transaction().execute(async (tx) => {
    await lockSyncWrites(tx);
    const row = await tx
      .selectFrom('syncConflicts')
      .selectAll()
      .where('id', '=', id)
      .forUpdate()
      .executeTakeFirst();
    if (!row) throw notFound();
    if (row.resolvedAt !== null)
      throw new ApiError(409, ErrorCode.CONFLICT, 'This conflict has already been resolved');
    const entity = entityOf(row);
    const table = ENTITY_TABLE[entity];
    const record: Row | undefined = await dynamic(tx)
      .selectFrom(table)
      .selectAll()
      .where('id', '=', row.entityId)
      .executeTakeFirst();
    if (!record) throw new ApiError(404, ErrorCode.NOT_FOUND, 'The record no longer exists');

    const chosen: unknown =
      choice === 'server' ? row.serverValue : choice === 'client' ? row.clientValue : custom;
    const parsed = FIELD_SCHEMAS[entity].safeParse({ [row.field]: chosen });
    if (!parsed.success) {
      const body = validationErrorBody(parsed.error.issues);
      throw new ApiError(400, ErrorCode.VALIDATION_FAILED, body.error, {
        fieldErrors: body.fieldErrors ?? {},
      });
    }
    const value = (parsed.data as Record<string, unknown>)[row.field];
    const before = asJson(toWireValue(row.field, record[row.field]));
    if (!sameValue(before, value)) {
      const version = await nextVersion(tx);
      const versions = { ...readFieldVersions(record), [row.field]: { version, by: adminId } };
      const set: Row = { [row.field]: toDbValue(value), fieldVersions: JSON.stringify(versions) };
      if (entity === 'case') set.updatedBy = adminId;
      await dynamic(tx).updateTable(table).set(set).where('id', '=', row.entityId).execute();
    }
    const resolved = await tx
      .updateTable('syncConflicts')
      .set({ resolvedAt: new Date(), resolvedBy: adminId, resolution: choice })
      .where('id', '=', id)
      .returningAll()
      .executeTakeFirstOrThrow();
    return { resolved, before, after: asJson(value) };
  });
  return {
    conflict: await toDto(db, result.resolved, true),
    before: result.before,
    after: result.after,
  };
}
