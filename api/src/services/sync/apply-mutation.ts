// Applies one validated mutation inside the push transaction. Permanent refusals are thrown
// as Rejection (the batch acknowledges them and goes on); anything else propagates and
// fails the whole request, so nothing is acknowledged.
//
// Rules (docs/architecture.md, "Conflict rules"):
// - case, CPR session, incident report, mass-casualty incident and casualty fields: per-field
//   last write wins with the server as authority. When the field was written after the
//   mutation's baseVersion by another person, the client's value is still applied (the
//   latest write wins) but both values go to sync_conflicts for review: nothing is silently
//   overwritten.
// - vital signs, CPR events and case addenda are append-only; corrections are voids.
// - case.complete checks the completion rule (sync-protocol case/completion.ts) on the
//   server's copy; a completed case accepts only case.addendum, whose `after` values are
//   applied to the case (docs/decisions/007).
// - case.access writes one audit entry and changes no record.
// - deletes are tombstones (deleted_at).
import { sql, type Transaction } from 'kysely';
import type { Database, JsonValue } from '@rescuelog/db/schema';
import {
  caseFieldsSchema,
  CPR_SESSION_REQUIRED_ON_CREATE,
  type CaseRecord,
  INCIDENT_REPORT_REQUIRED_ON_CREATE,
  MCI_INCIDENT_REQUIRED_ON_CREATE,
} from '@rescuelog/sync-protocol/sync/entities';
import { validateCaseForCompletion } from '@rescuelog/sync-protocol/case/completion';
import type { ParsedMutation } from '@rescuelog/sync-protocol/sync/mutations';
import type { SyncConflictReport } from '@rescuelog/sync-protocol/sync/push-pull';
import { REJECTION_MESSAGES, RejectionCode } from '@rescuelog/sync-protocol/sync/rejections';
import { hasPermission } from '@rescuelog/sync-protocol/permissions';
import {
  canChange,
  canCreate,
  canDelete,
  canSeeAll,
  type AccessDecision,
  type AccessFamily,
  type Actor,
} from './sync-access';
import {
  CONFLICT_ENTITY_TYPE,
  ENTITY_TABLE,
  asJson,
  dynamic,
  nextVersion,
  readFieldVersions,
  sameValue,
  toDbValues,
  toWireRecord,
  toWireValue,
  type FieldVersions,
  type LwwEntity,
  type Row,
} from './sync-tables';

export class Rejection extends Error {
  constructor(
    readonly code: RejectionCode,
    message: string = REJECTION_MESSAGES[code],
    readonly details: Record<string, JsonValue> = {},
  ) {
    super(message);
    this.name = 'Rejection';
  }
}

export interface AuditWrite {
  action: string;
  entityType: string;
  entityId: string;
  details: Record<string, JsonValue>;
}

export interface ApplyContext {
  tx: Transaction<Database>;
  actor: Actor;
  mutation: ParsedMutation;
  /** Appends an audit entry in the same transaction. */
  audit(entry: AuditWrite): Promise<void>;
  /**
   * Optional (the push gives it): true when no row of `table` has `column` = `value` — read
   * once for the whole batch, and nothing in the batch has named that value since. Spares a
   * create its own existence and number-clash reads.
   */
  knownAbsent?: (table: string, column: string, value: string) => boolean;
  /**
   * Optional (the push gives it only to a create it knows is one: its id and number known
   * absent, see push-service.ts): takes the new row to insert later, together with the rows
   * of the creates after it (one statement for many), instead of inserting it now.
   */
  insertLater?: (table: string, row: Row) => void;
}

export interface Applied {
  conflicts: SyncConflictReport[];
}

const NOTHING: Applied = { conflicts: [] };

function assertAllowed(decision: AccessDecision): void {
  if (!decision.allowed) {
    throw new Rejection(decision.code, REJECTION_MESSAGES[decision.code], {
      module: decision.module,
      action: decision.action,
    });
  }
}

function definedFields(fields: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(fields).filter(([, v]) => v !== undefined));
}

async function findRow(ctx: ApplyContext, table: string, id: string): Promise<Row | undefined> {
  if (ctx.knownAbsent?.(table, 'id', id)) return undefined;
  return dynamic(ctx.tx).selectFrom(table).selectAll().where('id', '=', id).executeTakeFirst();
}

async function requireRow(
  ctx: ApplyContext,
  table: string,
  id: string,
  what: string,
): Promise<Row> {
  const row = await findRow(ctx, table, id);
  if (!row)
    throw new Rejection(RejectionCode.NOT_FOUND, `The ${what} does not exist on the server.`, {
      id,
    });
  if (row.deletedAt !== null)
    throw new Rejection(RejectionCode.DELETED, `The ${what} was deleted.`, { id });
  return row;
}

function ownerOf(row: Row): number {
  return Number(row.userId);
}

function auditEntry(
  ctx: ApplyContext,
  entityType: string,
  entityId: string,
  extra: Record<string, JsonValue> = {},
): AuditWrite {
  const m = ctx.mutation;
  return {
    action: `sync.${m.name}`,
    entityType,
    entityId,
    details: { mutationId: m.mutationId, deviceId: m.deviceId, seq: m.seq, ...extra },
  };
}

// ---------------------------------------------------------------------------------------
// Last-write-wins records
// ---------------------------------------------------------------------------------------

interface LwwConfig {
  entity: LwwEntity;
  family: AccessFamily;
  humanIdColumn: 'caseId' | 'sessionId' | 'incidentId' | null;
  requiredOnCreate: readonly string[];
  /** cases: completed means locked. */
  lockable: boolean;
  /** cases keep who changed them last. */
  stampUpdatedBy: boolean;
}

const LWW: Record<LwwEntity, LwwConfig> = {
  case: {
    entity: 'case',
    family: 'case',
    humanIdColumn: 'caseId',
    requiredOnCreate: [],
    lockable: true,
    stampUpdatedBy: true,
  },
  cprSession: {
    entity: 'cprSession',
    family: 'cprSession',
    humanIdColumn: 'sessionId',
    requiredOnCreate: CPR_SESSION_REQUIRED_ON_CREATE,
    lockable: false,
    stampUpdatedBy: false,
  },
  incidentReport: {
    entity: 'incidentReport',
    family: 'incidentReport',
    humanIdColumn: 'incidentId',
    requiredOnCreate: INCIDENT_REPORT_REQUIRED_ON_CREATE,
    lockable: false,
    stampUpdatedBy: false,
  },
  mciIncident: {
    entity: 'mciIncident',
    family: 'mciIncident',
    humanIdColumn: 'incidentId',
    requiredOnCreate: MCI_INCIDENT_REQUIRED_ON_CREATE,
    lockable: false,
    stampUpdatedBy: false,
  },
  mciCasualty: {
    entity: 'mciCasualty',
    family: 'mciIncident',
    humanIdColumn: null,
    requiredOnCreate: [],
    lockable: false,
    stampUpdatedBy: false,
  },
};

function isLocked(cfg: LwwConfig, row: Row): boolean {
  return cfg.lockable && row.status === 'completed';
}

async function createLww(
  ctx: ApplyContext,
  cfg: LwwConfig,
  id: string,
  humanId: string | undefined,
  fields: Record<string, unknown>,
  extra: Row = {},
): Promise<Applied> {
  const table = ENTITY_TABLE[cfg.entity];
  const d = dynamic(ctx.tx);
  const row: Row = {
    ...toDbValues(fields),
    ...extra,
    id,
    userId: ctx.actor.id,
    createdAt: ctx.mutation.clientTime,
  };
  if (cfg.humanIdColumn) {
    if (humanId === undefined)
      throw new Rejection(RejectionCode.HUMAN_ID_MISMATCH, 'A new record needs its number.', {
        id,
      });
    const clash = ctx.knownAbsent?.(table, cfg.humanIdColumn, humanId)
      ? undefined
      : await d
          .selectFrom(table)
          .select(['id'])
          .where(cfg.humanIdColumn, '=', humanId)
          .executeTakeFirst();
    if (clash) {
      // Two devices made the same number: reported, never merged.
      throw new Rejection(
        RejectionCode.HUMAN_ID_COLLISION,
        `Another record already has the number ${humanId}.`,
        {
          humanId,
          existingId: String(clash.id),
        },
      );
    }
    row[cfg.humanIdColumn] = humanId;
  }
  const missing = cfg.requiredOnCreate.filter((f) => fields[f] === undefined || fields[f] === null);
  if (missing.length > 0) {
    throw new Rejection(
      RejectionCode.MISSING_REQUIRED_FIELD,
      `A new record needs ${missing.join(', ')}.`,
      { fields: missing },
    );
  }
  const version = await nextVersion(ctx.tx);
  const fieldVersions: FieldVersions = Object.fromEntries(
    Object.keys(fields).map((f) => [f, { version, by: ctx.actor.id }]),
  );
  row.fieldVersions = JSON.stringify(fieldVersions);
  if (cfg.stampUpdatedBy) row.updatedBy = ctx.actor.id;
  if (ctx.insertLater) ctx.insertLater(table, row);
  else await d.insertInto(table).values(row).execute();
  await ctx.audit(
    auditEntry(ctx, cfg.entity, id, {
      created: true,
      fields: Object.keys(fields),
      fieldVersion: version,
      ...(humanId ? { humanId } : {}),
    }),
  );
  return NOTHING;
}

async function updateLww(
  ctx: ApplyContext,
  cfg: LwwConfig,
  existing: Row,
  fields: Record<string, unknown>,
  decision: AccessDecision,
): Promise<Applied> {
  const id = String(existing.id);
  if (existing.deletedAt !== null)
    throw new Rejection(RejectionCode.DELETED, REJECTION_MESSAGES.DELETED, { id });
  if (isLocked(cfg, existing))
    throw new Rejection(RejectionCode.CASE_LOCKED, REJECTION_MESSAGES.CASE_LOCKED, { id });
  assertAllowed(decision);

  const base = BigInt(ctx.mutation.baseVersion ?? '0');
  const versions = readFieldVersions(existing);
  const changed: Record<string, unknown> = {};
  const conflicts: SyncConflictReport[] = [];
  for (const [field, clientValue] of Object.entries(fields)) {
    const serverValue = toWireValue(field, existing[field]);
    if (sameValue(serverValue, clientValue)) continue;
    const written = versions[field];
    if (written && BigInt(written.version) > base && written.by !== ctx.actor.id) {
      conflicts.push({ field, serverValue: asJson(serverValue), clientValue: asJson(clientValue) });
      await ctx.tx
        .insertInto('syncConflicts')
        .values({
          entityType: CONFLICT_ENTITY_TYPE[cfg.entity],
          entityId: id,
          field,
          baseVersion: ctx.mutation.baseVersion,
          serverValue: JSON.stringify(asJson(serverValue)),
          clientValue: JSON.stringify(asJson(clientValue)),
          serverAuthor: written.by,
          clientAuthor: ctx.actor.id,
        })
        .execute();
    }
    changed[field] = clientValue;
  }
  if (Object.keys(changed).length === 0) return NOTHING;

  const version = await nextVersion(ctx.tx);
  const nextVersions: FieldVersions = { ...versions };
  for (const field of Object.keys(changed)) nextVersions[field] = { version, by: ctx.actor.id };
  const set: Row = { ...toDbValues(changed), fieldVersions: JSON.stringify(nextVersions) };
  if (cfg.stampUpdatedBy) set.updatedBy = ctx.actor.id;
  await dynamic(ctx.tx)
    .updateTable(ENTITY_TABLE[cfg.entity])
    .set(set)
    .where('id', '=', id)
    .execute();
  await ctx.audit(
    auditEntry(ctx, cfg.entity, id, {
      fields: Object.keys(changed),
      fieldVersion: version,
      ...(conflicts.length > 0 ? { conflicts: conflicts.map((c) => c.field) } : {}),
    }),
  );
  return { conflicts };
}

async function upsertLww(
  ctx: ApplyContext,
  cfg: LwwConfig,
  args: { id: string; humanId?: string | undefined; fields: Record<string, unknown> },
): Promise<Applied> {
  const fields = definedFields(args.fields);
  const existing = await findRow(ctx, ENTITY_TABLE[cfg.entity], args.id);
  if (!existing) {
    assertAllowed(canCreate(ctx.actor, cfg.family));
    return createLww(ctx, cfg, args.id, args.humanId, fields);
  }
  if (
    cfg.humanIdColumn &&
    args.humanId !== undefined &&
    existing[cfg.humanIdColumn] !== args.humanId
  ) {
    throw new Rejection(RejectionCode.HUMAN_ID_MISMATCH, REJECTION_MESSAGES.HUMAN_ID_MISMATCH, {
      id: args.id,
      humanId: args.humanId,
      serverHumanId: String(existing[cfg.humanIdColumn]),
    });
  }
  return updateLww(ctx, cfg, existing, fields, canChange(ctx.actor, cfg.family, ownerOf(existing)));
}

// ---------------------------------------------------------------------------------------
// Append-only rows
// ---------------------------------------------------------------------------------------

/** A replayed create with the same content is fine; reusing an id for other content is not. */
async function appendOnce(
  ctx: ApplyContext,
  table: string,
  id: string,
  content: Row,
): Promise<'exists' | 'new'> {
  const existing = await findRow(ctx, table, id);
  if (!existing) return 'new';
  const same = Object.entries(content).every(([k, v]) => sameValue(toWireValue(k, existing[k]), v));
  if (!same) throw new Rejection(RejectionCode.APPEND_ONLY, REJECTION_MESSAGES.APPEND_ONLY, { id });
  return 'exists';
}

async function openCase(ctx: ApplyContext, caseId: string): Promise<Row> {
  const row = await requireRow(ctx, 'cases', caseId, 'case');
  if (row.status === 'completed')
    throw new Rejection(RejectionCode.CASE_LOCKED, REJECTION_MESSAGES.CASE_LOCKED, { id: caseId });
  return row;
}

// ---------------------------------------------------------------------------------------
// Completion
// ---------------------------------------------------------------------------------------

/**
 * The device checks before it sends case.complete; the server checks again on the case as it
 * holds it (another device's edit or a voided reading may have changed it since), with the
 * same rule (sync-protocol case/completion.ts).
 */
async function assertCompletable(ctx: ApplyContext, row: Row): Promise<void> {
  const id = String(row.id);
  const vitals = await ctx.tx
    .selectFrom('vitalSigns')
    .select(['type', 'voidedAt', 'deletedAt'])
    .where('caseId', '=', id)
    .execute();
  const problems = validateCaseForCompletion(
    toWireRecord(row) as Partial<CaseRecord>,
    vitals.map((v) => ({
      type: v.type,
      voidedAt: v.voidedAt ? v.voidedAt.toISOString() : null,
      deletedAt: v.deletedAt ? v.deletedAt.toISOString() : null,
    })),
  );
  if (problems.length === 0) return;
  throw new Rejection(
    RejectionCode.CASE_INCOMPLETE,
    `The case cannot be completed: ${problems.map((p) => p.message).join('; ')}.`,
    { id, problems: problems.map((p) => ({ field: p.field, step: p.step, message: p.message })) },
  );
}

// ---------------------------------------------------------------------------------------
// Addenda: the corrections a completed case takes
// ---------------------------------------------------------------------------------------

type AddendumArgs = Extract<ParsedMutation, { name: 'case.addendum' }>['args'];

/** The changes' `after` values as case fields, checked like case.upsert's fields. */
function addendumValues(changes: AddendumArgs['changes']): Record<string, unknown> {
  const seen = new Set<string>();
  for (const change of changes) {
    if (seen.has(change.field))
      throw new Rejection(
        RejectionCode.VALIDATION_FAILED,
        `changes: ${change.field} appears more than once; list each field once.`,
        { field: change.field },
      );
    seen.add(change.field);
  }
  const parsed = caseFieldsSchema.safeParse(
    Object.fromEntries(changes.map((c) => [c.field, c.after])),
  );
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const where = issue && issue.path.length > 0 ? `${issue.path.map(String).join('.')}: ` : '';
    throw new Rejection(
      RejectionCode.VALIDATION_FAILED,
      `${where}${issue?.message ?? 'Invalid input'}`,
      {
        issues: parsed.error.issues
          .slice(0, 20)
          .map((i) => ({ path: i.path.map(String).join('.'), message: i.message })),
      },
    );
  }
  return definedFields(parsed.data);
}

/**
 * Appends the addendum row (its before/after pairs are the history) and applies each change's
 * `after` to the case like an upsert: one new version, field versions stamped. A completed
 * case only: an in-progress case is edited directly. When a field no longer holds the
 * `before` the author saw and another person wrote it last, the correction is still applied
 * (it is the later write) and both values go to sync_conflicts, as last write wins does.
 */
async function applyAddendum(ctx: ApplyContext, args: AddendumArgs): Promise<Applied> {
  const { actor } = ctx;
  const c = await requireRow(ctx, 'cases', args.caseId, 'case');
  if (c.status !== 'completed')
    throw new Rejection(
      RejectionCode.INVALID_STATE,
      'An addendum corrects a completed case; this case is still in progress, so change the fields directly.',
      { caseId: args.caseId },
    );
  assertAllowed(canChange(actor, 'case', ownerOf(c)));
  const content = { caseId: args.caseId, reason: args.reason, changes: args.changes };
  if ((await appendOnce(ctx, 'caseAddenda', args.id, content)) === 'exists') return NOTHING;
  const values = addendumValues(args.changes);
  // The signature: the author's name and call sign as they are now, read from the server's
  // users (the mutation carries none; decision 011), kept with the row so every device shows
  // them offline and a later rename does not rewrite who signed.
  const author = await ctx.tx
    .selectFrom('users')
    .select(['fullName', 'callSign'])
    .where('id', '=', actor.id)
    .executeTakeFirst();
  await ctx.tx
    .insertInto('caseAddenda')
    .values({
      id: args.id,
      caseId: args.caseId,
      userId: actor.id,
      authorName: author?.fullName ?? null,
      authorCallSign: author?.callSign ?? null,
      reason: args.reason,
      changes: JSON.stringify(args.changes),
      createdAt: ctx.mutation.clientTime,
    })
    .execute();

  const versions = readFieldVersions(c);
  const changed: Record<string, unknown> = {};
  const conflicts: SyncConflictReport[] = [];
  for (const change of args.changes) {
    const after = values[change.field];
    const serverValue = toWireValue(change.field, c[change.field]);
    if (sameValue(serverValue, after)) continue;
    const written = versions[change.field];
    if (!sameValue(serverValue, change.before) && written && written.by !== actor.id) {
      conflicts.push({
        field: change.field,
        serverValue: asJson(serverValue),
        clientValue: asJson(after),
      });
      await ctx.tx
        .insertInto('syncConflicts')
        .values({
          entityType: CONFLICT_ENTITY_TYPE.case,
          entityId: args.caseId,
          field: change.field,
          baseVersion: ctx.mutation.baseVersion,
          serverValue: JSON.stringify(asJson(serverValue)),
          clientValue: JSON.stringify(asJson(after)),
          serverAuthor: written.by,
          clientAuthor: actor.id,
        })
        .execute();
    }
    changed[change.field] = after;
  }
  let version: string | undefined;
  if (Object.keys(changed).length > 0) {
    version = await nextVersion(ctx.tx);
    const nextVersions: FieldVersions = { ...versions };
    for (const field of Object.keys(changed)) nextVersions[field] = { version, by: actor.id };
    await dynamic(ctx.tx)
      .updateTable('cases')
      .set({
        ...toDbValues(changed),
        fieldVersions: JSON.stringify(nextVersions),
        updatedBy: actor.id,
      })
      .where('id', '=', args.caseId)
      .execute();
  }
  await ctx.audit(
    auditEntry(ctx, 'caseAddendum', args.id, {
      caseId: args.caseId,
      reason: args.reason,
      fields: args.changes.map((change) => change.field),
      applied: Object.keys(changed),
      ...(version !== undefined ? { fieldVersion: version } : {}),
      ...(conflicts.length > 0 ? { conflicts: conflicts.map((x) => x.field) } : {}),
    }),
  );
  return { conflicts };
}

// ---------------------------------------------------------------------------------------
// Case access (audit only)
// ---------------------------------------------------------------------------------------

/**
 * A view, print, PDF or export of a case, recorded on the device (offline too) and written
 * here as one audit entry `case.<action>`: `at` is when the server received it, `occurredAt`
 * the device's time of the access. It changes no synced record. Keyed by the event's own id
 * (unique index audit_log_access_event_idx), so a resend adds no second entry. A deleted case
 * is still recorded (the access happened); only a case the actor may not see is refused.
 */
async function recordCaseAccess(
  ctx: ApplyContext,
  args: { id: string; caseId: string; action: string; detail?: string | undefined },
): Promise<Applied> {
  const c = await findRow(ctx, 'cases', args.caseId);
  if (!c)
    throw new Rejection(RejectionCode.NOT_FOUND, 'The case does not exist on the server.', {
      caseId: args.caseId,
    });
  if (ownerOf(c) !== ctx.actor.id && !canSeeAll(ctx.actor, 'case')) {
    throw new Rejection(RejectionCode.FORBIDDEN, 'You do not have permission to see this case.', {
      caseId: args.caseId,
      module: 'casesLogged',
      action: 'view',
    });
  }
  const action = `case.${args.action}`;
  const seen = await ctx.tx
    .selectFrom('auditLog')
    .select(['action', 'entityId'])
    .where(sql<boolean>`details ? 'accessEventId'`)
    .where(sql<string>`details->>'accessEventId'`, '=', args.id)
    .executeTakeFirst();
  if (seen) {
    if (seen.action === action && seen.entityId === args.caseId) return NOTHING;
    throw new Rejection(RejectionCode.APPEND_ONLY, REJECTION_MESSAGES.APPEND_ONLY, {
      id: args.id,
    });
  }
  const m = ctx.mutation;
  await ctx.audit({
    action,
    entityType: 'case',
    entityId: args.caseId,
    details: {
      accessEventId: args.id,
      caseId: args.caseId,
      humanId: String(c.caseId),
      source: 'device',
      occurredAt: m.clientTime,
      ...(args.detail !== undefined ? { detail: args.detail } : {}),
      ...(c.deletedAt !== null ? { caseDeleted: true } : {}),
      mutationId: m.mutationId,
      deviceId: m.deviceId,
      seq: m.seq,
    },
  });
  return NOTHING;
}

// ---------------------------------------------------------------------------------------

export async function applyMutation(ctx: ApplyContext): Promise<Applied> {
  const m = ctx.mutation;
  const { actor } = ctx;
  const d = dynamic(ctx.tx);
  switch (m.name) {
    case 'case.upsert':
      return upsertLww(ctx, LWW.case, m.args);
    case 'cprSession.upsert':
      return upsertLww(ctx, LWW.cprSession, m.args);
    case 'incidentReport.upsert':
      return upsertLww(ctx, LWW.incidentReport, m.args);
    case 'mciIncident.upsert':
      return upsertLww(ctx, LWW.mciIncident, m.args);

    case 'case.complete': {
      const row = await requireRow(ctx, 'cases', m.args.id, 'case');
      if (row.status === 'completed') return NOTHING;
      assertAllowed(canChange(actor, 'case', ownerOf(row)));
      await assertCompletable(ctx, row);
      await ctx.tx
        .updateTable('cases')
        .set({ status: 'completed', completedAt: m.args.completedAt, updatedBy: actor.id })
        .where('id', '=', m.args.id)
        .execute();
      await ctx.audit(auditEntry(ctx, 'case', m.args.id, { completedAt: m.args.completedAt }));
      return NOTHING;
    }

    case 'case.addendum':
      return applyAddendum(ctx, m.args);

    case 'case.access':
      return recordCaseAccess(ctx, m.args);

    case 'case.delete':
    case 'incidentReport.delete': {
      const isCase = m.name === 'case.delete';
      const table = isCase ? 'cases' : 'incidentReports';
      const row = await findRow(ctx, table, m.args.id);
      if (!row)
        throw new Rejection(RejectionCode.NOT_FOUND, REJECTION_MESSAGES.NOT_FOUND, {
          id: m.args.id,
        });
      if (row.deletedAt !== null) return NOTHING;
      if (isCase && row.status === 'completed')
        throw new Rejection(RejectionCode.CASE_LOCKED, REJECTION_MESSAGES.CASE_LOCKED, {
          id: m.args.id,
        });
      assertAllowed(canDelete(actor, isCase ? 'case' : 'incidentReport', ownerOf(row)));
      await d
        .updateTable(table)
        .set({ deletedAt: m.clientTime })
        .where('id', '=', m.args.id)
        .execute();
      await ctx.audit(auditEntry(ctx, isCase ? 'case' : 'incidentReport', m.args.id));
      return NOTHING;
    }

    case 'vitalSign.record': {
      const a = m.args;
      const c = await openCase(ctx, a.caseId);
      assertAllowed(canChange(actor, 'case', ownerOf(c)));
      const content = {
        caseId: a.caseId,
        type: a.type,
        value: a.value,
        numericValue: a.numericValue,
        status: a.status,
        timestamp: a.timestamp,
        notes: a.notes,
      };
      if ((await appendOnce(ctx, 'vitalSigns', a.id, content)) === 'exists') return NOTHING;
      await ctx.tx
        .insertInto('vitalSigns')
        .values({ id: a.id, ...content, userId: actor.id, createdAt: m.clientTime })
        .execute();
      await ctx.audit(auditEntry(ctx, 'vitalSign', a.id, { caseId: a.caseId, type: a.type }));
      return NOTHING;
    }

    case 'vitalSign.void': {
      const vital = await requireRow(ctx, 'vitalSigns', m.args.id, 'vital sign');
      const c = await openCase(ctx, String(vital.caseId));
      assertAllowed(canChange(actor, 'case', ownerOf(c)));
      if (vital.voidedAt !== null) return NOTHING;
      await ctx.tx
        .updateTable('vitalSigns')
        .set({ voidedAt: m.clientTime, voidReason: m.args.reason })
        .where('id', '=', m.args.id)
        .execute();
      await ctx.audit(
        auditEntry(ctx, 'vitalSign', m.args.id, { caseId: String(vital.caseId), voided: true }),
      );
      return NOTHING;
    }

    case 'cprEvent.record':
    case 'cprEvent.void': {
      const a = m.args;
      const session = await requireRow(ctx, 'cprSessions', a.cprSessionId, 'CPR session');
      assertAllowed(canChange(actor, 'cprSession', ownerOf(session)));
      let content: {
        cprSessionId: string;
        type: string;
        at: string;
        details: Record<string, JsonValue>;
        voidsEventId: string | null;
      };
      if (m.name === 'cprEvent.void') {
        const target = await findRow(ctx, 'cprEvents', m.args.voidsEventId);
        if (!target || target.cprSessionId !== a.cprSessionId) {
          throw new Rejection(
            RejectionCode.NOT_FOUND,
            'The CPR event to void does not exist in this session.',
            { id: m.args.voidsEventId },
          );
        }
        if (target.type === 'void')
          throw new Rejection(
            RejectionCode.INVALID_STATE,
            'A void cannot be voided; record the event again.',
          );
        content = {
          cprSessionId: a.cprSessionId,
          type: 'void',
          at: a.at,
          details: { reason: m.args.reason },
          voidsEventId: m.args.voidsEventId,
        };
      } else {
        content = {
          cprSessionId: a.cprSessionId,
          type: m.args.type,
          at: a.at,
          details: asJson(m.args.details) as Record<string, JsonValue>,
          voidsEventId: null,
        };
      }
      if ((await appendOnce(ctx, 'cprEvents', a.id, content)) === 'exists') return NOTHING;
      await ctx.tx
        .insertInto('cprEvents')
        .values({
          id: a.id,
          ...content,
          details: JSON.stringify(content.details),
          userId: actor.id,
          createdAt: m.clientTime,
        })
        .execute();
      await ctx.audit(
        auditEntry(ctx, 'cprEvent', a.id, { cprSessionId: a.cprSessionId, type: content.type }),
      );
      return NOTHING;
    }

    case 'mciCasualty.record': {
      const a = m.args;
      await requireRow(ctx, 'mciIncidents', a.mciIncidentId, 'incident');
      // Anyone who may triage adds casualties to any incident: two responders triage at once.
      assertAllowed(canCreate(actor, 'mciIncident'));
      const { id, mciIncidentId, ...fields } = a;
      const existing = await findRow(ctx, 'mciCasualties', id);
      if (existing) {
        if (existing.mciIncidentId !== mciIncidentId)
          throw new Rejection(RejectionCode.APPEND_ONLY, REJECTION_MESSAGES.APPEND_ONLY, { id });
        // A replay of the same record: later changes go through mciCasualty.update.
        return NOTHING;
      }
      return createLww(ctx, LWW.mciCasualty, id, undefined, fields, { mciIncidentId });
    }

    case 'mciCasualty.update': {
      const existing = await findRow(ctx, 'mciCasualties', m.args.id);
      if (!existing)
        throw new Rejection(RejectionCode.NOT_FOUND, REJECTION_MESSAGES.NOT_FOUND, {
          id: m.args.id,
        });
      // At an incident, whoever commands or treats may retriage or transport any casualty.
      const commander = hasPermission(actor, 'multiPatient', 'edit');
      const decision: AccessDecision = commander
        ? { allowed: true }
        : canChange(actor, 'mciIncident', ownerOf(existing));
      return updateLww(ctx, LWW.mciCasualty, existing, definedFields(m.args.fields), decision);
    }
  }
}
