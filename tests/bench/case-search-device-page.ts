// The device case search benchmark's page script (bundled by esbuild in
// case-search-device.ts): the real client code from sync-protocol/src/client over Chromium's
// IndexedDB. Cases are stored the way the device keeps them (every case field, defaults
// filled in), so reading a row costs what it costs in the app.
import { CASE_SEARCH_TIME_ZONE, type CaseSearchFilters } from '@rescuelog/sync-protocol/case/search';
import { recentLocalCases, searchLocalCases } from '@rescuelog/sync-protocol/client/case-search';
import { SyncDatabase } from '@rescuelog/sync-protocol/client/local-db';
import { CASE_FIELD_DEFAULTS } from '@rescuelog/sync-protocol/sync/entities';
import { generateHumanId } from '@rescuelog/sync-protocol/sync/human-id';

export interface DeviceBenchApi {
  /** Stores `n` cases over `days` days up to `newest` (ISO); returns the time taken in ms. */
  seed(n: number, newest: string, days: number): Promise<number>;
  /** Times `runs` searches (after warm-up); ms each, and the matches of the last. */
  time(filters: CaseSearchFilters, runs: number): Promise<{ ms: number[]; total: number }>;
  timeRecent(runs: number): Promise<number[]>;
  /** Times the first search after a case changed (the kept list reads what changed). */
  timeAfterChange(runs: number): Promise<number[]>;
  /** Times the first search of a freshly opened database (every summary is read). */
  timeCold(runs: number): Promise<number[]>;
}

declare global {
  interface Window {
    caseSearchBench: DeviceBenchApi;
  }
}

const USER_ID = 1;
const FIRST = ['Thandi', 'Sipho', 'Johan', 'Lerato', 'Ayesha', 'Pieter', 'Naledi', 'Bongani', 'Zanele', 'Kagiso', 'Anele', 'Lindiwe', 'Tshepo', 'Marike', 'Riaan', 'Nomsa', 'Émile', 'Zoë', 'Farah', 'Musa'];
const LAST = ['Nkosi', 'Dlamini', 'Botha', 'Mokoena', 'Patel', 'Naudé', 'Khumalo', 'van der Merwe', 'Ndlovu', 'Pillay', 'Smit', 'Mahlangu', 'Naidoo', 'Zulu', 'Jacobs', 'Sithole'];
const TYPES = ['Medical', 'Trauma', 'Road traffic collision', 'Fall', 'Assault', 'Burns', 'Drowning', 'Cardiac', 'Respiratory', 'Stroke', 'Obstetric', 'Paediatric', 'Psychiatric', 'Poisoning / overdose', 'Other: snake bite'];
const pick = <T>(list: readonly T[], i: number): T => list[i % list.length] as T;

const db = new SyncDatabase(USER_ID);

window.caseSearchBench = {
  async seed(n, newest, days) {
    const t0 = performance.now();
    await db.cases.clear();
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
        additionalNotes: 'Patient found seated, alert, complaining of pain. Vitals stable on scene. Handed over to ALS crew with a verbal report.',
        status: completed ? 'completed' : 'in_progress',
        createdAt,
        completedAt: completed ? new Date(Date.parse(createdAt) + 3_600_000).toISOString() : null,
        userId: g % 8 === 0 ? USER_ID : 2 + (g % 40),
        updatedBy: null,
        version: String(1000 + g),
        updatedAt: createdAt,
        deletedAt: null,
      };
    });
    await db.cases.bulkPut(rows);
    return performance.now() - t0;
  },
  async time(filters, runs) {
    const ctx = { userId: USER_ID, timeZone: CASE_SEARCH_TIME_ZONE };
    for (let i = 0; i < 3; i++) await searchLocalCases(db, filters, ctx);
    const ms: number[] = [];
    let total = 0;
    for (let i = 0; i < runs; i++) {
      const t0 = performance.now();
      total = (await searchLocalCases(db, filters, ctx)).total;
      ms.push(performance.now() - t0);
    }
    return { ms, total };
  },
  async timeAfterChange(runs) {
    const ctx = { userId: USER_ID, timeZone: CASE_SEARCH_TIME_ZONE };
    const first = await db.cases.limit(1).first();
    const ms: number[] = [];
    for (let i = 0; i < runs; i++) {
      if (first) await db.cases.put({ ...first, patientName: `Changed ${String(i)}` });
      const t0 = performance.now();
      await searchLocalCases(db, { patientName: 'nkosi' }, ctx);
      ms.push(performance.now() - t0);
    }
    return ms;
  },
  async timeCold(runs) {
    const ctx = { userId: USER_ID, timeZone: CASE_SEARCH_TIME_ZONE };
    const ms: number[] = [];
    for (let i = 0; i < runs; i++) {
      const fresh = new SyncDatabase(USER_ID);
      await fresh.open();
      const t0 = performance.now();
      await searchLocalCases(fresh, { patientName: 'nkosi' }, ctx);
      ms.push(performance.now() - t0);
      fresh.close();
    }
    return ms;
  },
  async timeRecent(runs) {
    for (let i = 0; i < 3; i++) await recentLocalCases(db, 3);
    const ms: number[] = [];
    for (let i = 0; i < runs; i++) {
      const t0 = performance.now();
      await recentLocalCases(db, 3);
      ms.push(performance.now() - t0);
    }
    return ms;
  },
};
