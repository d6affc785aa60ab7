// Records as the device keeps them: the server's record (from a pull) with pending local
// changes applied on top, or, for a record the server has not seen yet, whatever the local
// mutations have set so far. So a local row is a *partial* record: parse it with the
// registry's local schema before use (IndexedDB is a boundary).
import type { z } from 'zod';
import '../zod-config';
import type { Row } from '../platform/mutator';
import type { SyncDatabase } from './local-db';

/** A local record of type R: every field optional but the id. */
export type LocalRecord<R> = Partial<R> & { id: string };

/** A local row parsed, or undefined when absent. */
export async function readLocalRecord<R extends Row>(
  db: SyncDatabase,
  kind: string,
  id: string,
): Promise<LocalRecord<R> | undefined> {
  const raw = await db.records(kind).get(id);
  if (raw === undefined) return undefined;
  return db.registry.localSchema(kind).parse(raw) as LocalRecord<R>;
}

/** Parses rows read in bulk; a row that no longer parses (a bug or a foreign write) is
 * reported through onInvalid instead of crashing a whole screen. */
export function parseLocalRecords<R extends Row>(
  db: Pick<SyncDatabase, 'registry'>,
  kind: string,
  rows: readonly unknown[],
  onInvalid?: (error: z.ZodError, row: unknown) => void,
): LocalRecord<R>[] {
  const schema = db.registry.localSchema(kind);
  const out: LocalRecord<R>[] = [];
  for (const row of rows) {
    const parsed = schema.safeParse(row);
    if (parsed.success) out.push(parsed.data as LocalRecord<R>);
    else onInvalid?.(parsed.error, row);
  }
  return out;
}
