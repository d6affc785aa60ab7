// POST /api/sync/pull: the changes (tombstones included) after a cursor, in version order,
// read from one REPEATABLE READ snapshot. Versions come from one global sequence and sync
// writes commit concurrently, out of version order; a page holds only versions below the safe
// horizon read just before its snapshot (sync-tables.ts syncHorizon, decision 033), under
// which the snapshot holds every version there will ever be, so the returned cursor never
// skips a change. Only what the user may see is returned: every kind by its definition.
// The page is one statement whose answer is the page's JSON (wire-sql.ts): the server
// passes it on without parsing it (issue 12: most of a pull's time was wide rows becoming
// JavaScript values and JSON again).
import { sql, type ExpressionBuilder, type Kysely } from 'kysely';
import type { Database, DbExecutor } from '@rescuelog/db/schema';
import { canSeeAll, type Actor } from '@rescuelog/sync-protocol/platform/access';
import type { SyncChange } from '@rescuelog/sync-protocol/platform/push-pull';
import type { RecordDefinition } from '@rescuelog/sync-protocol/platform/record';
import type { Registry } from '@rescuelog/sync-protocol/platform/registry';
import { SCHEMA_VERSION } from '@rescuelog/sync-protocol/platform/versions';
import { dynamic, syncHorizon, type Row } from './sync-tables';
import { changeRows, wireShapes, type WireShape } from './wire-sql';

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
function visibleRows(
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

function shapeOf(shapes: Map<string, WireShape>, def: RecordDefinition): WireShape {
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

/** One page of a pull: the answer as JSON text, and what the audit records of it. */
export interface PullPage {
  cursor: string;
  hasMore: boolean;
  /** The changes on the page. */
  count: number;
  /** The ids of the page's records by kind. */
  ids: Record<string, string[]>;
  /** The whole answer (pullResponseSchema), built by the database. */
  body: string;
}

/** PostgreSQL's largest bigint: versions come from a bigint sequence. */
const MAX_VERSION = 9_223_372_036_854_775_807n;

function emptyPage(cursor: string): string {
  return `{"cursor":${JSON.stringify(cursor)},"hasMore":false,"changes":[]}`;
}

export async function pullChanges(
  db: Kysely<Database>,
  registry: Registry,
  actor: Actor,
  request: { cursor: string | null; limit: number; schemaVersion?: number },
): Promise<PullPage> {
  const after = BigInt(request.cursor ?? '0').toString();
  // No version is above bigint's range: nothing after such a cursor (and it is no SQL value).
  if (BigInt(after) >= MAX_VERSION)
    return { cursor: after, hasMore: false, count: 0, ids: {}, body: emptyPage(after) };
  const kinds = registry.kindsFor(request.schemaVersion ?? SCHEMA_VERSION);
  const shapes = await wireShapes(db, kinds);
  const limit = request.limit;
  // Before the snapshot (the transaction's first statement takes it): see syncHorizon.
  const below = (await syncHorizon(db)).toString();
  return db
    .transaction()
    .setIsolationLevel('repeatable read')
    .setAccessMode('read only')
    .execute(async (tx) => {
      // The page: the first `limit` versions after the cursor over every kind (each kind's
      // first limit + 1, merged; one more tells whether there is more). Versions are unique
      // across kinds (one sequence).
      const heads = kinds.map(
        (def) =>
          sql`(${visibleRows(tx, registry, actor, def, (eb) =>
            eb.and([eb('version', '>', after), eb('version', '<', below)]),
          )
            .clearSelect()
            .select([
              sql<string>`${def.kind}::text`.as('entity'),
              sql<string>`id::text`.as('id'),
              'version',
            ])
            .orderBy('version')
            .limit(limit + 1)})`,
      );
      const { rows: head } = await sql<{ entity: string; id: string; version: string }>`
        select entity, id, version::text as version from (${sql.join(heads, sql` union all `)}) u
        order by u.version limit ${limit + 1}`.execute(tx);
      const hasMore = head.length > limit;
      const page = head.slice(0, limit);
      const last = page.at(-1)?.version;
      if (last === undefined)
        return { cursor: after, hasMore: false, count: 0, ids: {}, body: emptyPage(after) };
      const ids: Record<string, string[]> = {};
      for (const row of page) (ids[row.entity] ??= []).push(row.id);
      // Then the rows up to the page's last version become the page's JSON: only the kinds on
      // the page (a statement over every kind's 190-column projection took longer to plan
      // than to run).
      const branches = kinds
        .filter((def) => ids[def.kind] !== undefined)
        .map((def) =>
          changeRows(
            shapeOf(shapes, def),
            visibleRows(tx, registry, actor, def, (eb) =>
              eb.and([eb('version', '>', after), eb('version', '<=', last)]),
            ),
          ),
        );
      const { rows } = await sql<{ changes: string }>`
        select json_agg(p.change order by p.version)::text as changes
        from (${sql.join(branches, sql` union all `)}) p`.execute(tx);
      const changes = rows[0]?.changes;
      if (changes === undefined) throw new Error('The pull statement returned no row');
      return {
        cursor: last,
        hasMore,
        count: page.length,
        ids,
        body: `{"cursor":${JSON.stringify(last)},"hasMore":${String(hasMore)},"changes":${changes}}`,
      };
    });
}
