// Conflict review for administrators: list, view both values (and the value now), resolve by
// keeping the server's value, the client's, or a custom one. A resolution is written as a
// new version of the field (so every device pulls it) and audited by the route.
import type { Kysely } from 'kysely';
import { z } from 'zod';
import type { Database, JsonValue, SyncConflict as ConflictRow } from '@rescuelog/db/schema';
import { ErrorCode, validationErrorBody } from '@rescuelog/sync-protocol/errors';
import type { ConflictResolution, SyncConflict } from '@rescuelog/sync-protocol/platform/conflicts';
import { asJson, sameValue } from '@rescuelog/sync-protocol/platform/json';
import type { RecordDefinition } from '@rescuelog/sync-protocol/platform/record';
import type { Registry } from '@rescuelog/sync-protocol/platform/registry';
import { ApiError } from '../../lib/api-error';
import {
  dynamic,
  beginSyncWrite,
  nextVersion,
  readFieldVersions,
  toDbValue,
  toWireValue,
  type Row,
} from './sync-tables';

/** A field's own schema, from the kind's record schema. */
function fieldSchema(def: RecordDefinition, field: string): z.ZodType {
  const record = def.record;
  const shape = record instanceof z.ZodObject ? (record.shape as Record<string, z.ZodType>) : {};
  return shape[field] ?? z.never();
}

const notFound = () => new ApiError(404, ErrorCode.NOT_FOUND, 'Conflict not found');

function definitionOf(registry: Registry, row: ConflictRow): RecordDefinition {
  const def = registry.byTable(row.entityType);
  if (!def) throw new Error(`Unknown conflict entity type ${row.entityType}`);
  return def;
}

async function toDto(
  db: Kysely<Database>,
  registry: Registry,
  row: ConflictRow,
  withCurrent: boolean,
): Promise<SyncConflict> {
  const def = definitionOf(registry, row);
  const record = await dynamic(db)
    .selectFrom(def.table)
    .selectAll()
    .where('id', '=', row.entityId)
    .executeTakeFirst();
  const humanIdColumn = def.humanId?.column;
  return {
    id: String(row.id),
    entity: def.kind,
    kindLabel: def.label,
    entityId: row.entityId,
    humanId: record && humanIdColumn ? String(record[humanIdColumn]) : null,
    field: row.field,
    baseVersion: row.baseVersion,
    serverValue: row.serverValue,
    serverAuthor: row.serverAuthor,
    serverAuthorName: row.serverAuthorName,
    clientValue: row.clientValue,
    clientAuthor: row.clientAuthor,
    clientAuthorName: row.clientAuthorName,
    ...(withCurrent && record
      ? { currentValue: asJson(toWireValue(def, row.field, record[row.field])) }
      : {}),
    createdAt: row.createdAt.toISOString(),
    resolvedAt: row.resolvedAt ? row.resolvedAt.toISOString() : null,
    resolvedBy: row.resolvedBy,
    resolution: (row.resolution as ConflictResolution | null) ?? null,
  };
}

export async function listConflicts(
  db: Kysely<Database>,
  registry: Registry,
  filter: { resolved: boolean | undefined; limit: number },
): Promise<SyncConflict[]> {
  let query = db.selectFrom('syncConflicts').selectAll();
  if (filter.resolved === true) query = query.where('resolvedAt', 'is not', null);
  if (filter.resolved === false) query = query.where('resolvedAt', 'is', null);
  const rows = await query.orderBy('id', 'desc').limit(filter.limit).execute();
  const out: SyncConflict[] = [];
  for (const row of rows) out.push(await toDto(db, registry, row, false));
  return out;
}

export async function getConflict(
  db: Kysely<Database>,
  registry: Registry,
  id: string,
): Promise<SyncConflict> {
  const row = await db
    .selectFrom('syncConflicts')
    .selectAll()
    .where('id', '=', id)
    .executeTakeFirst();
  if (!row) throw notFound();
  return toDto(db, registry, row, true);
}

export interface ResolvedConflict {
  conflict: SyncConflict;
  before: JsonValue;
  after: JsonValue;
}

export async function resolveConflict(
  db: Kysely<Database>,
  registry: Registry,
  adminId: number,
  id: string,
  choice: ConflictResolution,
  custom: JsonValue | undefined,
): Promise<ResolvedConflict> {
  const result = await db.transaction().execute(async (tx) => {
    const row = await tx
      .selectFrom('syncConflicts')
      .selectAll()
      .where('id', '=', id)
      .forUpdate()
      .executeTakeFirst();
    if (!row) throw notFound();
    if (row.resolvedAt !== null)
      throw new ApiError(409, ErrorCode.CONFLICT, 'This conflict has already been resolved');
    const def = definitionOf(registry, row);
    const table = def.table;
    const record: Row | undefined = await dynamic(tx)
      .selectFrom(table)
      .selectAll()
      .where('id', '=', row.entityId)
      .forNoKeyUpdate()
      .executeTakeFirst();
    if (!record) throw new ApiError(404, ErrorCode.NOT_FOUND, 'The record no longer exists');

    const chosen: unknown =
      choice === 'server' ? row.serverValue : choice === 'client' ? row.clientValue : custom;
    const parsed = z
      .object({ [row.field]: fieldSchema(def, row.field) })
      .safeParse({ [row.field]: chosen });
    if (!parsed.success) {
      const body = validationErrorBody(parsed.error.issues);
      throw new ApiError(400, ErrorCode.VALIDATION_FAILED, body.error, {
        fieldErrors: body.fieldErrors ?? {},
      });
    }
    const value = (parsed.data as Record<string, unknown>)[row.field];
    const before = asJson(toWireValue(def, row.field, record[row.field]));
    // Both writes below take versions (the record's, the conflict's): the ticket first. The
    // record is locked, so a version taken now is above any a device holds of it.
    await beginSyncWrite(tx);
    if (!sameValue(before, value)) {
      const version = await nextVersion(tx);
      const versions = { ...readFieldVersions(record), [row.field]: { version, by: adminId } };
      const set: Row = { [row.field]: toDbValue(value), fieldVersions: JSON.stringify(versions) };
      if (def.updatedByColumn) set[def.updatedByColumn] = adminId;
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
    conflict: await toDto(db, registry, result.resolved, true),
    before: result.before,
    after: result.after,
  };
}
