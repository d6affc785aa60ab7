// What an incident report needs before it can be completed (and locked). Saving a draft is
// never blocked: these problems only stop "Complete report", which lists each with a link to
// its field. The device runs it before sending incidentReport.complete and the server runs it
// again when it applies it, so it is pure and works on the report as either side holds it.
//
// Required: a title; what happened (description); where (a place, or GPS coordinates); who
// responded; when it started and ended (end not before start); and the fields its type marks
// required (incident-types.ts). The type's data must fit the type's schema.
import { INCIDENT_TYPE_FIELDS, isIncidentReportType, typeDataProblems } from './incident-types';

export const INCIDENT_COMMON_FIELD_LABELS = {
  title: 'Title',
  description: 'Description',
  location: 'Location',
  responderName: 'Responder',
  responderCallSign: 'Call sign',
  incidentStartTime: 'Start time',
  incidentEndTime: 'End time',
  priority: 'Priority',
  additionalNotes: 'Additional notes',
} as const;

export type IncidentCompletionGroup = 'details' | 'type';

export interface IncidentCompletionProblem {
  /** A report field, or `typeSpecificData.<key>` for a field of the type. */
  field: string;
  group: IncidentCompletionGroup;
  message: string;
}

export interface IncidentReportLike {
  incidentType?: string | null | undefined;
  title?: string | null | undefined;
  description?: string | null | undefined;
  location?: string | null | undefined;
  latitude?: number | null | undefined;
  longitude?: number | null | undefined;
  responderName?: string | null | undefined;
  incidentStartTime?: string | null | undefined;
  incidentEndTime?: string | null | undefined;
  typeSpecificData?: Record<string, unknown> | null | undefined;
}

function blank(value: unknown): boolean {
  if (value === null || value === undefined) return true;
  if (typeof value === 'string') return value.trim() === '';
  if (Array.isArray(value)) return value.length === 0;
  return false;
}

/** The DOM id of a type field's input (`typeSpecificData.victims` → `field-type-victims`). */
export function typeFieldPath(key: string): string {
  return `typeSpecificData.${key}`;
}

/** Problems in the order the form shows the fields; at most one per field. */
export function validateIncidentReportForCompletion(
  report: IncidentReportLike,
): IncidentCompletionProblem[] {
  const problems: IncidentCompletionProblem[] = [];
  const need = (field: keyof typeof INCIDENT_COMMON_FIELD_LABELS, message: string) => {
    if (blank(report[field as keyof IncidentReportLike]))
      problems.push({ field, group: 'details', message });
  };
  need('title', 'Give the report a title');
  need('description', 'Describe what happened');
  if (blank(report.location) && (report.latitude == null || report.longitude == null))
    problems.push({
      field: 'location',
      group: 'details',
      message: 'Record the location (type it or use GPS)',
    });
  need('responderName', 'Name the responder');
  need('incidentStartTime', 'Record when the incident started');
  need('incidentEndTime', 'Record when the incident ended');
  const start = report.incidentStartTime ? Date.parse(report.incidentStartTime) : NaN;
  const end = report.incidentEndTime ? Date.parse(report.incidentEndTime) : NaN;
  if (!Number.isNaN(start) && !Number.isNaN(end) && end < start)
    problems.push({
      field: 'incidentEndTime',
      group: 'details',
      message: 'The end time is before the start time',
    });

  const type = report.incidentType;
  if (!isIncidentReportType(type)) {
    problems.push({ field: 'incidentType', group: 'type', message: 'Choose a known report type' });
    return problems;
  }
  const data = report.typeSpecificData ?? {};
  const invalid = new Map(typeDataProblems(type, data).map((p) => [p.field, p.message]));
  for (const field of INCIDENT_TYPE_FIELDS[type]) {
    const problem = invalid.get(field.key);
    if (problem !== undefined) {
      problems.push({
        field: typeFieldPath(field.key),
        group: 'type',
        message: `${field.label}: ${problem}`,
      });
      invalid.delete(field.key);
    } else if (field.required && blank(data[field.key]))
      problems.push({
        field: typeFieldPath(field.key),
        group: 'type',
        message: `Record ${field.label.toLowerCase()}`,
      });
  }
  for (const [field, message] of invalid)
    problems.push({ field: typeFieldPath(field), group: 'type', message });
  return problems;
}
