// The server side of a mutator (sync-protocol platform/mutator.ts): MutatorTx inside the push
// transaction. What only the server can do happens here: permissions (the kind's family
// rule), numbers (human ids) checked against every device's, field versions and conflicts
// (per-field last write wins, the server the authority: when a field was written after the
// mutation's base by another person, the later write still wins and both values are kept in
// sync_conflicts for review, so nothing is silently overwritten), the author's name from
// users, and one audit entry per mutation that wrote something. Reads come from the batch's
// records (batch-records.ts: read once for the whole push, kept current by these writes).
import type { Transaction } from 'kysely';
import type { Database, JsonValue } from '@rescuelog/db/schema';
import { decideAccess, ownersOf, type Actor } from '@rescuelog/sync-protocol/platform/access';
import { asJson, sameValue } from '@rescuelog/sync-protocol/platform/json';
import type {
  AccessEvent,
  AccessVerb,
  ConflictReport,
  MutatorTx,
  Row,
  UpdateOptions,
  UpdateResult,
} from '@rescuelog/sync-protocol/platform/mutator';
import type { RecordDefinition } from '@rescuelog/sync-protocol/platform/record';
import type { ParsedMutation, Registry } from '@rescuelog/sync-protocol/platform/registry';
import {
  Rejection,
  REJECTION_MESSAGES,
  RejectionCode,
} from '@rescuelog/sync-protocol/platform/rejections';
import { toJsonValue } from '../../lib/json-value';
import type { BatchRecords, StoredRecord } from './batch-records';
import type { AuditWrite } from './sync-audit';
import { nextVersion, toDbValues, type FieldVersions } from './sync-tables';

export interface ServerStoreOptions {
  tx: Transaction<Database>;
  registry: Registry;
  actor: Actor;
  mutation: ParsedMutation;
  /** What the batch knows of the records it touches (read once, kept current). */
  records: BatchRecords;
  /** Adds an audit entry to the push's (an access event's, beside the mutation's own). */
  audit: (entry: AuditWrite) => void;
}

export interface ServerStore {
  tx: MutatorTx;
  /** Fields where the mutation replaced another person's newer value. */
  conflicts: ConflictReport[];
  /** The mutation's audit entry, or null when it wrote nothing (a replay, a no-op). */
  auditEntry(): AuditWrite | null;
}

/** One mutation's run: its options, and what it has done so far (the steps below share it). */
interface Run extends ServerStoreOptions {
  conflicts: ConflictReport[];
  /** Details for the mutation's audit entry (MutatorTx.note). */
  notes: Record<string, JsonValue>;
  /** Whether it wrote anything (else it has no audit entry). */
  wrote: boolean;
}

export function serverStore(options: ServerStoreOptions): ServerStore {
  const run: Run = { ...options, conflicts: [], notes: {}, wrote: false };
  const store: MutatorTx = {
    location: 'server',
    mutation: options.mutation,
    get: (kind, id) => readRecord(run, kind, id),
    require: (kind, id, verb) => requireRecord(run, kind, id, verb),
    notFound: notFoundRejection,
    async list(kind, column, value) {
      const found = await run.records.select(kind, (eb) => eb(column, '=', value));
      return found.map((stored) => stored.record);
    },
    insert: (kind, values) => insertRecord(run, kind, values),
    update: (kind, id, changes, updateOptions) =>
      updateRecord(run, kind, id, changes, updateOptions),
    async tombstone(kind, id) {
      await run.records.write(kind, id, { deletedAt: run.mutation.clientTime });
      run.wrote = true;
    },
    authorize: (kind, verb, row) => authorize(run, kind, verb, row),
    author: (userId) => run.records.author(userId),
    note: (details) => note(run, details),
    recordAccess: (event) => recordAccess(run, event),
  };
  return { tx: store, conflicts: run.conflicts, auditEntry: () => auditEntry(run) };
}

/** Runs a parsed mutation's mutator on the server. */
export async function runOnServer(
  options: ServerStoreOptions,
): Promise<{ conflicts: ConflictReport[]; audit: AuditWrite | null }> {
  const mutator = options.registry.mutator(options.mutation.name);
  if (!mutator) throw new Rejection(RejectionCode.VALIDATION_FAILED);
  const store = serverStore(options);
  await mutator.apply(store.tx, options.mutation.args);
  return { conflicts: store.conflicts, audit: store.auditEntry() };
}

function note(run: Run, details: Record<string, JsonValue>): void {
  run.notes = { ...run.notes, ...details };
}

function notFoundRejection(kind: string, id: string): Rejection {
  return new Rejection(RejectionCode.NOT_FOUND, REJECTION_MESSAGES.NOT_FOUND, { id, kind });
}

async function readRecord(run: Run, kind: string, id: string): Promise<Row | undefined> {
  const stored = await run.records.get(kind, id);
  return stored ? { ...stored.record } : undefined;
}

/** The record, there and not deleted; with a verb, the actor's right first. */
async function requireRecord(
  run: Run,
  kind: string,
  id: string,
  verb: AccessVerb | undefined,
): Promise<Row> {
  const row = await readRecord(run, kind, id);
  const label = run.registry.get(kind).label;
  if (!row)
    throw new Rejection(RejectionCode.NOT_FOUND, `The ${label} does not exist on the server.`, {
      id,
    });
  if (verb) authorize(run, kind, verb, row);
  if (row.deletedAt !== null)
    throw new Rejection(RejectionCode.DELETED, `The ${label} was deleted.`, { id });
  return row;
}

/** Throws the kind's family rule's refusal when the actor may not. */
function authorize(run: Run, kind: string, verb: AccessVerb, row?: Row): void {
  const { registry, actor } = run;
  const access = registry.family(kind);
  if (!access) throw new Rejection(RejectionCode.FORBIDDEN);
  const decision = decideAccess(actor, access, verb, ownersOf(row, registry.ownerColumns(kind)));
  if (!decision.allowed)
    throw new Rejection(decision.code, REJECTION_MESSAGES[decision.code], {
      module: decision.module,
      action: decision.action,
    });
}

/** Two devices made the same number: reported, never merged. */
async function assertNumberFree(run: Run, kind: string, humanId: string): Promise<void> {
  const clash = await run.records.numberTaken(kind, humanId);
  if (clash !== undefined)
    throw new Rejection(
      RejectionCode.HUMAN_ID_COLLISION,
      `Another record already has the number ${humanId}.`,
      { humanId, existingId: clash },
    );
}

/** A new record: owned by the actor, made at the device's time, every field's version its own. */
async function insertRecord(run: Run, kind: string, values: Row): Promise<void> {
  const { registry, actor, mutation } = run;
  const def = registry.get(kind);
  const id = String(values.id);
  const row: Row = {
    ...toDbValues(values),
    id,
    userId: actor.id,
    createdAt: mutation.clientTime,
  };
  const humanId = def.humanId ? values[def.humanId.column] : undefined;
  if (def.humanId && typeof humanId === 'string') await assertNumberFree(run, kind, humanId);
  const bookkeeping = new Set(['id', def.humanId?.column, def.parent?.column]);
  const fields = Object.keys(values).filter((k) => !bookkeeping.has(k));
  let version: string | undefined;
  if (def.lww) {
    version = await nextVersion(run.tx);
    row.fieldVersions = JSON.stringify(stampedVersions({}, fields, version, actor.id));
  }
  if (def.updatedByColumn) row[def.updatedByColumn] = actor.id;
  await run.records.insert(kind, id, typeof humanId === 'string' ? humanId : undefined, row);
  run.wrote = true;
  const parent = def.parent ? values[def.parent.column] : undefined;
  note(run, {
    created: true,
    fields,
    ...(version !== undefined ? { fieldVersion: version } : {}),
    ...(typeof humanId === 'string' ? { humanId } : {}),
    ...(def.parent && typeof parent === 'string' ? { [def.parent.column]: parent } : {}),
  });
}

function stampedVersions(
  versions: FieldVersions,
  fields: readonly string[],
  version: string,
  by: number,
): FieldVersions {
  const next: FieldVersions = { ...versions };
  for (const field of fields) next[field] = { version, by };
  return next;
}

/** Writes the fields that change (last write wins per field), recording conflicts. */
async function updateRecord(
  run: Run,
  kind: string,
  id: string,
  changes: Row,
  options: UpdateOptions = {},
): Promise<UpdateResult> {
  const { registry, actor } = run;
  const def = registry.get(kind);
  const stored = await run.records.get(kind, id);
  if (!stored) throw notFoundRejection(kind, id);
  const changed = await changedFields(run, def, id, stored, changes, options);
  const names = Object.keys(changed);
  if (names.length === 0) return { changed: [], conflicts: [] };
  const set: Row = toDbValues(changed);
  let version: string | undefined;
  if (def.lww) {
    // Above the version of the row as read (and locked): sync-tables.ts reserveVersions.
    const current = stored.record.version;
    version = await nextVersion(run.tx, typeof current === 'string' ? current : undefined);
    set.fieldVersions = JSON.stringify(
      stampedVersions(stored.fieldVersions, names, version, actor.id),
    );
  }
  if (def.updatedByColumn) set[def.updatedByColumn] = actor.id;
  await run.records.write(kind, id, set);
  run.wrote = true;
  const mine = run.conflicts.filter((c) => names.includes(c.field));
  note(run, {
    fields: names,
    ...(version !== undefined ? { fieldVersion: version } : {}),
    ...(mine.length > 0 ? { conflicts: mine.map((c) => c.field) } : {}),
  });
  return { changed: names, conflicts: mine };
}

/**
 * The changes whose value differs from the record's. A field another person wrote after the
 * mutation's base (or, with `before`, whose value is no longer the one the author saw) is a
 * conflict: the later write still wins, and both values are kept (recordConflict).
 */
async function changedFields(
  run: Run,
  def: RecordDefinition,
  id: string,
  stored: StoredRecord,
  changes: Row,
  options: UpdateOptions,
): Promise<Row> {
  const existing = stored.record;
  const base = BigInt(run.mutation.baseVersion ?? '0');
  const changed: Row = {};
  for (const [field, value] of Object.entries(changes)) {
    if (value === undefined) continue;
    const serverValue = existing[field];
    if (sameValue(serverValue, value)) continue;
    const written = def.lww ? stored.fieldVersions[field] : undefined;
    const concurrent =
      written !== undefined &&
      written.by !== run.actor.id &&
      (options.before
        ? !sameValue(serverValue, options.before[field])
        : BigInt(written.version) > base);
    if (concurrent) await recordConflict(run, def.kind, id, field, serverValue, value, written.by);
    changed[field] = value;
  }
  return changed;
}

/** Keeps both values of a field in sync_conflicts, with both authors' names as they are now. */
async function recordConflict(
  run: Run,
  kind: string,
  id: string,
  field: string,
  serverValue: unknown,
  clientValue: unknown,
  serverAuthor: number,
): Promise<void> {
  const { records, actor } = run;
  const report = { field, serverValue: asJson(serverValue), clientValue: asJson(clientValue) };
  run.conflicts.push(report);
  // Both names as they are now: the devices show who, offline (decision 015).
  const server = await records.author(serverAuthor);
  const client = await records.author(actor.id);
  await records.flush();
  await run.tx
    .insertInto('syncConflicts')
    .values({
      entityType: run.registry.get(kind).sqlTable,
      recordKind: kind,
      serverAuthorName: server?.fullName ?? null,
      clientAuthorName: client?.fullName ?? null,
      entityId: id,
      field,
      baseVersion: run.mutation.baseVersion,
      serverValue: JSON.stringify(report.serverValue),
      clientValue: JSON.stringify(report.clientValue),
      serverAuthor,
      clientAuthor: actor.id,
    })
    .execute();
}

/** An access event (view, print, export) in the audit log, once per event id. */
async function recordAccess(run: Run, event: AccessEvent): Promise<void> {
  const { registry, records, mutation } = run;
  const def = registry.get(event.kind);
  const record = await readRecord(run, event.kind, event.recordId);
  const action = `${event.kind}.${event.action}`;
  const seen = await records.accessSeen(event.id);
  if (seen) {
    if (seen.action === action && seen.entityId === event.recordId) return;
    throw new Rejection(RejectionCode.APPEND_ONLY, REJECTION_MESSAGES.APPEND_ONLY, {
      id: event.id,
    });
  }
  const humanId = def.humanId && record ? record[def.humanId.column] : undefined;
  records.accessRecorded(event.id, { action, entityId: event.recordId });
  run.audit({
    action,
    entityType: event.kind,
    entityId: event.recordId,
    details: toJsonValue({
      accessEventId: event.id,
      [`${event.kind}Id`]: event.recordId,
      ...(typeof humanId === 'string' ? { humanId } : {}),
      source: 'device',
      occurredAt: mutation.clientTime,
      ...(event.detail !== undefined ? { detail: event.detail } : {}),
      ...(record && record.deletedAt !== null ? { [`${event.kind}Deleted`]: true } : {}),
      mutationId: mutation.mutationId,
      deviceId: mutation.deviceId,
      seq: mutation.seq,
    }) as Record<string, JsonValue>,
  });
}

/** The mutation's own audit entry, or null when it wrote nothing. */
function auditEntry(run: Run): AuditWrite | null {
  if (!run.wrote) return null;
  const { registry, mutation } = run;
  const mutator = registry.mutator(mutation.name);
  const ids = mutator ? mutator.entityIds(mutation.args) : [];
  return {
    action: `sync.${mutation.name}`,
    entityType: mutator?.kind ?? mutation.name,
    entityId: ids[0] ?? mutation.mutationId,
    details: {
      mutationId: mutation.mutationId,
      deviceId: mutation.deviceId,
      seq: mutation.seq,
      ...run.notes,
    },
  };
}
