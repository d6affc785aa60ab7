// GET /api/stats (spec §3 Stats): counts for the dashboard's Quick Stats card.
import { z } from 'zod';
import './zod-config';

export const statsSchema = z.object({
  thisMonthIncidents: z.number().int().nonnegative(),
  thisWeekIncidents: z.number().int().nonnegative(),
  activeIncidents: z.number().int().nonnegative(),
});
export type Stats = z.infer<typeof statsSchema>;

/** The last counts this device received and when (the dashboard shows them without signal). */
export const lastKnownStatsSchema = z.object({ stats: statsSchema, at: z.iso.datetime() });
export type LastKnownStats = z.infer<typeof lastKnownStatsSchema>;
