// Page script of case-search-device-profile.ts: the cold search's steps one by one.
import {
  caseSearchMatcher,
  compareCasesNewestFirst,
  sortCasesNewestFirst,
} from '@rescuelog/sync-protocol/cases/search';
import { DEFAULT_SERVICE_TIME_ZONE } from '@rescuelog/sync-protocol/time';
import type { CaseSummary } from '@rescuelog/sync-protocol/cases/api';
import { searchLocalCases } from '@rescuelog/sync-protocol/cases/device-search';
import {
  CASE_LIST_ID,
  casesOfList,
  listedCase,
  storedCaseListSchema,
  storedCaseSummarySchema,
  SUMMARY_VERSION_ID,
  type StoredCaseSummary,
} from '@rescuelog/sync-protocol/cases/device-summaries';
import { BENCH_USER_ID, seedCases } from './case-search-device-seed';
import { openAppDatabase } from '@rescuelog/sync-protocol/records/device';

export interface ProfileApi {
  seed(n: number): Promise<void>;
  profile(runs: number): Promise<Record<string, number[]>>;
  /** The kept-list path's steps once, in a freshly loaded page (code cold too). */
  profileFreshPage(): Promise<Record<string, number>>;
}

const USER_ID = BENCH_USER_ID;
const db = openAppDatabase(USER_ID);
const COLUMNS = [
  'id',
  'caseId',
  'patientName',
  'incidentType',
  'status',
  'createdAt',
  'completedAt',
  'userId',
  'responderName',
  'responderCallSign',
] as const;

function columnar(rows: StoredCaseSummary[]): Record<string, unknown[]> {
  const out: Record<string, unknown[]> = {};
  for (const c of COLUMNS) out[c] = rows.map((r) => r[c] ?? null);
  return out;
}

/** A scratch database (plain IndexedDB) holding the same summaries in other layouts. */
function openScratch(): Promise<IDBDatabase> {
  return new Promise((resolve, reject) => {
    const r = indexedDB.open('profile-layouts', 1);
    r.onupgradeneeded = () => {
      for (const name of ['single', 'chunks', 'json'])
        r.result.createObjectStore(name, { keyPath: 'id' });
    };
    r.onsuccess = () => resolve(r.result);
    r.onerror = () => reject(r.error);
  });
}
function request<T>(r: IDBRequest<T>): Promise<T> {
  return new Promise((resolve, reject) => {
    r.onsuccess = () => resolve(r.result);
    r.onerror = () => reject(r.error);
  });
}
async function put(store: string, value: unknown): Promise<void> {
  const s = await openScratch();
  await request(s.transaction(store, 'readwrite').objectStore(store).put(value));
  s.close();
}

window.caseSearchProfile = {
  async seed(n) {
    await seedCases(db, n);
    const rows = (await db.store('caseSummaries').toArray())
      .filter((r) => r.id !== SUMMARY_VERSION_ID)
      .map((r) => storedCaseSummarySchema.parse(r));
    await put('single', { id: 'all', ...columnar(rows) });
    const size = 500;
    for (let i = 0; i < rows.length; i += size)
      await put('chunks', { id: i, ...columnar(rows.slice(i, i + size)) });
    await put('json', { id: 'all', text: JSON.stringify(columnar(rows)) });
    // A first search reads every summary and stores the list for the next start.
    await searchLocalCases(db, {}, { userId: USER_ID, timeZone: DEFAULT_SERVICE_TIME_ZONE });
    for (let i = 0; i < 100 && !(await db.store('caseLists').get(CASE_LIST_ID)); i++)
      await new Promise((resolve) => setTimeout(resolve, 50));
  },
  async profileFreshPage() {
    const out: Record<string, number> = {};
    const ctx = { userId: USER_ID, timeZone: DEFAULT_SERVICE_TIME_ZONE };
    await db.open();
    let t = performance.now();
    const step = (k: string) => {
      const now = performance.now();
      out[k] = now - t;
      t = now;
    };
    await db.transaction(
      'r',
      [db.store('cases'), db.store('caseSummaries'), db.store('caseLists')],
      async () => {
        await Promise.all([
          db.store('cases').count(),
          db.store('caseSummaries').count(),
          db.store('caseSummaries').get(SUMMARY_VERSION_ID),
        ]);
        step('F1 counts + version row (first transaction)');
        const stored = await db.store('caseLists').get(CASE_LIST_ID);
        step('F2 read the kept list (one row)');
        const list = storedCaseListSchema.parse(stored);
        step('F3 zod parse of the kept list');
        const kept = casesOfList(list);
        step('F4 its cases as objects');
        for (let k = 1; k < kept.length; k++)
          if (compareCasesNewestFirst(kept[k - 1] as CaseSummary, kept[k] as CaseSummary) > 0)
            throw new Error('out of order');
        step('F5 check the order');
        const ids = new Set(list.ids);
        void ids.size;
        step('F6 id set');
        await db.store('caseSummaries').where('stamp').above(list.version).toArray();
        step('F7 summaries stamped since');
        kept.filter(caseSearchMatcher({ patientName: 'nkosi' }, ctx));
        step('F8 match');
      },
    );
    step('F9 transaction done');
    return out;
  },
  async profile(runs) {
    const out: Record<string, number[]> = {};
    const add = (k: string, ms: number) => (out[k] ??= []).push(ms);
    const ctx = { userId: USER_ID, timeZone: DEFAULT_SERVICE_TIME_ZONE };
    for (let i = 0; i < runs; i++) {
      {
        const fresh = openAppDatabase(USER_ID);
        await fresh.open();
        const t0 = performance.now();
        await searchLocalCases(fresh, { patientName: 'nkosi' }, ctx);
        add('whole searchLocalCases (cold)', performance.now() - t0);
        await new Promise((resolve) => setTimeout(resolve, 50));
        fresh.close();
      }
      const fresh = openAppDatabase(USER_ID);
      await fresh.open();
      let t = performance.now();
      const step = (k: string) => {
        const now = performance.now();
        add(k, now - t);
        t = now;
      };
      await fresh.transaction(
        'r',
        [fresh.store('cases'), fresh.store('caseSummaries')],
        async () => {
          await Promise.all([
            fresh.store('cases').count(),
            fresh.store('caseSummaries').count(),
            fresh.store('caseSummaries').get(SUMMARY_VERSION_ID),
          ]);
        },
      );
      step('1 counts + version row');
      const raw = await fresh.store('caseSummaries').toArray();
      step('2 read every summary row (Dexie toArray)');
      const parsed: StoredCaseSummary[] = [];
      for (const r of raw)
        if (r.id !== SUMMARY_VERSION_ID) parsed.push(storedCaseSummarySchema.parse(r));
      step('3 zod parse each row');
      const cases: CaseSummary[] = [];
      for (const r of parsed) {
        const l = listedCase(r);
        if (l) cases.push(l);
      }
      const byId = new Map(parsed.map((r) => [r.id, r]));
      step('4 listed + byId map');
      const sorted = sortCasesNewestFirst(cases);
      step('5 sort newest first');
      sorted.filter(caseSearchMatcher({ patientName: 'nkosi' }, ctx));
      step('6 match');
      // The list kept from the last start (database version 5), step by step.
      t = performance.now();
      const stored = await fresh.store('caseLists').get(CASE_LIST_ID);
      step('S1 read the kept list (one row)');
      const list = storedCaseListSchema.parse(stored);
      step('S2 zod parse of the kept list');
      const kept = casesOfList(list);
      step('S3 its cases as objects');
      for (let k = 1; k < kept.length; k++)
        if (compareCasesNewestFirst(kept[k - 1] as CaseSummary, kept[k] as CaseSummary) > 0)
          throw new Error('out of order');
      step('S4 check the order');
      const ids = new Set(list.ids);
      const others = new Map<string, boolean>();
      for (const id of list.unlisted) others.set(id, false);
      for (const id of list.unreadable) others.set(id, true);
      void ids.size;
      step('S5 id set and others');
      await fresh.store('caseSummaries').where('stamp').above(list.version).toArray();
      step('S6 summaries stamped since');
      kept.filter(caseSearchMatcher({ patientName: 'nkosi' }, ctx));
      step('S7 match');
      fresh.close();
      void byId;
      // Native IndexedDB getAll, without Dexie.
      const native = await new Promise<IDBDatabase>((resolve, reject) => {
        const r = indexedDB.open(fresh.name);
        r.onsuccess = () => resolve(r.result);
        r.onerror = () => reject(r.error);
      });
      t = performance.now();
      await new Promise((resolve) => {
        const r = native.transaction('caseSummaries').objectStore('caseSummaries').getAll();
        r.onsuccess = () => resolve(r.result);
      });
      step('7 native getAll of the summaries');
      native.close();
      const s = await openScratch();
      t = performance.now();
      await request(s.transaction('single').objectStore('single').get('all'));
      step('8 alt: one columnar row of every summary');
      await request(s.transaction('chunks').objectStore('chunks').getAll());
      step('9 alt: columnar chunks of 500');
      const j = (await request(s.transaction('json').objectStore('json').get('all'))) as {
        text: string;
      };
      step('10a alt: one JSON string row (read)');
      JSON.parse(j.text);
      step('10b alt: JSON.parse of it');
      s.close();
    }
    return out;
  },
};
