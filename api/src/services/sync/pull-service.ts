// POST /api/sync/pull: the changes (tombstones included) after a cursor, in version order,
// read from one REPEATABLE READ snapshot. Versions come from one global sequence and every
// sync write holds the sync write lock until it commits (sync-tables.ts), so the snapshot
// always holds every version up to its highest one and the returned cursor never skips a
// change. Only what the user may see is returned (sync-access.ts).
import type { ExpressionBuilder, Kysely } from 'kysely';
import type { Database, DbExecutor } from '@rescuelog/db/schema';
import type { SyncEntity } from '@rescuelog/sync-protocol/sync/entities';
import type { PullResponse, SyncChange } from '@rescuelog/sync-protocol/sync/push-pull';
import { hasPermission } from '@rescuelog/sync-protocol/permissions';
import { canSeeAll, type Actor } from './sync-access';
import { ENTITY_TABLE, dynamic, toWireRecord, type Row } from './sync-tables';

type DynamicBuilder = ExpressionBuilder<Record<string, Row>, string>;
type Visibility = ((eb: DynamicBuilder) => ReturnType<DynamicBuilder['or']>) | 'all';

function ownedParent(eb: DynamicBuilder, column: string, parentTable: string, actor: Actor) {
  return eb(column, 'in', eb.selectFrom(parentTable).select('id').where('userId', '=', actor.id));
}

function visibility(actor: Actor, entity: SyncEntity): Visibility {
  const own = (eb: DynamicBuilder) => eb('userId', '=', actor.id);
  switch (entity) {
    case 'case':
      return canSeeAll(actor, 'case') ? 'all' : (eb) => eb.or([own(eb)]);
    case 'vitalSign':
    case 'caseAddendum':
      return canSeeAll(actor, 'case')
        ? 'all'
        : (eb) => eb.or([own(eb), ownedParent(eb, 'caseId', 'cases', actor)]);
    case 'cprSession':
      return canSeeAll(actor, 'cprSession') ? 'all' : (eb) => eb.or([own(eb)]);
    case 'cprEvent':
      return canSeeAll(actor, 'cprSession')
        ? 'all'
        : (eb) => eb.or([own(eb), ownedParent(eb, 'cprSessionId', 'cprSessions', actor)]);
    case 'incidentReport':
      return canSeeAll(actor, 'incidentReport') ? 'all' : (eb) => eb.or([own(eb)]);
    case 'mciIncident':
    case 'mciCasualty': {
      // Whoever may triage must see the incidents to add casualties to them.
      if (canSeeAll(actor, 'mciIncident') || hasPermission(actor, 'multiPatient', 'create'))
        return 'all';
      return entity === 'mciIncident'
        ? (eb) => eb.or([own(eb)])
        : (eb) => eb.or([own(eb), ownedParent(eb, 'mciIncidentId', 'mciIncidents', actor)]);
    }
  }
}

const ENTITIES = Object.keys(ENTITY_TABLE) as SyncEntity[];

function toChange(entity: SyncEntity, row: Row): SyncChange {
  return {
    entity,
    id: String(row.id),
    version: String(row.version),
    deleted: row.deletedAt !== null,
    data: row.deletedAt !== null ? null : toWireRecord(row),
  } as SyncChange;
}

/**
 * The current rows with these ids that the actor may see (the pull rule), as pull changes.
 * A push answers with them for its rejected and duplicate mutations (push-pull.ts `records`).
 */
export async function readVisibleRecords(
  tx: DbExecutor,
  actor: Actor,
  ids: readonly string[],
): Promise<SyncChange[]> {
  if (ids.length === 0) return [];
  const d = dynamic(tx);
  const out: SyncChange[] = [];
  for (const entity of ENTITIES) {
    const visible = visibility(actor, entity);
    let query = d
      .selectFrom(ENTITY_TABLE[entity])
      .selectAll()
      .where('id', 'in', [...ids]);
    if (visible !== 'all') query = query.where(visible);
    for (const row of await query.execute()) out.push(toChange(entity, row));
  }
  return out;
}

export async function pullChanges(
  db: Kysely<Database>,
  actor: Actor,
  request: { cursor: string | null; limit: number },
): Promise<PullResponse> {
  const after = BigInt(request.cursor ?? '0');
  return db
    .transaction()
    .setIsolationLevel('repeatable read')
    .setAccessMode('read only')
    .execute(async (tx) => {
      const d = dynamic(tx);
      const found: { entity: SyncEntity; row: Row; version: bigint }[] = [];
      for (const entity of ENTITIES) {
        const visible = visibility(actor, entity);
        let query = d
          .selectFrom(ENTITY_TABLE[entity])
          .selectAll()
          .where('version', '>', after.toString())
          .orderBy('version')
          .limit(request.limit + 1);
        if (visible !== 'all') query = query.where(visible);
        for (const row of await query.execute())
          found.push({ entity, row, version: BigInt(String(row.version)) });
      }
      found.sort((a, b) => (a.version < b.version ? -1 : a.version > b.version ? 1 : 0));
      const page = found.slice(0, request.limit);
      const hasMore = found.length > request.limit;
      const lastVersion = page.at(-1)?.version ?? after;
      const changes = page.map(({ entity, row }) => toChange(entity, row));
      return { cursor: (lastVersion > after ? lastVersion : after).toString(), hasMore, changes };
    });
}
