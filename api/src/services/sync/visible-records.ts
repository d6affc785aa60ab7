// The records a user may see, by the pull rule: which rows of each kind (their own, those
// under a parent they own, all with the family's see-all right, conflicts of kinds they
// moderate), as a query. The pull pages over them; a push answers its rejected and
// duplicate mutations with the current ones (push-pull.ts `records`).
import { sql, type ExpressionBuilder } from 'kysely';
import type { DbExecutor } from '@rescuelog/db/schema';
import { canSeeAll, type Actor } from '@rescuelog/sync-protocol/platform/access';
import type { SyncChange } from '@rescuelog/sync-protocol/platform/push-pull';
import type { RecordDefinition } from '@rescuelog/sync-protocol/platform/record';
import type { Registry } from '@rescuelog/sync-protocol/platform/registry';
import { dynamic, type Row } from './sync-tables';
import { changeRows, type WireShape } from './wire-sql';

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

/** The rows of a kind the actor may see, as a query of the whole row. */
export function visibleRows(
  tx: DbExecutor,
  registry: Registry,
  actor: Actor,
  def: RecordDefinition,
  where: (eb: DynamicBuilder) => ReturnType<DynamicBuilder['and']>,
) {
  const visible = visibility(registry, actor, def);
  let query = dynamic(tx).selectFrom(def.table).selectAll().where(where);
  if (visible !== 'all') query = query.where(visible);
  return query;
}

export function shapeOf(shapes: Map<string, WireShape>, def: RecordDefinition): WireShape {
  const shape = shapes.get(def.kind);
  if (!shape) throw new Error(`No wire shape for ${def.kind}`);
  return shape;
}

/** Only kinds a device writes (a mutation names their records): the others (conflicts) have
 * server-made ids of another type. */
function answerKinds(registry: Registry): RecordDefinition[] {
  return registry.definitions.filter((k) => k.mutators.length > 0);
}

/**
 * The current rows with these ids that the actor may see (the pull rule), as pull changes.
 * A push answers with them for its rejected and duplicate mutations (push-pull.ts `records`).
 */
export async function readVisibleRecords(
  tx: DbExecutor,
  shapes: Map<string, WireShape>,
  registry: Registry,
  actor: Actor,
  ids: readonly string[],
): Promise<SyncChange[]> {
  if (ids.length === 0) return [];
  const branches = answerKinds(registry).map((def) =>
    changeRows(
      shapeOf(shapes, def),
      visibleRows(tx, registry, actor, def, (eb) => eb.and([eb('id', 'in', [...ids])])),
    ),
  );
  const { rows } = await sql<{ change: string }>`select change::text as change
    from (${sql.join(branches, sql` union all `)}) c order by version`.execute(tx);
  return rows.map((row) => JSON.parse(row.change) as SyncChange);
}
