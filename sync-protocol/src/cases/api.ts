// Cases over HTTP: the search (GET /api/cases), one case's full record (as the sync records),
// unlock and access history. The list items themselves are in case-list.ts, so the dashboard's
// Recent Cases parses them without loading the record schemas.
import { z } from 'zod';
import { isoDateSchema as isoDate } from '../primitives';
import { CASE_STATUSES } from './list';
import { caseAddendumRecordSchema } from './case-addendum';
import { caseRecordSchema } from './case-schema';
import { vitalSignRecordSchema } from './vital-sign';
import { humanIdSchema } from '../platform/human-id';
import { checkCalendarDay } from '../time';
import '../zod-config';

export {
  CASE_STATUSES,
  caseListSchema,
  caseSummarySchema,
  type CaseStatus,
  type CaseSummary,
} from './list';

export const CASE_LIST_DEFAULT_LIMIT = 50;
export const CASE_LIST_MAX_LIMIT = 200;

// A NUL character can match no stored text (PostgreSQL stores none): refused as invalid input.
export const optionalText = (max: number) =>
  z.preprocess(
    (v) => (typeof v === 'string' && v.trim() === '' ? undefined : v),
    z
      .string()
      .trim()
      .max(max)
      .refine((v) => !v.includes('\u0000'))
      .optional(),
  );
/**
 * A calendar day, YYYY-MM-DD, in the service's time zone (Africa/Johannesburg): a real day
 * in the years the product accepts (time.ts checkCalendarDay), so its start in the zone is
 * an instant the database can compare with.
 */
export const dayParam = z.preprocess(
  (v) => (v === '' ? undefined : v),
  z
    .string()
    .superRefine((v, ctx) => {
      const checked = checkCalendarDay(v);
      if (!checked.ok) ctx.addIssue({ code: 'custom', message: checked.message });
    })
    .optional(),
);

/**
 * Case search (Cases Logged, GET /api/cases). The same filters run on the server (indexed
 * SQL) and on the device (over the cases it holds), so both answer alike:
 * - caseId: the human case number, matched from its start, ignoring case, dashes and spaces,
 *   with the read-alikes O, I and L typed for 0, 1 and 1 (as parseHumanId accepts them);
 * - patientName: contains, case-insensitive;
 * - incidentType: exact (case-insensitive);
 * - from / to: the case's createdAt day, inclusive, in the service's time zone;
 * - status: in_progress or completed;
 * - responder: contains, case-insensitive, in responderName or responderCallSign;
 * - mine: only the signed-in user's own cases.
 * Results are newest first (createdAt desc, then caseId desc). `cursor` is the opaque value
 * the previous page returned as `nextCursor`.
 */
export const caseSearchQuerySchema = z.strictObject({
  caseId: optionalText(40),
  patientName: optionalText(200),
  incidentType: optionalText(200),
  from: dayParam,
  to: dayParam,
  status: z.preprocess((v) => (v === '' ? undefined : v), z.enum(CASE_STATUSES).optional()),
  responder: optionalText(200),
  mine: z.preprocess(
    (v) => (v === 'true' ? true : v === 'false' || v === '' ? undefined : v),
    z.literal(true).optional(),
  ),
  cursor: optionalText(200),
  limit: z.coerce.number().int().min(1).max(CASE_LIST_MAX_LIMIT).default(CASE_LIST_DEFAULT_LIMIT),
});
export type CaseSearchQuery = z.output<typeof caseSearchQuerySchema>;

// ---------------------------------------------------------------------------------------
// One case's full record, unlock and access history (docs/decisions/007)
// ---------------------------------------------------------------------------------------

/** GET /api/cases/:caseId and its sub-routes: the human case number, e.g. C-2611-7Q4M-XK3P. */
export const caseRecordParamsSchema = z.strictObject({ caseId: humanIdSchema('C') });

/** GET /api/cases/:caseId: the case with its vital signs and addenda, as the sync records. */
export const caseRecordResponseSchema = z.object({
  case: caseRecordSchema,
  vitalSigns: z.array(vitalSignRecordSchema),
  addenda: z.array(caseAddendumRecordSchema),
});
export type CaseRecordResponse = z.output<typeof caseRecordResponseSchema>;

/** POST /api/cases/:caseId/unlock (administrators): why the completed case is reopened. */
export const caseUnlockSchema = z.strictObject({
  reason: z.string().trim().min(1, 'A reason is required').max(2000, 'Use at most 2000 characters'),
});
export type CaseUnlockInput = z.input<typeof caseUnlockSchema>;

export const CASE_ACCESS_HISTORY_DEFAULT_LIMIT = 50;
export const CASE_ACCESS_HISTORY_MAX_LIMIT = 200;

/** GET /api/cases/:caseId/access-history?limit=&cursor= (newest first). */
export const caseAccessHistoryQuerySchema = z.strictObject({
  limit: z.coerce
    .number()
    .int()
    .min(1)
    .max(CASE_ACCESS_HISTORY_MAX_LIMIT)
    .default(CASE_ACCESS_HISTORY_DEFAULT_LIMIT),
  /** The previous page's nextCursor. */
  cursor: z
    .string()
    .regex(/^\d{1,18}$/, 'Invalid cursor')
    .optional(),
});

/** What each audit action means, for the access history screen. */
export const CASE_AUDIT_ACTION_LABELS: Record<string, string> = {
  'case.view': 'Viewed',
  'case.print': 'Printed',
  'case.pdf': 'Saved as PDF',
  'case.export': 'Exported',
  'case.unlock': 'Unlocked',
  'sync.case.upsert': 'Edited',
  'sync.case.complete': 'Completed',
  'sync.case.addendum': 'Addendum added',
  'sync.case.delete': 'Deleted',
  'sync.vitalSign.record': 'Vital signs recorded',
  'sync.vitalSign.void': 'Vital signs voided',
  'sync.rejected': 'Change refused',
  'access.denied': 'Access refused',
};

export function caseAuditActionLabel(action: string): string {
  return CASE_AUDIT_ACTION_LABELS[action] ?? action;
}

/**
 * One entry of a case's access history: who (name, call sign), what, when the server recorded
 * it and, for access recorded on a device, when it happened there; from where (IP address and
 * browser). `fields` names the fields an edit or addendum changed.
 */
export const caseAccessEntrySchema = z.object({
  id: z.string(),
  action: z.string(),
  label: z.string(),
  outcome: z.enum(['success', 'denied', 'failure']),
  at: isoDate,
  occurredAt: isoDate.nullable(),
  actor: z
    .object({ id: z.number().int(), fullName: z.string(), callSign: z.string().nullable() })
    .nullable(),
  source: z.enum(['device', 'server']),
  detail: z.string().nullable(),
  fields: z.array(z.string()),
  reason: z.string().nullable(),
  ip: z.string().nullable(),
  userAgent: z.string().nullable(),
});
export type CaseAccessEntry = z.output<typeof caseAccessEntrySchema>;

export const caseAccessHistorySchema = z.object({
  caseId: z.string(),
  entries: z.array(caseAccessEntrySchema),
  nextCursor: z.string().nullable(),
});
export type CaseAccessHistory = z.output<typeof caseAccessHistorySchema>;
