// The local-save benchmark's page script (bundled by esbuild): the client engine's
// saveMutation over Chromium's real IndexedDB, in databases that differ only in whether the
// case-summaries middleware (sync-protocol/src/cases/device-summaries.ts) is installed, so
// one run measures both side by side under the same machine load.
import { caseSummaryMiddleware } from '@rescuelog/sync-protocol/cases/device-summaries';
import type { SyncDatabase } from '@rescuelog/sync-protocol/client/local-db';
import { saveMutation } from '@rescuelog/sync-protocol/client/outbox';
import { generateHumanId } from '@rescuelog/sync-protocol/platform/human-id';
import { openAppDatabase } from '@rescuelog/sync-protocol/records/device';

export type SaveVariant = 'summaries' | 'noSummaries';

export interface LocalSaveBenchApi {
  /** Opens one fresh database per variant. */
  open(variants: SaveVariant[]): Promise<void>;
  /** Times one case create (a new case with its number) in `variant`'s database, in ms. */
  timeCreate(variant: SaveVariant, i: number): Promise<number>;
  /** Times one edit of an existing case (the autosave of a field) in `variant`'s database. */
  timeEdit(variant: SaveVariant, i: number): Promise<number>;
}

const USER_ID = 1;
const dbs = new Map<SaveVariant, SyncDatabase>();
const created = new Map<SaveVariant, string[]>();

function need(variant: SaveVariant): SyncDatabase {
  const db = dbs.get(variant);
  if (!db) throw new Error(`open ${variant} first`);
  return db;
}

const api: LocalSaveBenchApi = {
  async open(variants) {
    for (const [n, variant] of variants.entries()) {
      const db = openAppDatabase(1000 + n);
      await db.delete();
      const fresh = openAppDatabase(1000 + n);
      if (variant === 'noSummaries')
        fresh.unuse({ stack: 'dbcore', name: caseSummaryMiddleware.name ?? '' });
      await fresh.open();
      dbs.set(variant, fresh);
      created.set(variant, []);
    }
  },
  async timeCreate(variant, i) {
    const db = need(variant);
    const id = crypto.randomUUID();
    const started = performance.now();
    await saveMutation(db, {
      name: 'case.upsert',
      args: {
        id,
        humanId: generateHumanId('C'),
        fields: { patientName: `Bench patient ${String(i)}`, incidentType: 'Fall' },
      },
      baseVersion: null,
      actorUserId: USER_ID,
    });
    const ms = performance.now() - started;
    created.get(variant)?.push(id);
    return ms;
  },
  async timeEdit(variant, i) {
    const db = need(variant);
    const ids = created.get(variant) ?? [];
    const id = ids[i % ids.length];
    if (id === undefined) throw new Error('create cases first');
    const started = performance.now();
    await saveMutation(db, {
      name: 'case.upsert',
      args: { id, fields: { incidentDescription: `Description ${String(i)}` } },
      baseVersion: null,
      actorUserId: USER_ID,
    });
    return performance.now() - started;
  },
};

(globalThis as unknown as { localSaveBench: LocalSaveBenchApi }).localSaveBench = api;
