// Domain rows as the device keeps them: the server's record (from a pull) with pending local
// changes applied on top, or, for a record the server has not seen yet, whatever the local
// mutations have set so far. So a local row is a *partial* record: parse it with
// LOCAL_RECORD_SCHEMAS before use (IndexedDB is a boundary).
import type { z } from 'zod';
import '../zod-config';
import { SYNC_RECORD_SCHEMAS, type SyncEntity, type SyncRecordMap } from '../sync/entities';
import { uuidSchema } from '../sync/values';
import type { DomainTable, SyncDatabase } from './local-db';

export const ENTITY_TABLE: Record<SyncEntity, DomainTable> = {
  case: 'cases',
  vitalSign: 'vitalSigns',
  cprSession: 'cprSessions',
  cprEvent: 'cprEvents',
  incidentReport: 'incidentReports',
  mciIncident: 'mciIncidents',
  mciCasualty: 'mciCasualties',
  caseAddendum: 'caseAddenda',
};

function localSchema<E extends SyncEntity>(entity: E) {
  // Every field optional except the id: a record created on this device has no server
  // columns (version, updatedAt) until a pull brings them.
  return SYNC_RECORD_SCHEMAS[entity].partial().extend({ id: uuidSchema });
}

export const LOCAL_RECORD_SCHEMAS = {
  case: localSchema('case'),
  vitalSign: localSchema('vitalSign'),
  cprSession: localSchema('cprSession'),
  cprEvent: localSchema('cprEvent'),
  incidentReport: localSchema('incidentReport'),
  mciIncident: localSchema('mciIncident'),
  mciCasualty: localSchema('mciCasualty'),
  caseAddendum: localSchema('caseAddendum'),
} as const;

export type LocalRecord<E extends SyncEntity> = Partial<SyncRecordMap[E]> & { id: string };

/** A local row parsed, or undefined when absent. */
export async function readLocalRecord<E extends SyncEntity>(
  db: SyncDatabase,
  entity: E,
  id: string,
): Promise<LocalRecord<E> | undefined> {
  const raw = await db.domainTable(ENTITY_TABLE[entity]).get(id);
  if (raw === undefined) return undefined;
  return LOCAL_RECORD_SCHEMAS[entity].parse(raw) as LocalRecord<E>;
}

/** Parses rows read in bulk; a row that no longer parses (a bug or a foreign write) is
 * reported through onInvalid instead of crashing a whole screen. */
export function parseLocalRecords<E extends SyncEntity>(
  entity: E,
  rows: readonly unknown[],
  onInvalid?: (error: z.ZodError, row: unknown) => void,
): LocalRecord<E>[] {
  const out: LocalRecord<E>[] = [];
  for (const row of rows) {
    const parsed = LOCAL_RECORD_SCHEMAS[entity].safeParse(row);
    if (parsed.success) out.push(parsed.data as LocalRecord<E>);
    else onInvalid?.(parsed.error, row);
  }
  return out;
}
