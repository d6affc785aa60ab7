// The per-user IndexedDB database of the offline client, shared by the web app and the
// service worker: both open it through this class so they agree on the name and on every
// `version(n).stores()` step. The outbox is the source of truth for unsynced changes.
//
// The engine's own stores (outbox, rejections, syncState, serverCopies) are declared here;
// the record stores come from the registry (one per kind, its indexes from its definition)
// and the app's device schema (DeviceSchema: earlier versions, derived stores and their
// middleware). Rows come back from IndexedDB as whatever was stored (possibly by an older
// build), so every reader parses them with a zod schema (outbox.ts, local-records.ts).
import { Dexie, type DBCore, type Middleware, type Table, type Transaction } from 'dexie';
import type { Registry } from '../platform/registry';

/** A stored record row: always keyed by the record's id; the rest is parsed on read. */
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
export interface StoredSyncStateRow {
  key: string;
  [field: string]: unknown;
}

/** One shipped `version(n)` step of the app's stores (never edited once shipped). */
export interface DeviceVersion {
  version: number;
  stores: Record<string, string | null>;
  upgrade?: (tx: Transaction) => Promise<void>;
}

/**
 * What the app adds to the engine's database: its registry, the versions it shipped before
 * the registry (their steps stay, an installed app upgrades through them), derived stores
 * and the middleware that keeps them.
 */
export interface DeviceSchema {
  registry: Registry;
  /** The version the registry's stores are declared at; raise it when a kind or index changes. */
  version: number;
  history: readonly DeviceVersion[];
  middleware?: readonly Middleware<DBCore>[];
}

/** Engine stores in the steps they were introduced. */
const ENGINE_VERSIONS: readonly DeviceVersion[] = [
  {
    version: 1,
    stores: {
      outbox: 'seq, &mutationId, *entityIds',
      rejections: 'mutationId, seq',
      syncState: 'key',
    },
  },
  // v2: server copies. Rows pulled before the upgrade have none, so the pull cursor is
  // reset: the next pull fetches every record again and fills them in.
  {
    version: 2,
    stores: { serverCopies: 'id' },
    upgrade: async (tx) => {
      await tx.table('syncState').delete('pull');
    },
  },
];

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

/**
 * Whether the user's database exists, found without creating it (opening it as a SyncDatabase
 * would: an end of session or the worker must never bring a deleted database back, empty).
 * Dexie opens a database it has no schema for as it is, and deletes it again at once when the
 * open had to create it (NoSuchDatabaseError).
 */
export async function syncDatabaseExists(
  userId: number,
  deps?: IndexedDbDependencies,
): Promise<boolean> {
  const probe = new Dexie(syncDatabaseName(userId), {
    addons: [],
    ...(deps as ConstructorParameters<typeof Dexie>[1]),
  });
  try {
    await probe.open();
    return true;
  } catch (error) {
    if (error instanceof Dexie.NoSuchDatabaseError) return false;
    throw error;
  } finally {
    probe.close();
  }
}

export class SyncDatabase extends Dexie {
  readonly userId: number;
  readonly registry: Registry;
  /** Keyed by seq, so reading in key order is reading in seq order. */
  outbox!: Table<StoredOutboxRow, number>;
  rejections!: Table<StoredRejectionRow, string>;
  syncState!: Table<StoredSyncStateRow, string>;
  /** The server's state of every pulled record, to rebuild a local row after a rejection
   * (see server-copies.ts and docs/decisions/004). */
  serverCopies!: Table<StoredServerCopyRow, string>;

  constructor(userId: number, schema: DeviceSchema, deps?: IndexedDbDependencies) {
    super(
      syncDatabaseName(userId),
      deps ? (deps as ConstructorParameters<typeof Dexie>[1]) : undefined,
    );
    this.userId = userId;
    this.registry = schema.registry;
    const steps = new Map<number, DeviceVersion>();
    for (const step of [...ENGINE_VERSIONS, ...schema.history]) {
      const prior = steps.get(step.version);
      const upgrades = [prior?.upgrade, step.upgrade].filter((u) => u !== undefined);
      steps.set(step.version, {
        version: step.version,
        stores: { ...prior?.stores, ...step.stores },
        ...(upgrades.length > 0
          ? {
              upgrade: async (tx: Transaction) => {
                for (const upgrade of upgrades) await upgrade(tx);
              },
            }
          : {}),
      });
    }
    // The registry's stores at the schema's current version: every kind, its indexes.
    const current = Object.fromEntries(
      schema.registry.definitions.map((d) => [
        d.table,
        `id, ${d.device.indexes}`.replace(/, $/, ''),
      ]),
    );
    steps.set(schema.version, {
      version: schema.version,
      stores: { ...steps.get(schema.version)?.stores, ...current },
    });
    for (const step of [...steps.values()].sort((a, b) => a.version - b.version)) {
      const version = this.version(step.version).stores(step.stores);
      if (step.upgrade) version.upgrade(step.upgrade);
    }
    for (const middleware of schema.middleware ?? []) this.use(middleware);
    // Another connection deletes this database (the user's session ended, decision 023):
    // close for good. Dexie's own handler closes and reopens on the next query, so a drain or
    // a screen still holding this instance would create the deleted database again, empty.
    this.on('versionchange', (event) => {
      if (event.newVersion) return undefined;
      this.close({ disableAutoOpen: true });
      return false;
    });
  }

  /** A store by name: a record kind's table (registry) or a derived store. */
  store(name: string): Table<StoredRecord, string> {
    return this.table(name) as Table<StoredRecord, string>;
  }

  /** The store of a record kind. */
  records(kind: string): Table<StoredRecord, string> {
    return this.store(this.registry.get(kind).table);
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
      ...this.registry.definitions.map((d) => this.table(d.table)),
      this.outbox,
      this.syncState,
      this.serverCopies,
    ] as Table[];
  }
}
