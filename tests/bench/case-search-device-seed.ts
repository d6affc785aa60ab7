// The device case search benchmarks' data (page side): cases stored the way the device keeps
// them (every case field, defaults filled in), so reading a row costs what it costs in the app.
import { CASE_FIELD_DEFAULTS } from '@rescuelog/sync-protocol/cases/case-schema';
import { generateHumanId } from '@rescuelog/sync-protocol/platform/human-id';
import type { SyncDatabase } from '@rescuelog/sync-protocol/client/local-db';
import {
  FIRST_NAMES as FIRST,
  INCIDENT_TYPES as TYPES,
  LAST_NAMES as LAST,
} from './support/case-names';

/** The signed-in user of the benchmarks ("Only my cases": every 8th case). */
export const BENCH_USER_ID = 1;
/** 5,000 cases over a year and a half up to this instant: a busy volunteer station's device. */
export const BENCH_NEWEST = '2026-11-21T06:00:00.000Z';
export const BENCH_DAYS = 540;

const pick = <T>(list: readonly T[], i: number): T => list[i % list.length] as T;

/** Replaces the cases of `db` with `n` cases spread over `days` days up to `newest`. */
export async function seedCases(
  db: SyncDatabase,
  n: number,
  newest = BENCH_NEWEST,
  days = BENCH_DAYS,
): Promise<void> {
  await db.store('cases').clear();
  const end = Date.parse(newest);
  const step = (days * 86_400_000) / n;
  const rows = Array.from({ length: n }, (_, g) => {
    const createdAt = new Date(end - g * step).toISOString();
    const completed = g % 10 !== 0;
    return {
      ...CASE_FIELD_DEFAULTS,
      id: crypto.randomUUID(),
      caseId: generateHumanId('C', undefined, new Date(createdAt)),
      patientName: g % 12 === 0 ? null : `${pick(FIRST, g)} ${pick(LAST, Math.floor(g / 20))}`,
      incidentType: g % 25 === 0 ? null : pick(TYPES, g * 7),
      responderName: `${pick(FIRST, g * 3)} ${pick(LAST, g * 5)}`,
      responderCallSign: `R${String(1 + (g % 40))}`,
      incidentLocation: `${String(g % 300)} Main Road, Somerset West`,
      additionalNotes:
        'Patient found seated, alert, complaining of pain. Vitals stable on scene. Handed over to ALS crew with a verbal report.',
      status: completed ? 'completed' : 'in_progress',
      createdAt,
      completedAt: completed ? new Date(Date.parse(createdAt) + 3_600_000).toISOString() : null,
      userId: g % 8 === 0 ? BENCH_USER_ID : 2 + (g % 40),
      updatedBy: null,
      version: String(1000 + g),
      updatedAt: createdAt,
      deletedAt: null,
    };
  });
  await db.store('cases').bulkPut(rows);
}
