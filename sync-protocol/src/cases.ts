// Case list items (GET /api/cases): what the dashboard's Recent Cases and the case list show.
// The full case record and its sync schema come with the sync engine.
import { z } from 'zod';
import { isoDateSchema as isoDate } from './primitives';
import './zod-config';

export const CASE_STATUSES = ['in_progress', 'completed'] as const;
export type CaseStatus = (typeof CASE_STATUSES)[number];

export const caseSummarySchema = z.object({
  id: z.string(),
  caseId: z.string(),
  patientName: z.string().nullable(),
  incidentType: z.string().nullable(),
  status: z.enum(CASE_STATUSES),
  createdAt: isoDate.nullable(),
  completedAt: isoDate.nullable(),
  userId: z.number().int().nullable(),
});
export type CaseSummary = z.output<typeof caseSummarySchema>;
export const caseListSchema = z.array(caseSummarySchema);

export const CASE_LIST_DEFAULT_LIMIT = 50;
export const CASE_LIST_MAX_LIMIT = 200;
/** GET /api/cases?limit= */
export const caseListQuerySchema = z.strictObject({
  limit: z.coerce.number().int().min(1).max(CASE_LIST_MAX_LIMIT).default(CASE_LIST_DEFAULT_LIMIT),
});
