// The one write path for every record kind's screens: create a record, save changed fields,
// check values first. Everything is taken from the kind's definition in the registry the
// session's database carries (the app's, or a test's own): its `<kind>.upsert` mutator's
// fields schema validates, its human id is generated on the device, its lock refuses edits.
// So a new kind's screens write through here and need no writer or validator of their own.
// Each write is one synced mutation, stored on the device with its outbox entry in one
// IndexedDB transaction and pushed later by the sync engine; nothing waits for the network.
import { z } from 'zod';
import { generateHumanId } from '@rescuelog/sync-protocol/platform/human-id';
import type { Row } from '@rescuelog/sync-protocol/platform/mutator';
import { narrowSafeParse } from '@rescuelog/sync-protocol/platform/narrow-parse';
import type { RecordDefinition } from '@rescuelog/sync-protocol/platform/record';
import { REJECTION_MESSAGES } from '@rescuelog/sync-protocol/platform/rejections';
import { requireSyncSession, saveChange, type SyncSession } from '@/lib/sync/sync-session';

/** Problems per field ('' never: a field without a problem is absent). */
export type FieldProblems<F> = Partial<Record<Extract<keyof F, string>, string>>;

/** What an edit builds on: the record's id, the server version the device holds, and
 * whatever the kind's lock reads (a case's status). */
export type EditedRecord = Row & { id: string; version?: string | null | undefined };

/** A fresh id for a new record (or child row). */
export function newRecordId(): string {
  return globalThis.crypto.randomUUID();
}

const fieldSchemas = new WeakMap<RecordDefinition, z.ZodObject>();

/** The fields a kind's screens may write: its `<kind>.upsert` mutator's `fields` (upsertMutator). */
export function fieldsSchemaOf(definition: RecordDefinition): z.ZodObject {
  const cached = fieldSchemas.get(definition);
  if (cached) return cached;
  const upsert = definition.mutators.find((m) => m.name === `${definition.kind}.upsert`);
  const args: unknown = upsert?.args;
  const fields = args instanceof z.ZodObject ? args.shape.fields : undefined;
  if (!(fields instanceof z.ZodObject))
    throw new Error(`${definition.kind} has no upsert mutator: its screens cannot save fields`);
  fieldSchemas.set(definition, fields);
  return fields;
}

/** Checks values against the kind's synced schema without saving: the problem of each field. */
export function validateRecordFields<F extends Row>(
  definition: RecordDefinition,
  fields: F,
): FieldProblems<F> {
  // Narrowed to the fields given (a case has ~160): the same answer as the whole schema.
  const parsed = narrowSafeParse(fieldsSchemaOf(definition), fields);
  if (parsed.success) return {};
  const problems: Record<string, string> = {};
  for (const issue of parsed.error.issues) {
    // An unknown key's issue names it in `keys`, not in its path.
    const named = issue.code === 'unrecognized_keys' ? issue.keys : [String(issue.path[0] ?? '')];
    for (const field of named) problems[field] ??= issue.message;
  }
  return problems as FieldProblems<F>;
}

/** The definition of a kind in the session's registry. */
export function definitionOf(kind: string, session: SyncSession = requireSyncSession()) {
  return session.db.registry.get(kind);
}

/** Whether the kind's lock holds the record (a completed case): edits go another way. */
export function isRecordLocked(definition: RecordDefinition, record: Row): boolean {
  return definition.lock?.isLocked(record) ?? false;
}

/**
 * Creates a record of `kind` on the device and returns its id (and its human number, when
 * the kind has one, generated on the device). Fields the change leaves out take the kind's
 * defaults. Throws when the values do not fit the schema or there is no session.
 */
export async function createRecord(
  kind: string,
  fields: Row = {},
): Promise<{ id: string; humanId: string | undefined }> {
  const session = requireSyncSession();
  const definition = definitionOf(kind, session);
  const id = newRecordId();
  const humanId = definition.humanId ? generateHumanId(definition.humanId.prefix) : undefined;
  await saveChange({
    name: `${kind}.upsert`,
    args: { id, ...(humanId ? { humanId } : {}), fields },
    baseVersion: null,
    actorUserId: session.userId,
  });
  return { id, humanId };
}

/**
 * Saves changed fields of a record (per-field last write wins on the server), on top of the
 * version the device holds (`record.version`, null if never pulled). Throws when a value does
 * not fit the schema (validate first to show it on the field) or the record is locked.
 */
export async function saveRecordFields(
  kind: string,
  record: EditedRecord,
  fields: Row,
): Promise<void> {
  if (Object.keys(fields).length === 0) return;
  const session = requireSyncSession();
  const definition = definitionOf(kind, session);
  if (definition.lock && isRecordLocked(definition, record))
    throw new Error(REJECTION_MESSAGES[definition.lock.code]);
  await saveChange({
    name: `${kind}.upsert`,
    args: { id: record.id, fields },
    baseVersion: record.version ?? null,
    actorUserId: session.userId,
  });
}
