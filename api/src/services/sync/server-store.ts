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
  ConflictReport,
  MutatorTx,
  Row,
  UpdateOptions,
  UpdateResult,
} from '@rescuelog/sync-protocol/platform/mutator';
import type { ParsedMutation, Registry } from '@rescuelog/sync-protocol/platform/registry';
import {
  Rejection,
  REJECTION_MESSAGES,
  RejectionCode,
} from '@rescuelog/sync-protocol/platform/rejections';
import { toJsonValue } from '../../lib/json-value';
import type { BatchRecords } from './batch-records';
import { nextVersion, toDbValues, type FieldVersions } from './sync-tables';

export interface AuditWrite {
  action: string;
  entityType: string;
  entityId: string;
  details: Record<string, JsonValue>;
}

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

export function serverStore(options: ServerStoreOptions): ServerStore {
  const { tx, registry, actor, mutation, records } = options;
  const conflicts: ConflictReport[] = [];
  let notes: Record<string, JsonValue> = {};
  let wrote = false;

  async function get(kind: string, id: string): Promise<Row | undefined> {
    const stored = await records.get(kind, id);
    return stored ? { ...stored.record } : undefined;
  }

  function note(details: Record<string, JsonValue>): void {
    notes = { ...notes, ...details };
  }

  async function recordConflict(
    kind: string,
    id: string,
    field: string,
    serverValue: unknown,
    clientValue: unknown,
    serverAuthor: number,
  ): Promise<void> {
    const report = { field, serverValue: asJson(serverValue), clientValue: asJson(clientValue) };
    conflicts.push(report);
    // Both names as they are now: the devices show who, offline (decision 015).
    const server = await records.author(serverAuthor);
    const client = await records.author(actor.id);
    await records.flush();
    await tx
      .insertInto('syncConflicts')
      .values({
        entityType: registry.get(kind).sqlTable,
        recordKind: kind,
        serverAuthorName: server?.fullName ?? null,
        clientAuthorName: client?.fullName ?? null,
        entityId: id,
        field,
        baseVersion: mutation.baseVersion,
        serverValue: JSON.stringify(report.serverValue),
        clientValue: JSON.stringify(report.clientValue),
        serverAuthor,
        clientAuthor: actor.id,
      })
      .execute();
  }

  const store: MutatorTx = {
    location: 'server',
    mutation,
    get,
    async require(kind, id, verb) {
      const row = await get(kind, id);
      const label = registry.get(kind).label;
      if (!row)
        throw new Rejection(RejectionCode.NOT_FOUND, `The ${label} does not exist on the server.`, {
          id,
        });
      if (verb) store.authorize(kind, verb, row);
      if (row.deletedAt !== null)
        throw new Rejection(RejectionCode.DELETED, `The ${label} was deleted.`, { id });
      return row;
    },
    notFound: (kind, id) =>
      new Rejection(RejectionCode.NOT_FOUND, REJECTION_MESSAGES.NOT_FOUND, {
        id,
        kind,
      }),
    async list(kind, column, value) {
      const found = await records.select(kind, (eb) => eb(column, '=', value));
      return found.map((stored) => stored.record);
    },
    async insert(kind, values) {
      const def = registry.get(kind);
      const id = String(values.id);
      const row: Row = {
        ...toDbValues(values),
        id,
        userId: actor.id,
        createdAt: mutation.clientTime,
      };
      const humanId = def.humanId ? values[def.humanId.column] : undefined;
      if (def.humanId && typeof humanId === 'string') {
        const clash = await records.numberTaken(kind, humanId);
        if (clash !== undefined)
          // Two devices made the same number: reported, never merged.
          throw new Rejection(
            RejectionCode.HUMAN_ID_COLLISION,
            `Another record already has the number ${humanId}.`,
            { humanId, existingId: clash },
          );
      }
      const bookkeeping = new Set(['id', def.humanId?.column, def.parent?.column]);
      const fields = Object.keys(values).filter((k) => !bookkeeping.has(k));
      let version: string | undefined;
      if (def.lww) {
        version = await nextVersion(tx);
        const fieldVersions: FieldVersions = Object.fromEntries(
          fields.map((f) => [f, { version: version as string, by: actor.id }]),
        );
        row.fieldVersions = JSON.stringify(fieldVersions);
      }
      if (def.updatedByColumn) row[def.updatedByColumn] = actor.id;
      await records.insert(kind, id, typeof humanId === 'string' ? humanId : undefined, row);
      wrote = true;
      const parent = def.parent ? values[def.parent.column] : undefined;
      note({
        created: true,
        fields,
        ...(version !== undefined ? { fieldVersion: version } : {}),
        ...(typeof humanId === 'string' ? { humanId } : {}),
        ...(def.parent && typeof parent === 'string' ? { [def.parent.column]: parent } : {}),
      });
    },
    async update(kind, id, changes, updateOptions: UpdateOptions = {}): Promise<UpdateResult> {
      const def = registry.get(kind);
      const stored = await records.get(kind, id);
      if (!stored) throw store.notFound(kind, id);
      const existing = stored.record;
      const versions = stored.fieldVersions;
      const base = BigInt(mutation.baseVersion ?? '0');
      const changed: Row = {};
      for (const [field, value] of Object.entries(changes)) {
        if (value === undefined) continue;
        const serverValue = existing[field];
        if (sameValue(serverValue, value)) continue;
        const written = def.lww ? versions[field] : undefined;
        const concurrent =
          written !== undefined &&
          written.by !== actor.id &&
          (updateOptions.before
            ? !sameValue(serverValue, updateOptions.before[field])
            : BigInt(written.version) > base);
        if (concurrent) await recordConflict(kind, id, field, serverValue, value, written.by);
        changed[field] = value;
      }
      const names = Object.keys(changed);
      if (names.length === 0) return { changed: [], conflicts: [] };
      const set: Row = toDbValues(changed);
      let version: string | undefined;
      if (def.lww) {
        // Above the version of the row as read (and locked): sync-tables.ts reserveVersions.
        version = await nextVersion(
          tx,
          typeof existing.version === 'string' ? existing.version : undefined,
        );
        const next: FieldVersions = { ...versions };
        for (const field of names) next[field] = { version, by: actor.id };
        set.fieldVersions = JSON.stringify(next);
      }
      if (def.updatedByColumn) set[def.updatedByColumn] = actor.id;
      await records.write(kind, id, set);
      wrote = true;
      const mine = conflicts.filter((c) => names.includes(c.field));
      note({
        fields: names,
        ...(version !== undefined ? { fieldVersion: version } : {}),
        ...(mine.length > 0 ? { conflicts: mine.map((c) => c.field) } : {}),
      });
      return { changed: names, conflicts: mine };
    },
    async tombstone(kind, id) {
      await records.write(kind, id, { deletedAt: mutation.clientTime });
      wrote = true;
    },
    authorize(kind, verb, row) {
      const access = registry.family(kind);
      if (!access) throw new Rejection(RejectionCode.FORBIDDEN);
      const decision = decideAccess(
        actor,
        access,
        verb,
        ownersOf(row, registry.ownerColumns(kind)),
      );
      if (!decision.allowed)
        throw new Rejection(decision.code, REJECTION_MESSAGES[decision.code], {
          module: decision.module,
          action: decision.action,
        });
    },
    author: (userId) => records.author(userId),
    note,
    async recordAccess(event: AccessEvent) {
      const def = registry.get(event.kind);
      const record = await get(event.kind, event.recordId);
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
      options.audit({
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
    },
  };

  return {
    tx: store,
    conflicts,
    auditEntry() {
      if (!wrote) return null;
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
          ...notes,
        },
      };
    },
  };
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
