// Case list items (GET /api/cases): what the dashboard's Recent Cases and the case list show.
// Kept apart from cases.ts, which re-exports them: the dashboard parses these on its first
// render, and cases.ts brings the full case record's schemas (the record platform, ~13 KiB
// gzipped) that the home screen does not need.
import { z } from 'zod';
import { isoDateSchema as isoDate } from '../primitives';
import '../zod-config';

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
  // Older servers and cached lists have no responder fields: read them as unknown.
  responderName: z.string().nullable().default(null),
  responderCallSign: z.string().nullable().default(null),
});
export type CaseSummary = z.output<typeof caseSummarySchema>;
export const caseListSchema = z.array(caseSummarySchema);
