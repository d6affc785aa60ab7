// The per-user IndexedDB database of the offline client, shared by the web app and the
// service worker: both open it through this class so they agree on the name and on every
// `version(n).stores()` step. The outbox is the source of truth for unsynced changes.
//
// Rows come back from IndexedDB as whatever was stored (possibly by an older build), so the
// tables are typed `unknown`-ish here and every reader parses them with a zod schema
// (outbox.ts, local-records.ts).
import { Dexie, type Table } from 'dexie';
import {
  CASE_LIST_TABLE,
  CASE_SUMMARY_TABLE,
  SUMMARY_VERSION_ID,
  caseSummaryMiddleware,
  caseSummaryRow,
} from './case-summaries';

/** The synced domain tables, named like the server's tables (camelCase). */
export const DOMAIN_TABLES = [
  'cases',
  'vitalSigns',
  'cprSessions',
  'cprEvents',
  'incidentReports',
  'mciIncidents',
  'mciCasualties',
  'caseAddenda',
] as const;
export type DomainTable = (typeof DOMAIN_TABLES)[number];

/** A stored domain row: always keyed by the record's uuid; the rest is parsed on read. */
export interface StoredRecord {
  id: string;
  [field: string]: unknown;
}

/** What Dexie hands back before parsing. Keys are typed so queries can be written. */
export interface StoredOutboxRow {
  seq: number;
  mutationId: string;
  entityIds: string[];
  [field: string]: unknown;
}
export interface StoredRejectionRow {
  mutationId: string;
  seq: number;
  [field: string]: unknown;
}
/** The last copy of a record the server sent in a pull (data null: a tombstone). */
export interface StoredServerCopyRow {
  id: string;
  [field: string]: unknown;
}
export interface StoredCaseSummaryRow {
  id: string;
  [field: string]: unknown;
}
export interface StoredCaseListRow {
  id: string;
  [field: string]: unknown;
}
export interface StoredSyncStateRow {
  key: string;
  [field: string]: unknown;
}

export const DB_NAME_PREFIX = 'rescuelog-user-';

/** One database per signed-in user: another user on the same device never sees it. */
export function syncDatabaseName(userId: number): string {
  return `${DB_NAME_PREFIX}${String(userId)}`;
}

/** Injected in tests (fake-indexeddb) and anywhere the global indexedDB is not the one. */
export interface IndexedDbDependencies {
  indexedDB: unknown;
  IDBKeyRange: unknown;
}

export class SyncDatabase extends Dexie {
  readonly userId: number;
  cases!: Table<StoredRecord, string>;
  vitalSigns!: Table<StoredRecord, string>;
  cprSessions!: Table<StoredRecord, string>;
  cprEvents!: Table<StoredRecord, string>;
  incidentReports!: Table<StoredRecord, string>;
  mciIncidents!: Table<StoredRecord, string>;
  mciCasualties!: Table<StoredRecord, string>;
  caseAddenda!: Table<StoredRecord, string>;
  /** Keyed by seq, so reading in key order is reading in seq order. */
  outbox!: Table<StoredOutboxRow, number>;
  rejections!: Table<StoredRejectionRow, string>;
  syncState!: Table<StoredSyncStateRow, string>;
  /** The server's state of every pulled record, to rebuild a local row after a rejection
   * (see server-copies.ts and docs/decisions/004). */
  serverCopies!: Table<StoredServerCopyRow, string>;
  /** Derived, never synced: the list fields of every case (case-summaries.ts). */
  caseSummaries!: Table<StoredCaseSummaryRow, string>;
  /** Derived, never synced: the whole case list as last read, for the next app start
   * (one row; case-summaries.ts). */
  caseLists!: Table<StoredCaseListRow, string>;

  constructor(userId: number, deps?: IndexedDbDependencies) {
    super(
      syncDatabaseName(userId),
      deps ? (deps as ConstructorParameters<typeof Dexie>[1]) : undefined,
    );
    this.userId = userId;
    // Append new versions below; never edit a shipped one (an installed app upgrades in place).
    this.version(1).stores({
      cases: 'id, caseId, userId, status',
      vitalSigns: 'id, caseId',
      cprSessions: 'id, sessionId, caseId',
      cprEvents: 'id, cprSessionId',
      incidentReports: 'id, incidentId, userId',
      mciIncidents: 'id, incidentId',
      mciCasualties: 'id, mciIncidentId, caseId',
      caseAddenda: 'id, caseId',
      outbox: 'seq, &mutationId, *entityIds',
      rejections: 'mutationId, seq',
      syncState: 'key',
    });
    // v2: server copies. Rows pulled before the upgrade have none, so the pull cursor is
    // reset: the next pull fetches every record again and fills them in.
    this.version(2)
      .stores({ serverCopies: 'id' })
      .upgrade(async (tx) => {
        await tx.table('syncState').delete('pull');
      });
    // v3: cases indexed by createdAt, for case search by date and the newest cases first
    // (client/case-search.ts). Index only; no data changes.
    this.version(3).stores({ cases: 'id, caseId, userId, status, createdAt' });
    // v4: reading whole case rows was too slow for search (5,000 rows: hundreds of ms), so a
    // compact list copy of every case (case-summaries.ts), kept by a middleware, indexed by
    // createdAt and by when it was written; the cases' own createdAt index of v3 goes.
    this.version(4)
      .stores({ cases: 'id, caseId, userId, status', caseSummaries: 'id, createdAt, stamp' })
      .upgrade(async (tx) => {
        const rows = await tx.table('cases').toArray();
        await tx
          .table(CASE_SUMMARY_TABLE)
          .bulkPut([
            ...rows.map((row) => caseSummaryRow(row, 1)),
            { id: SUMMARY_VERSION_ID, stamp: 1 },
          ]);
      });
    // v5: the first search after opening the app read all 5,000 summaries (p95 ~400 ms), so
    // readers keep the whole list in one row between starts (case-summaries.ts). New table
    // only; it fills on the first read.
    this.version(5).stores({ [CASE_LIST_TABLE]: 'id' });
    this.use(caseSummaryMiddleware);
  }

  domainTable(name: DomainTable): Table<StoredRecord, string> {
    return this[name];
  }

  /**
   * Every table a local save may touch, for `transaction('rw', …)`.
   * Rule for every transaction here: the scope function is declared `async` and awaits only
   * Dexie operations (or async helpers that do). A plain arrow forwarding to an async helper
   * loses Dexie's transaction zone in real browsers (PrematureCommitError under load;
   * fake-indexeddb does not show it) — the chaos e2e spec caught exactly that.
   */
  get writeTables(): Table[] {
    return [
      ...DOMAIN_TABLES.map((t) => this.domainTable(t)),
      this.outbox,
      this.syncState,
      this.serverCopies,
    ] as Table[];
  }
}

export function openSyncDatabase(userId: number, deps?: IndexedDbDependencies): SyncDatabase {
  return new SyncDatabase(userId, deps);
}
