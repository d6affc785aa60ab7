// incidentReport: a rescue or operational incident report
import { z } from 'zod';
import '../zod-config';
import { RECORD_STATUSES, REPORT_PRIORITIES, incidentReportTypeSchema } from '../cases/clinical';
import { nShort, nLong } from '../platform/field-types';
import { defineRecord, type RecordDefinition } from '../platform/record';
import { deleteMutator, upsertMutator } from '../platform/verbs';
import {
  jsonObjectSchema,
  latitudeSchema,
  longitudeSchema,
  ownedRecordSchema,
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
  /** Type-specific fields (domain.md table), free structure. */
  typeSpecificData: jsonObjectSchema,
  status: z.enum(RECORD_STATUSES),
  priority: z.enum(REPORT_PRIORITIES),
  additionalNotes: nLong,
  mediaUrls: z.array(z.string().max(2000)).max(100),
  /** Strings, as the spec has them. */
  incidentStartTime: nShort,
  incidentEndTime: nShort,
};
type IncidentReportField = keyof typeof incidentReportFieldShape;
export const incidentReportFieldsSchema = z.strictObject(incidentReportFieldShape).partial();
export const INCIDENT_REPORT_REQUIRED_ON_CREATE: readonly IncidentReportField[] = ['incidentType'];

export const incidentReportRecordSchema = ownedRecordSchema({
  incidentId: z.string(),
  ...incidentReportFieldShape,
});
export type IncidentReportRecord = z.output<typeof incidentReportRecordSchema>;

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
  } as Partial<IncidentReportRecord>,
  lww: true,
  humanId: { column: 'incidentId', prefix: 'I' },
  // No logs module of its own: the module's read covers others' reports.
  access: { module: 'incidentReports', logModule: 'incidentReports', viewAction: 'read' },
  numericColumns: ['latitude', 'longitude'],
  device: { indexes: 'incidentId, userId' },
} as const satisfies Omit<RecordDefinition<IncidentReportRecord>, 'mutators'>;

export const incidentReportRecord = defineRecord({
  ...incidentReportKind,
  mutators: [
    upsertMutator(incidentReportKind, incidentReportFieldsSchema, {
      requiredOnCreate: INCIDENT_REPORT_REQUIRED_ON_CREATE,
    }),
    deleteMutator(incidentReportKind),
  ],
});
