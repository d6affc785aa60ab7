// POST /api/sync/pull: the changes (tombstones included) after a cursor, in version order,
// read from one snapshot. Versions come from one global sequence and sync writes commit
// concurrently, out of version order; a page holds only versions below the safe horizon read
// just before its snapshot (sync-tables.ts syncHorizon, decision 033), under which the
// snapshot holds every version there will ever be, so the returned cursor never skips a
// change. Only what the user may see is returned: every kind by its definition.
// Few round trips (issue 12: each one waits its turn in a busy server): the horizon, the kinds
// on the page, then the page as one statement (its snapshot) whose answer is the page's JSON
// (wire-sql.ts), passed on without parsing it (most of a pull's time was wide rows becoming
// JavaScript values and JSON again), and which also writes the page's audit entry (decision
// 041: it was a statement of its own after the page).
import { sql, type Kysely, type RawBuilder } from 'kysely';
import type { Database } from '@rescuelog/db/schema';
import type { Actor } from '@rescuelog/sync-protocol/platform/access';
import type { RecordDefinition } from '@rescuelog/sync-protocol/platform/record';
import type { Registry } from '@rescuelog/sync-protocol/platform/registry';
import {
  PULL_ROWS_PROTOCOL_VERSION,
  PROTOCOL_VERSION,
  SCHEMA_VERSION,
} from '@rescuelog/sync-protocol/platform/versions';
import type { RequestOrigin } from './sync-audit';
import { syncHorizon } from './sync-tables';
import { shapeOf, visibleRows } from './visible-records';
import { changeRows, wireShapes, type ChangeForm, type WireShape } from './wire-sql';

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

/** The answer's JSON: the changes (JSON text) after the cursor and, as rows, the keys of
 * each kind with JSON on the page (pullRowsResponseSchema). */
function pageBody(
  form: ChangeForm,
  cursor: string,
  hasMore: boolean,
  changes: string,
  kinds: readonly WireShape[],
): string {
  const keys =
    form === 'rows'
      ? `"keys":${JSON.stringify(Object.fromEntries(kinds.map((shape) => [shape.def.kind, shape.keys])))},`
      : '';
  return `{"cursor":${JSON.stringify(cursor)},"hasMore":${String(hasMore)},${keys}"changes":${changes}}`;
}

/** A kind's first `limit` + 1 visible versions in (after, below), with its kind's name. */
function headOf(
  db: Kysely<Database>,
  registry: Registry,
  actor: Actor,
  def: RecordDefinition,
  range: { after: string; below: string; limit: number },
) {
  return sql`(${visibleRows(db, registry, actor, def, (eb) =>
    eb.and([eb('version', '>', range.after), eb('version', '<', range.below)]),
  )
    .clearSelect()
    .select([
      sql<string>`${def.kind}::text`.as('entity'),
      sql<string>`id::text`.as('id'),
      'version',
    ])
    .orderBy('version')
    .limit(range.limit + 1)})`;
}

/** Who pulls, for the audit entry a page with changes writes (a view of the records on it). */
export interface PullAudit {
  origin: RequestOrigin;
  deviceId: string;
  /** The cursor as the request sent it. */
  cursor: string | null;
}

/**
 * The page's audit entry as a data-modifying CTE of the page statement: the puller, and the
 * page's cursors, count and ids by kind, read from `page`. Only for a page with changes and
 * JSON for every kind on it (`covered`): a page read again with every kind's JSON writes it
 * then, so a pull writes one entry, as when the route wrote it after the page.
 */
function auditInsert(
  db: Kysely<Database>,
  actor: Actor,
  audit: PullAudit,
  covered: RawBuilder<boolean>,
) {
  return db
    .insertInto('auditLog')
    .columns([
      'actorUserId',
      'action',
      'outcome',
      'entityType',
      'entityId',
      'ip',
      'userAgent',
      'details',
    ])
    .expression(
      sql`select ${actor.id}::integer, 'sync.pull', 'success', 'sync', ${audit.deviceId}::text,
        ${audit.origin.ip}::text, ${audit.origin.userAgent}::text,
        jsonb_build_object('cursor', ${audit.cursor}::text,
          'nextCursor', (select max(version)::text from page),
          'count', (select count(*)::int from page),
          'ids', (select jsonb_object_agg(g.entity, g.ids) from (
            select entity, jsonb_agg(id order by version) as ids from page group by entity) g))
        where exists (select 1 from page) and ${covered}`,
    );
}

interface PageRow {
  hasMore: boolean;
  last: string | null;
  count: number;
  ids: string | null;
  changes: string | null;
  /** Whether every kind on the page had its JSON branch. */
  covered: boolean;
}

/**
 * One page as ONE statement, so one snapshot (READ COMMITTED takes one per statement; no
 * transaction around it): the first `limit` visible versions in (after, below) over every kind
 * (each kind's first limit + 1, merged; one more tells whether there is more; versions are
 * unique across kinds, one sequence), and the JSON of the rows up to the page's last version,
 * the same visible rows, so exactly the page's. Only `json` kinds have a JSON branch (a branch
 * is a kind's whole wire projection, ~190 columns for a case, and planning every kind's took
 * longer than running the page); `covered` says whether that was every kind on the page.
 */
async function readPage(
  db: Kysely<Database>,
  registry: Registry,
  actor: Actor,
  kinds: readonly RecordDefinition[],
  shapes: Map<string, WireShape>,
  json: readonly RecordDefinition[],
  range: { after: string; below: string; limit: number },
  audit: PullAudit | undefined,
  form: ChangeForm,
): Promise<PageRow> {
  const heads = kinds.map((def) => headOf(db, registry, actor, def, range));
  // On an empty page the bound is null and a branch's index scan reads nothing.
  const last = sql<string>`(select max(version) from page)`;
  const branches = json.map((def) =>
    changeRows(
      shapeOf(shapes, def),
      visibleRows(db, registry, actor, def, (eb) =>
        eb.and([eb('version', '>', range.after), eb('version', '<=', last)]),
      ),
      form,
    ),
  );
  if (branches.length === 0)
    throw new Error('A pull page is read with the JSON of one kind or more');
  const covering = sql.join(json.map((def) => sql`${def.kind}`));
  const covered = sql<boolean>`not exists (select 1 from page where entity not in (${covering}))`;
  const writes = audit ? sql`, audit as (${auditInsert(db, actor, audit, covered)})` : sql``;
  const { rows } = await sql<PageRow>`with head as materialized (
      select entity, id, version from (${sql.join(heads, sql` union all `)}) u
      order by u.version limit ${range.limit + 1}
    ), page as materialized (
      select entity, id, version from head order by version limit ${range.limit}
    )${writes}
    select (select count(*) from head) > ${range.limit} as has_more,
      (select max(version)::text from page) as last,
      (select count(*)::int from page) as count,
      (select json_object_agg(g.entity, g.ids)::text from (
        select entity, json_agg(id order by version) as ids from page group by entity
      ) g) as ids,
      ${covered} as covered,
      (select json_agg(p.change order by p.version)::text
        from (${sql.join(branches, sql` union all `)}) p) as changes`.execute(db);
  const row = rows[0];
  if (row === undefined) throw new Error('The pull statement returned no row');
  return row;
}

export async function pullChanges(
  db: Kysely<Database>,
  registry: Registry,
  actor: Actor,
  request: {
    cursor: string | null;
    limit: number;
    schemaVersion?: number;
    /** The client's; from PULL_ROWS_PROTOCOL_VERSION on, the page comes as rows. */
    protocolVersion?: number;
  },
  /** Writes the audit entry of a page with changes (the pull route); without it, none. */
  audit?: PullAudit,
): Promise<PullPage> {
  // Inside a transaction the first statement would be the snapshot of every later one: the
  // horizon's, taken before its reads.
  if (db.isTransaction) throw new Error('A pull runs on the database, not in a transaction');
  const kinds = registry.kindsFor(request.schemaVersion ?? SCHEMA_VERSION);
  // Cached per Kysely instance: read from the database's, not the connection's (a new one).
  const shapes = await wireShapes(db, kinds);
  const form: ChangeForm =
    (request.protocolVersion ?? PROTOCOL_VERSION) >= PULL_ROWS_PROTOCOL_VERSION
      ? 'rows'
      : 'objects';
  // The pull's statements on one connection, still no transaction (each statement takes its
  // own snapshot, as below needs): under load a busy pool is waited for once per pull, not
  // once per statement behind every request that came in meanwhile (decision 039).
  return db
    .connection()
    .execute((connection) =>
      pullOn(connection, registry, actor, kinds, shapes, request, audit, form),
    );
}

async function pullOn(
  db: Kysely<Database>,
  registry: Registry,
  actor: Actor,
  kinds: readonly RecordDefinition[],
  shapes: Map<string, WireShape>,
  request: { cursor: string | null; limit: number },
  audit: PullAudit | undefined,
  form: ChangeForm,
): Promise<PullPage> {
  const after = BigInt(request.cursor ?? '0').toString();
  const empty = {
    cursor: after,
    hasMore: false,
    count: 0,
    ids: {},
    body: pageBody(form, after, false, '[]', []),
  };
  // No version is above bigint's range: nothing after such a cursor (and it is no SQL value).
  if (BigInt(after) >= MAX_VERSION) return empty;
  // Round trip 1, the horizon (decision 033 and its issue 12 addendum): its own statement,
  // before every statement that reads the page, each of which takes its snapshot when it
  // starts, so after the horizon's reads, as syncHorizon's argument needs.
  const below = await syncHorizon(db);
  // Nothing was handed out after the cursor: the page is empty without reading it.
  if (below <= BigInt(after) + 1n) return empty;
  const range = { after, below: below.toString(), limit: request.limit };
  // Round trip 2: the kinds with a version to send, a statement without row projections (cheap
  // to plan; each kind's scan stops at its first visible version). None: the page is empty
  // (the device is up to date: most pulls), and this statement was its snapshot. Otherwise
  // only their JSON is wanted; the page itself is read below, in one statement, since this
  // statement's snapshot is gone.
  const { rows: toSend } = await sql<{ entity: string }>`${sql.join(
    kinds.map(
      (def) =>
        sql`select ${def.kind}::text as entity where exists (${visibleRows(
          db,
          registry,
          actor,
          def,
          (eb) => eb.and([eb('version', '>', range.after), eb('version', '<', range.below)]),
        )
          .clearSelect()
          .select(sql`1`.as('one'))})`,
    ),
    sql` union all `,
  )}`.execute(db);
  if (toSend.length === 0) return empty;
  // Round trip 3: the page, one statement (readPage). Its snapshot is later than round trip
  // 2's: a kind may have come onto the page since (a row that became visible); then it is
  // read again with every kind's JSON, rather than answer a page without that row's change.
  const seen = new Set(toSend.map((row) => row.entity));
  let json: readonly RecordDefinition[] = kinds.filter((d) => seen.has(d.kind));
  let page = await readPage(db, registry, actor, kinds, shapes, json, range, audit, form);
  if (!page.covered) {
    json = kinds;
    page = await readPage(db, registry, actor, kinds, shapes, json, range, audit, form);
  }
  if (page.last === null) return empty;
  if (page.ids === null || page.changes === null)
    throw new Error('The pull statement returned a page without its changes');
  return {
    cursor: page.last,
    hasMore: page.hasMore,
    count: page.count,
    ids: JSON.parse(page.ids) as Record<string, string[]>,
    body: pageBody(
      form,
      page.last,
      page.hasMore,
      page.changes,
      json.map((def) => shapeOf(shapes, def)),
    ),
  };
}
