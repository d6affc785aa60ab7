// incidentReportAddendum: the only change a completed incident report accepts, the same
// mechanism as a case's (platform/addendum.ts): reason, author, each field before and after.
import { z } from 'zod';
import '../zod-config';
import {
  INCIDENT_REPORT_FIELDS,
  checkTypeData,
  incidentReportFieldsSchema,
  isIncidentReportLocked,
} from './incident-report';
import {
  ADDENDUM_DEFAULTS,
  addendumInputShape,
  addendumRecordColumns,
  applyAddendum,
  type AddendumSpec,
} from '../platform/addendum';
import { defineMutator } from '../platform/mutator';
import { defineRecord } from '../platform/record';
import { uuidSchema } from '../platform/values';

/** What an addendum may correct: every field but the status (and the type, which its data
 * hangs on: a report of the wrong type is deleted and written again before completion). */
const CORRECTABLE = INCIDENT_REPORT_FIELDS.filter((f) => f !== 'status' && f !== 'incidentType');
export const INCIDENT_REPORT_CORRECTABLE_FIELDS = CORRECTABLE as [
  (typeof CORRECTABLE)[number],
  ...(typeof CORRECTABLE)[number][],
];

export const incidentReportAddendumInputSchema = z.strictObject({
  id: uuidSchema,
  /** incident_reports.id */
  incidentReportId: uuidSchema,
  ...addendumInputShape(INCIDENT_REPORT_CORRECTABLE_FIELDS),
});

export const incidentReportAddendumRecordSchema = z.object({
  id: uuidSchema,
  incidentReportId: uuidSchema,
  ...addendumRecordColumns,
});
export type IncidentReportAddendumRecord = z.output<typeof incidentReportAddendumRecordSchema>;

const INCIDENT_REPORT_ADDENDUM: AddendumSpec = {
  kind: 'incidentReportAddendum',
  parentKind: 'incidentReport',
  parentColumn: 'incidentReportId',
  fields: incidentReportFieldsSchema,
  isLocked: isIncidentReportLocked,
  notLockedMessage:
    'An addendum corrects a completed incident report; this report is still in progress, so change the fields directly.',
  checkResult: checkTypeData,
};

export const incidentReportAddendumMutator = defineMutator({
  name: 'incidentReport.addendum',
  label: 'Incident report addendum',
  kind: 'incidentReportAddendum',
  args: incidentReportAddendumInputSchema,
  entityIds: (a) => [a.id, a.incidentReportId],
  creates: true,
  apply: (tx, a) =>
    applyAddendum(tx, INCIDENT_REPORT_ADDENDUM, {
      id: a.id,
      parentId: a.incidentReportId,
      reason: a.reason,
      changes: a.changes,
    }),
});

export const incidentReportAddendumRecord = defineRecord({
  kind: 'incidentReportAddendum',
  label: 'incident report addendum',
  table: 'incidentReportAddenda',
  sqlTable: 'incident_report_addenda',
  record: incidentReportAddendumRecordSchema,
  defaults: ADDENDUM_DEFAULTS,
  lww: false,
  parent: { kind: 'incidentReport', column: 'incidentReportId' },
  sinceSchemaVersion: 5,
  device: { indexes: 'incidentReportId' },
  mutators: [incidentReportAddendumMutator],
});
