// What a mutation does to the device's own tables: the same change the server will make,
// applied at once so the UI never waits for the network. Used when saving (saveMutation)
// and again when rebasing still-pending mutations on top of pulled server rows, so it must
// be safe to apply twice (it sets values, it never increments or appends blindly).
import { z } from 'zod';
import '../zod-config';
import { CASE_FIELD_DEFAULTS, caseFieldsSchema } from '../sync/entities';
import type { ParsedMutation } from '../sync/mutations';
import type { DomainTable as TableName, StoredRecord, SyncDatabase } from './local-db';

/**
 * syncState row `author`: the signed-in user's name and call sign as this device last knew
 * them, written when they sign an addendum (rememberAuthor). The mutation carries no name
 * (the server stamps the real one from its users, decision 011), so the local effect reads it
 * here: the pending addendum shows its author's name offline, and again after a rebase
 * rebuilds the row (also in the service worker, which has no user profile of its own).
 */
export const AUTHOR_STATE_KEY = 'author';
export const authorStateSchema = z.object({
  key: z.literal(AUTHOR_STATE_KEY),
  userId: z.number().int(),
  fullName: z.string(),
  callSign: z.string().nullable(),
});
export type AuthorState = z.infer<typeof authorStateSchema>;

/** Records who signs this database's addenda; call before saving one. */
export async function rememberAuthor(
  db: SyncDatabase,
  author: { fullName: string; callSign: string | null },
): Promise<void> {
  const row: AuthorState = {
    key: AUTHOR_STATE_KEY,
    userId: db.userId,
    fullName: author.fullName,
    callSign: author.callSign,
  };
  await db.syncState.put(row);
}

/** The author fields of a pending addendum by `userId` (null when this device does not know them). */
async function pendingAuthor(
  db: SyncDatabase,
  userId: number,
): Promise<{ authorName: string | null; authorCallSign: string | null }> {
  const parsed = authorStateSchema.safeParse(await db.syncState.get(AUTHOR_STATE_KEY));
  if (!parsed.success || parsed.data.userId !== userId)
    return { authorName: null, authorCallSign: null };
  return { authorName: parsed.data.fullName, authorCallSign: parsed.data.callSign };
}

async function merge(
  db: SyncDatabase,
  table: TableName,
  id: string,
  create: () => Record<string, unknown>,
  changes: Record<string, unknown>,
): Promise<void> {
  const t = db.domainTable(table);
  const existing = await t.get(id);
  const base: StoredRecord = existing ?? { ...create(), id };
  await t.put({ ...base, ...changes, id });
}

async function patchIfPresent(
  db: SyncDatabase,
  table: TableName,
  id: string,
  changes: Record<string, unknown>,
): Promise<void> {
  const t = db.domainTable(table);
  const existing = await t.get(id);
  // Not here (never pulled, or already gone): the server decides; nothing to show locally.
  if (existing === undefined) return;
  await t.put({ ...existing, ...changes, id });
}

/**
 * Append-only rows (vital signs, CPR events, casualties, addenda) never change once written:
 * when a rebase replays the create over the server's copy, the server's copy (with its
 * version, and a void the server applied) stays.
 */
async function putIfAbsent(db: SyncDatabase, table: TableName, row: StoredRecord): Promise<void> {
  const t = db.domainTable(table);
  if ((await t.get(row.id)) === undefined) await t.put(row);
}

function withoutUndefined(fields: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(fields).filter(([, v]) => v !== undefined));
}

export async function applyMutationLocally(db: SyncDatabase, m: ParsedMutation): Promise<void> {
  const created = { userId: m.actorUserId, createdAt: m.clientTime, deletedAt: null };
  switch (m.name) {
    case 'case.upsert':
      await merge(
        db,
        'cases',
        m.args.id,
        () => ({ ...CASE_FIELD_DEFAULTS, ...created, status: 'in_progress', completedAt: null }),
        {
          ...withoutUndefined(m.args.fields),
          ...(m.args.humanId ? { caseId: m.args.humanId } : {}),
        },
      );
      return;
    case 'case.complete':
      await patchIfPresent(db, 'cases', m.args.id, {
        status: 'completed',
        completedAt: m.args.completedAt,
      });
      return;
    case 'case.addendum': {
      // The server's copy, once pulled, keeps the name the server stamped (putIfAbsent).
      const author = await pendingAuthor(db, m.actorUserId);
      await putIfAbsent(db, 'caseAddenda', {
        ...created,
        ...author,
        id: m.args.id,
        caseId: m.args.caseId,
        reason: m.args.reason,
        changes: m.args.changes,
      });
      // The server applies each change's `after` to the case (docs/decisions/007); so does the
      // device at once. Values the server would refuse are not shown: it will reject the addendum.
      const after = caseFieldsSchema.safeParse(
        Object.fromEntries(m.args.changes.map((c) => [c.field, c.after])),
      );
      if (after.success)
        await patchIfPresent(db, 'cases', m.args.caseId, withoutUndefined(after.data));
      return;
    }
    case 'case.delete':
      await patchIfPresent(db, 'cases', m.args.id, { deletedAt: m.clientTime });
      return;
    case 'case.access':
      // An audit record for the server; it changes nothing on the device.
      return;
    case 'vitalSign.record':
      await putIfAbsent(db, 'vitalSigns', {
        ...created,
        ...m.args,
        voidedAt: null,
        voidReason: null,
      });
      return;
    case 'vitalSign.void':
      await patchIfPresent(db, 'vitalSigns', m.args.id, {
        voidedAt: m.clientTime,
        voidReason: m.args.reason,
      });
      return;
    case 'cprSession.upsert':
      await merge(
        db,
        'cprSessions',
        m.args.id,
        () => ({ ...created, events: [], status: 'in_progress', caseId: null, completedAt: null }),
        {
          ...withoutUndefined(m.args.fields),
          ...(m.args.humanId ? { sessionId: m.args.humanId } : {}),
        },
      );
      return;
    case 'cprEvent.record':
      await putIfAbsent(db, 'cprEvents', { ...created, ...m.args, voidsEventId: null });
      return;
    case 'cprEvent.void':
      await putIfAbsent(db, 'cprEvents', {
        ...created,
        id: m.args.id,
        cprSessionId: m.args.cprSessionId,
        type: 'void',
        at: m.args.at,
        details: { reason: m.args.reason },
        voidsEventId: m.args.voidsEventId,
      });
      return;
    case 'incidentReport.upsert':
      await merge(
        db,
        'incidentReports',
        m.args.id,
        () => ({
          ...created,
          typeSpecificData: {},
          status: 'in_progress',
          priority: 'normal',
          mediaUrls: [],
        }),
        {
          ...withoutUndefined(m.args.fields),
          ...(m.args.humanId ? { incidentId: m.args.humanId } : {}),
        },
      );
      return;
    case 'incidentReport.delete':
      await patchIfPresent(db, 'incidentReports', m.args.id, { deletedAt: m.clientTime });
      return;
    case 'mciIncident.upsert':
      await merge(
        db,
        'mciIncidents',
        m.args.id,
        () => ({ ...created, resources: [], status: 'in_progress', completedAt: null }),
        {
          ...withoutUndefined(m.args.fields),
          ...(m.args.humanId ? { incidentId: m.args.humanId } : {}),
        },
      );
      return;
    case 'mciCasualty.record':
      await putIfAbsent(db, 'mciCasualties', {
        ...created,
        ...m.args,
        transported: false,
        transportedAt: null,
      });
      return;
    case 'mciCasualty.update':
      await patchIfPresent(db, 'mciCasualties', m.args.id, withoutUndefined(m.args.fields));
      return;
  }
}
