// POST /api/sync/pull: the changes (tombstones included) after a cursor, in version order,
// read from one REPEATABLE READ snapshot. Versions come from one global sequence and every
// sync write holds the sync write lock until it commits (sync-tables.ts), so the snapshot
// always holds every version up to its highest one and the returned cursor never skips a
// change. Only what the user may see is returned: every kind by its definition (registry).
import type { ExpressionBuilder, Kysely } from 'kysely';
import type { Database, DbExecutor } from '@rescuelog/db/schema';
import { canSeeAll, type Actor } from '@rescuelog/sync-protocol/platform/access';
import type { PullResponse, SyncChange } from '@rescuelog/sync-protocol/platform/push-pull';
import type { RecordDefinition } from '@rescuelog/sync-protocol/platform/record';
import type { Registry } from '@rescuelog/sync-protocol/platform/registry';
import { SCHEMA_VERSION } from '@rescuelog/sync-protocol/platform/versions';
import { dynamic, toWireRecord, type Row } from './sync-tables';

type DynamicBuilder = ExpressionBuilder<Record<string, Row>, string>;
type Visibility = ((eb: DynamicBuilder) => ReturnType<DynamicBuilder['or']>) | 'all';

/** Which rows of a kind the actor sees: all, or their own and those under a parent they own. */
function visibility(registry: Registry, actor: Actor, def: RecordDefinition): Visibility {
  const access = registry.family(def.kind);
  if (access && canSeeAll(actor, access)) return 'all';
  const owners = registry.ownerColumns(def.kind);
  return (eb) => {
    const terms = owners.map((column) => eb(column, '=', actor.id));
    if (def.parent) {
      const parent = registry.get(def.parent.kind);
      terms.push(
        eb(
          def.parent.column,
          'in',
          eb
            .selectFrom(parent.table)
            .select('id')
            .where(registry.ownerColumns(parent.kind)[0] ?? 'userId', '=', actor.id),
        ),
      );
    }
    if (def.moderatedByKindColumn) {
      const moderated = registry.moderatedKinds(actor);
      if (moderated.length > 0) terms.push(eb(def.moderatedByKindColumn, 'in', moderated));
    }
    return eb.or(terms);
  };
}

function toChange(def: RecordDefinition, row: Row): SyncChange {
  return {
    entity: def.kind,
    id: String(row.id),
    version: String(row.version),
    deleted: row.deletedAt !== null,
    data: row.deletedAt !== null ? null : toWireRecord(def, row),
  };
}

/**
 * The current rows with these ids that the actor may see (the pull rule), as pull changes.
 * A push answers with them for its rejected and duplicate mutations (push-pull.ts `records`).
 */
export async function readVisibleRecords(
  tx: DbExecutor,
  registry: Registry,
  actor: Actor,
  ids: readonly string[],
): Promise<SyncChange[]> {
  if (ids.length === 0) return [];
  const d = dynamic(tx);
  const out: SyncChange[] = [];
  // Only kinds a device writes (a mutation names their records): the others (conflicts) have
  // server-made ids of another type.
  for (const def of registry.definitions.filter((k) => k.mutators.length > 0)) {
    const visible = visibility(registry, actor, def);
    let query = d
      .selectFrom(def.table)
      .selectAll()
      .where('id', 'in', [...ids]);
    if (visible !== 'all') query = query.where(visible);
    for (const row of await query.execute()) out.push(toChange(def, row));
  }
  return out;
}

export async function pullChanges(
  db: Kysely<Database>,
  registry: Registry,
  actor: Actor,
  request: { cursor: string | null; limit: number; schemaVersion?: number },
): Promise<PullResponse> {
  const after = BigInt(request.cursor ?? '0');
  const kinds = registry.kindsFor(request.schemaVersion ?? SCHEMA_VERSION);
  return db
    .transaction()
    .setIsolationLevel('repeatable read')
    .setAccessMode('read only')
    .execute(async (tx) => {
      const d = dynamic(tx);
      const found: { def: RecordDefinition; row: Row; version: bigint }[] = [];
      for (const def of kinds) {
        const visible = visibility(registry, actor, def);
        let query = d
          .selectFrom(def.table)
          .selectAll()
          .where('version', '>', after.toString())
          .orderBy('version')
          .limit(request.limit + 1);
        if (visible !== 'all') query = query.where(visible);
        for (const row of await query.execute())
          found.push({ def, row, version: BigInt(String(row.version)) });
      }
      found.sort((a, b) => (a.version < b.version ? -1 : a.version > b.version ? 1 : 0));
      const page = found.slice(0, request.limit);
      const hasMore = found.length > request.limit;
      const lastVersion = page.at(-1)?.version ?? after;
      const changes = page.map(({ def, row }) => toChange(def, row));
      return { cursor: (lastVersion > after ? lastVersion : after).toString(), hasMore, changes };
    });
}
