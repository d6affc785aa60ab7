// GET /api/incident-reports: the list of incident reports online (the list screen's server
// source; offline it filters the device's copy the same way). Filters: q (words in the number,
// title, description, location, responder or call sign), incidentType, priority, status,
// responder (name or call sign), from / to (the day it was reported, in the service's time
// zone, both in). Newest first; the next page's cursor in X-Next-Cursor.
import { z } from 'zod';
import '../zod-config';
import { RECORD_STATUSES, REPORT_PRIORITIES, incidentReportTypeSchema } from '../cases/clinical';
import { dayParam, optionalText } from '../cases/api';
import { incidentReportRecordSchema } from './incident-report';

export const INCIDENT_REPORT_LIST_DEFAULT_LIMIT = 50;
export const INCIDENT_REPORT_LIST_MAX_LIMIT = 200;

const optionalChoice = <S extends z.ZodType>(schema: S) =>
  z.preprocess((v) => (v === '' ? undefined : v), schema.optional());

export const incidentReportListQuerySchema = z.strictObject({
  q: optionalText(200),
  incidentType: optionalChoice(incidentReportTypeSchema),
  priority: optionalChoice(z.enum(REPORT_PRIORITIES)),
  status: optionalChoice(z.enum(RECORD_STATUSES)),
  responder: optionalText(200),
  from: dayParam,
  to: dayParam,
  cursor: optionalText(200),
  limit: z.coerce
    .number()
    .int()
    .min(1)
    .max(INCIDENT_REPORT_LIST_MAX_LIMIT)
    .default(INCIDENT_REPORT_LIST_DEFAULT_LIMIT),
});
export type IncidentReportListQuery = z.output<typeof incidentReportListQuerySchema>;

export const incidentReportListSchema = z.array(incidentReportRecordSchema);
