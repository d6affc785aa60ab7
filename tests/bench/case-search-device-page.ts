// The device case search benchmark's page script (bundled by esbuild in
// case-search-device.ts): the real client code from sync-protocol/src/client over Chromium's
// IndexedDB. Cases are stored the way the device keeps them (case-search-device-seed.ts).
import { type CaseSearchFilters } from '@rescuelog/sync-protocol/cases/search';
import { DEFAULT_SERVICE_TIME_ZONE } from '@rescuelog/sync-protocol/time';
import { recentLocalCases, searchLocalCases } from '@rescuelog/sync-protocol/cases/device-search';
import type { SyncDatabase } from '@rescuelog/sync-protocol/client/local-db';
import { BENCH_USER_ID, seedCases } from './case-search-device-seed';
import { openAppDatabase } from '@rescuelog/sync-protocol/records/device';

export interface DeviceBenchApi {
  /** Stores `n` cases over `days` days up to `newest` (ISO); returns the time taken in ms. */
  seed(n: number, newest: string, days: number): Promise<number>;
  /** Times `runs` searches (after warm-up); ms each, and the matches of the last. */
  time(filters: CaseSearchFilters, runs: number): Promise<{ ms: number[]; total: number }>;
  timeRecent(runs: number): Promise<number[]>;
  /** Times the first search after a case changed (the kept list reads what changed). */
  timeAfterChange(runs: number): Promise<number[]>;
  /** Times the first search of a freshly opened database object (as at an app start; the
   * code already loaded). `forgetStoredList`: with no case list kept from the last start. */
  timeCold(runs: number, forgetStoredList: boolean): Promise<number[]>;
  /** Like timeCold, each time after one case was removed (a pull applying a delete). */
  timeColdAfterRemoval(runs: number): Promise<number[]>;
  /** Opens the database and times its first search (once per page load: the code cold too). */
  firstSearchOfPage(): Promise<number>;
  /** Waits (up to 10 s) until the case list kept for the next start is stored, where the
   * database keeps one, so a cold row measures what it says and not a store that was cut off. */
  settleKeptList(): Promise<void>;
}

declare global {
  interface Window {
    caseSearchBench: DeviceBenchApi;
  }
}

const ctx = { userId: BENCH_USER_ID, timeZone: DEFAULT_SERVICE_TIME_ZONE };
const db = openAppDatabase(BENCH_USER_ID);

const keepsList = (of: SyncDatabase) => of.tables.some((t) => t.name === 'caseLists');

/** Clears the list kept between starts, where the database has one (not before version 5). */
async function forgetList(of: SyncDatabase): Promise<void> {
  if (keepsList(of)) await of.table('caseLists').clear();
}

window.caseSearchBench = {
  async seed(n, newest, days) {
    const t0 = performance.now();
    await seedCases(db, n, newest, days);
    return performance.now() - t0;
  },
  async time(filters, runs) {
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
    const first = await db.store('cases').limit(1).first();
    const ms: number[] = [];
    for (let i = 0; i < runs; i++) {
      if (first) await db.store('cases').put({ ...first, patientName: `Changed ${String(i)}` });
      const t0 = performance.now();
      await searchLocalCases(db, { patientName: 'nkosi' }, ctx);
      ms.push(performance.now() - t0);
    }
    return ms;
  },
  async timeCold(runs, forgetStoredList) {
    const ms: number[] = [];
    for (let i = 0; i < runs; i++) {
      const fresh = openAppDatabase(BENCH_USER_ID);
      await fresh.open();
      if (forgetStoredList) await forgetList(fresh);
      const t0 = performance.now();
      await searchLocalCases(fresh, { patientName: 'nkosi' }, ctx);
      ms.push(performance.now() - t0);
      // Let a list stored after this search land before the next start.
      await new Promise((resolve) => setTimeout(resolve, 50));
      fresh.close();
    }
    return ms;
  },
  async timeColdAfterRemoval(runs) {
    const ms: number[] = [];
    for (let i = 0; i < runs; i++) {
      const gone = await db.store('cases').limit(1).primaryKeys();
      await db.store('cases').bulkDelete(gone);
      const fresh = openAppDatabase(BENCH_USER_ID);
      await fresh.open();
      const t0 = performance.now();
      await searchLocalCases(fresh, { patientName: 'nkosi' }, ctx);
      ms.push(performance.now() - t0);
      // The list is stored again after a removal: let that write end before the next start.
      await new Promise((resolve) => setTimeout(resolve, 100));
      if (keepsList(fresh)) await fresh.store('caseLists').count();
      fresh.close();
    }
    return ms;
  },
  async firstSearchOfPage() {
    await db.open();
    const t0 = performance.now();
    await searchLocalCases(db, { patientName: 'nkosi' }, ctx);
    return performance.now() - t0;
  },
  async settleKeptList() {
    await db.open();
    if (!keepsList(db)) return;
    await searchLocalCases(db, {}, ctx);
    // A store starts on a timer and holds the table's write lock: these reads wait for it.
    await new Promise((resolve) => setTimeout(resolve, 100));
    for (let i = 0; i < 200 && (await db.store('caseLists').count()) === 0; i++)
      await new Promise((resolve) => setTimeout(resolve, 50));
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
