// incidentReport: a rescue or operational incident report (per-field last write wins;
// completed means locked, corrections are addenda: incident-report-addendum.ts). Its type's
// own fields live in typeSpecificData, held to the type's schema (incident-types.ts) on the
// device and on the server by every change that touches the type or its data.
import { z } from 'zod';
import '../zod-config';
import { RECORD_STATUSES, REPORT_PRIORITIES, incidentReportTypeSchema } from '../cases/clinical';
import { validateIncidentReportForCompletion, type IncidentReportLike } from './completion';
import { typeDataProblems } from './incident-types';
import { nShort, nLong, nTime } from '../platform/field-types';
import { defineMutator, type Row } from '../platform/mutator';
import { defineRecord, type RecordDefinition } from '../platform/record';
import { Rejection, RejectionCode } from '../platform/rejections';
import { deleteMutator, upsertMutator } from '../platform/verbs';
import {
  jsonObjectSchema,
  latitudeSchema,
  longitudeSchema,
  ownedRecordSchema,
  timestampSchema,
  uuidSchema,
} from '../platform/values';

const incidentReportFieldShape = {
  incidentType: incidentReportTypeSchema,
  title: nShort,
  description: nLong,
  location: nShort,
  latitude: latitudeSchema.nullable(),
  longitude: longitudeSchema.nullable(),
  responderName: nShort,
  responderCallSign: nShort,
  /** The type's own fields (incident-types.ts): checked against the type by checkTypeData. */
  typeSpecificData: jsonObjectSchema,
  status: z.enum(RECORD_STATUSES),
  priority: z.enum(REPORT_PRIORITIES),
  additionalNotes: nLong,
  mediaUrls: z.array(z.string().max(2000)).max(100),
  /** Strings, as the spec has them (ISO timestamps from the form's time fields). */
  incidentStartTime: nShort,
  incidentEndTime: nShort,
};
type IncidentReportField = keyof typeof incidentReportFieldShape;
export const incidentReportFieldsSchema = z.strictObject(incidentReportFieldShape).partial();
export const INCIDENT_REPORT_FIELDS = Object.keys(incidentReportFieldShape) as [
  IncidentReportField,
  ...IncidentReportField[],
];
export const INCIDENT_REPORT_REQUIRED_ON_CREATE: readonly IncidentReportField[] = ['incidentType'];

export const incidentReportRecordSchema = ownedRecordSchema({
  incidentId: z.string(),
  ...incidentReportFieldShape,
  /** When it was completed (and locked); schema version 5. */
  completedAt: nTime.default(null),
});
export type IncidentReportRecord = z.output<typeof incidentReportRecordSchema>;

/** Refuses a report whose type-specific data does not fit its type (TYPE_DATA_INVALID). */
export function checkTypeData(row: Row): void {
  const problems = typeDataProblems(row.incidentType, row.typeSpecificData ?? {});
  const first = problems[0];
  if (first)
    throw new Rejection(
      RejectionCode.TYPE_DATA_INVALID,
      `typeSpecificData${first.field ? `.${first.field}` : ''}: ${first.message}`,
      {
        incidentType: String(row.incidentType),
        problems: problems.slice(0, 20).map((p) => ({ ...p })),
      },
    );
}

export const isIncidentReportLocked = (row: Row) => row.status === 'completed';

const incidentReportKind = {
  kind: 'incidentReport',
  label: 'incident report',
  table: 'incidentReports',
  sqlTable: 'incident_reports',
  record: incidentReportRecordSchema,
  defaults: {
    typeSpecificData: {},
    status: 'in_progress',
    priority: 'normal',
    mediaUrls: [],
    completedAt: null,
  } as Partial<IncidentReportRecord>,
  lww: true,
  humanId: { column: 'incidentId', prefix: 'I' },
  // No logs module of its own: the module's read covers others' reports.
  access: { module: 'incidentReports', logModule: 'incidentReports', viewAction: 'read' },
  lock: { isLocked: isIncidentReportLocked, code: RejectionCode.INCIDENT_REPORT_LOCKED },
  numericColumns: ['latitude', 'longitude'],
  device: { indexes: 'incidentId, userId' },
} as const satisfies Omit<RecordDefinition<IncidentReportRecord>, 'mutators'>;

/** Completes and locks the report: afterwards only incidentReport.addendum is accepted. The
 * device checks before it sends; the server checks again on the report as it holds it. */
export const incidentReportComplete = defineMutator({
  name: 'incidentReport.complete',
  label: 'Incident report completion',
  kind: 'incidentReport',
  args: z.strictObject({ id: uuidSchema, completedAt: timestampSchema }),
  entityIds: (a) => [a.id],
  async apply(tx, a) {
    const row = await tx.require('incidentReport', a.id, 'change');
    if (row.status === 'completed') return;
    const problems = validateIncidentReportForCompletion(row as IncidentReportLike);
    if (problems.length > 0)
      throw new Rejection(
        RejectionCode.INCIDENT_REPORT_INCOMPLETE,
        `The incident report cannot be completed: ${problems.map((p) => p.message).join('; ')}.`,
        { id: a.id, problems: problems.map((p) => ({ ...p })) },
      );
    await tx.update('incidentReport', a.id, { status: 'completed', completedAt: a.completedAt });
    tx.note({ completedAt: a.completedAt });
  },
});

/** Drafts are written field by field; `status` moves only through incidentReport.complete. */
const incidentReportUpsertFields = incidentReportFieldsSchema.omit({ status: true });

export const incidentReportUpsert = upsertMutator(incidentReportKind, incidentReportUpsertFields, {
  requiredOnCreate: INCIDENT_REPORT_REQUIRED_ON_CREATE,
  checkResult: checkTypeData,
});

export const incidentReportRecord = defineRecord({
  ...incidentReportKind,
  mutators: [incidentReportUpsert, incidentReportComplete, deleteMutator(incidentReportKind)],
});
