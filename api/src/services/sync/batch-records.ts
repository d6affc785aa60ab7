// What a push's batch knows of the records its mutations touch (issue 12). Before the first
// mutation runs, one statement per kind reads every record the batch names (each mutation's
// uuids, looked up in its kind and the kind's ancestors: a vital sign's case, a CPR event's
// session) and which of its creates' numbers are free. The server store (server-store.ts)
// answers get/require from here instead of a SELECT per mutation, and keeps it current:
// - an update or a tombstone of a record a later mutation of the batch names stores the row
//   the database returns (RETURNING, as wire JSON), so that mutation reads nothing either;
//   when none does, the update returns nothing and the record is forgotten;
// - an insert forgets the id (the row has the table's defaults, which only the database
//   knows): a later mutation that touches it reads it once, after the pending inserts went in;
// - a mutation rolled back to its savepoint forgets everything it read or wrote.
// A miss is a read, never a guess: "absent" is only ever an answer the database gave for
// this batch. Access events (case.access) are looked up the same way, once per batch.
// Every record read is locked until the push commits (FOR NO KEY UPDATE, decision 033):
// pushes run concurrently, and one that touches the same records waits for this one, so
// what the batch knows stays what the database holds.
//
// New rows wait too (when the batch runs without savepoints): consecutive inserts into one
// table go in as one multi-row INSERT (a single-row insert of a case cost ~1 ms on PGlite,
// nearly all of it per statement). So do updates: consecutive updates of one table go in as
// one `UPDATE t SET … FROM (VALUES …) v WHERE t.id = v.id` per set of columns (each row its
// own values, field versions merged per row by the server store as before). Every other
// statement of the push flushes what waits first, so statements run in the order they would
// have one at a time, and a read finds the rows; a record that waits to be updated is
// flushed before it is read or written again (two changes of one record apply in order, the
// second one seeing the first). A flush the database refuses is a mutation that failed to
// apply (RetryWithSavepoints: the batch runs again with a savepoint per mutation, and rows
// are then inserted and updated at once).
import { sql, type Transaction } from 'kysely';
import type { Database } from '@rescuelog/db/schema';
import { databaseError } from '@rescuelog/db/errors';
import type { Row } from '@rescuelog/sync-protocol/platform/mutator';
import type { ParsedMutation, Registry } from '@rescuelog/sync-protocol/platform/registry';
import { dynamic, readFieldVersions, type FieldVersions, type RowCondition } from './sync-tables';
import { quoteIdent, recordRows, type WireRow, type WireShape } from './wire-sql';

/**
 * A failure of the server as a whole, not of one mutation: the connection, a deadlock or
 * serialization failure, resources, a shutdown or statement timeout (SQLSTATE classes 08,
 * 40, 53, 57, 58). The whole push answers 5xx and the device retries it unchanged.
 */
export function serverFault(error: unknown): boolean {
  const info = databaseError(error);
  return info !== undefined && ['08', '40', '53', '57', '58'].includes(info.code.slice(0, 2));
}

/** Thrown out of a batch applied without savepoints when one of its mutations fails to apply. */
export class RetryWithSavepoints extends Error {
  constructor() {
    super('A mutation failed to apply; the batch runs again with a savepoint per mutation');
    this.name = 'RetryWithSavepoints';
  }
}

/** Values per insert statement: far below PostgreSQL's 65,535 parameters. */
const INSERT_PARAMETERS = 30_000;

/**
 * Types whose bare name means one length (`character` is char(1), `bit` is bit(1)): a value
 * cast to them would be cut; cast to their unbounded kin, the column's assignment checks it.
 */
const CAST_TYPES = new Map([
  ['character', 'bpchar'],
  ['bit', 'varbit'],
]);

/** A record as the wire carries it, with its field versions (the server's bookkeeping). */
export interface StoredRecord {
  record: Row;
  fieldVersions: FieldVersions;
}

export type Author = { fullName: string; callSign: string | null } | null;

/** An update that waits for the next statement (BatchRecords.write). */
interface PendingUpdate {
  kind: string;
  id: string;
  /** Column values by key (camelCase), as the server store wrote them. */
  set: Row;
  /** A later mutation of the batch names the record: keep the row the update leaves. */
  keep: boolean;
  /** The record as known before the update, if it was. */
  before: StoredRecord | undefined;
}

interface AccessSeen {
  action: string;
  entityId: string | null;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/** Every uuid in a parsed mutation's args and entity ids (what it could read or write). */
function namedUuids(mutation: ParsedMutation, entityIds: readonly string[]): string[] {
  const out = new Set<string>(entityIds.filter((id) => UUID.test(id)));
  // Parsed args are bounded in depth (registry.parseMutation refuses deeper values).
  const stack: unknown[] = [mutation.args];
  while (stack.length > 0) {
    const value = stack.pop();
    if (typeof value === 'string') {
      if (UUID.test(value)) out.add(value);
    } else if (value !== null && typeof value === 'object') stack.push(...Object.values(value));
  }
  return [...out];
}

export function parseStored(row: WireRow): StoredRecord {
  return {
    record: JSON.parse(row.record) as Row,
    fieldVersions:
      row.fieldVersions === null
        ? {}
        : readFieldVersions({ fieldVersions: JSON.parse(row.fieldVersions) }),
  };
}

export class BatchRecords {
  /** kind:id -> the record, or null when the database said there is none. */
  private readonly known = new Map<string, StoredRecord | null>();
  /** kind -> numbers (human ids) the database said no record has. */
  private readonly freeNumbers = new Map<string, Set<string>>();
  private readonly authors = new Map<number, Author>();
  /** Access event ids the batch names, and the audit entries found or written for them. */
  private readonly named: Set<string>;
  private access: Map<string, AccessSeen> | null = null;
  /** What the running mutation read or wrote (forgotten when it is rolled back). */
  private readonly touched = new Set<string>();
  /** Each mutation's place in the batch, and the last place that names each record. */
  private readonly positions = new Map<ParsedMutation, number>();
  private readonly lastUse = new Map<string, number>();
  private position = Number.MAX_SAFE_INTEGER;
  /** Rows waiting to be inserted together, all into one table; or updates waiting, of one. */
  private pendingTable: string | null = null;
  private pending: Row[] = [];
  private pendingUpdates: PendingUpdate[] = [];
  /** kind:id of the records in pendingUpdates. */
  private readonly waiting = new Set<string>();
  private deferInserts = false;

  private constructor(
    private readonly tx: Transaction<Database>,
    private readonly shapes: Map<string, WireShape>,
    private readonly registry: Registry,
    named: Iterable<string>,
  ) {
    this.named = new Set(named);
  }

  /** Reads what the batch's mutations name: one statement per kind. */
  static async read(
    tx: Transaction<Database>,
    shapes: Map<string, WireShape>,
    registry: Registry,
    mutations: readonly ParsedMutation[],
    options: { deferInserts: boolean },
  ): Promise<BatchRecords> {
    /** Per kind: the ids and numbers named, and whether only creates name it (`fresh`). */
    const wanted = new Map<string, { ids: Set<string>; numbers: Set<string>; fresh: boolean }>();
    const named = new Set<string>();
    const positions = new Map<ParsedMutation, number>();
    const lastUse = new Map<string, number>();
    for (const [position, mutation] of mutations.entries()) {
      positions.set(mutation, position);
      const mutator = registry.mutator(mutation.name);
      if (!mutator) continue;
      const ids = namedUuids(mutation, mutator.entityIds(mutation.args));
      for (const id of ids) named.add(id);
      for (const kind of lineage(registry, mutator.kind)) {
        for (const id of ids) lastUse.set(key(kind, id), position);
        const shape = shapes.get(kind);
        if (!shape?.uuidIds) continue;
        const entry = wanted.get(kind) ?? {
          ids: new Set<string>(),
          numbers: new Set<string>(),
          fresh: true,
        };
        wanted.set(kind, entry);
        for (const id of ids) entry.ids.add(id);
        const args: unknown = mutation.args;
        const number =
          args !== null &&
          typeof args === 'object' &&
          'humanId' in args &&
          typeof args.humanId === 'string'
            ? args.humanId
            : undefined;
        const creates = kind === mutator.kind && mutator.creates === true;
        if (creates && registry.get(kind).humanId && number !== undefined)
          entry.numbers.add(number);
        // A create (with its number, for a kind that has them) most likely finds nothing.
        if (!creates || (registry.get(kind).humanId && number === undefined)) entry.fresh = false;
      }
    }
    const batch = new BatchRecords(tx, shapes, registry, named);
    batch.deferInserts = options.deferInserts;
    for (const [m, p] of positions) batch.positions.set(m, p);
    for (const [k, p] of lastUse) batch.lastUse.set(k, p);
    // Locked in one order by every push (ancestors' kinds first, then by kind, then by id), so
    // two pushes that touch the same records wait for each other instead of deadlocking.
    const order = [...wanted.keys()].sort(
      (a, b) =>
        lineage(registry, a).length - lineage(registry, b).length || (a < b ? -1 : a > b ? 1 : 0),
    );
    for (const kind of order) {
      const { ids, numbers, fresh } = wanted.get(kind) as {
        ids: Set<string>;
        numbers: Set<string>;
        fresh: boolean;
      };
      if (ids.size === 0 && numbers.size === 0) continue;
      const def = registry.get(kind);
      const column = def.humanId?.column;
      const named: RowCondition = (eb) =>
        eb.or([
          ...(ids.size > 0 ? [eb('id', 'in', [...ids])] : []),
          ...(column && numbers.size > 0 ? [eb(column, 'in', [...numbers])] : []),
        ]);
      // The records that exist, whole, locked until the push commits (a locking read returns
      // each row as it is once locked): one statement. When only creates name the kind, they
      // most likely find none: a narrow read first (the whole row's JSON costs planning even
      // when no row matches), then the few it finds whole.
      let hits: StoredRecord[] = [];
      if (fresh) {
        const existing = await dynamic(tx)
          .selectFrom(def.table)
          .select(['id'])
          .where(named)
          .orderBy('id')
          .forNoKeyUpdate()
          .execute();
        const found = existing.map((row) => String(row.id));
        if (found.length > 0) hits = await batch.select(kind, (eb) => eb('id', 'in', found));
      } else hits = await batch.select(kind, named);
      for (const stored of hits) batch.known.set(key(kind, String(stored.record.id)), stored);
      for (const id of ids)
        if (!batch.known.has(key(kind, id))) batch.known.set(key(kind, id), null);
      if (column) {
        const taken = new Set(hits.map((stored) => String(stored.record[column])));
        batch.freeNumbers.set(kind, new Set([...numbers].filter((n) => !taken.has(n))));
      }
    }
    return batch;
  }

  private shape(kind: string): WireShape {
    const shape = this.shapes.get(kind);
    if (!shape) throw new Error(`No wire shape for ${kind}`);
    return shape;
  }

  /**
   * Rows of a kind, as the wire carries them, with their field versions; locked until the
   * push commits (a concurrent push that writes them waits, and this one reads them as they are).
   */
  async select(kind: string, where: RowCondition): Promise<StoredRecord[]> {
    await this.flush();
    const def = this.registry.get(kind);
    const query = dynamic(this.tx)
      .selectFrom(def.table)
      .selectAll()
      .where(where)
      .orderBy('id')
      .forNoKeyUpdate();
    const { rows } = await recordRows(this.shape(kind), query).execute(this.tx);
    return rows.map(parseStored);
  }

  /** A new mutation starts: what it touches is forgotten if it is rolled back. */
  begin(mutation: ParsedMutation): void {
    this.touched.clear();
    this.position = this.positions.get(mutation) ?? Number.MAX_SAFE_INTEGER;
  }

  /** The running mutation was rolled back to its savepoint. */
  rollback(): void {
    for (const k of this.touched) {
      if (k.startsWith('access:')) this.access?.delete(k.slice('access:'.length));
      else this.known.delete(k);
    }
    this.touched.clear();
  }

  async get(kind: string, id: string): Promise<StoredRecord | undefined> {
    const k = key(kind, id);
    this.touched.add(k);
    // Its update waits: in first, so this reads the record as it left it.
    if (this.waiting.has(k)) await this.flush();
    const known = this.known.get(k);
    if (known !== undefined) return known ?? undefined;
    const [found] = await this.select(kind, (eb) => eb('id', '=', id));
    this.known.set(k, found ?? null);
    return found;
  }

  /** True only when the database said this batch that no record has the id. */
  absent(kind: string, id: string): boolean {
    return this.known.get(key(kind, id)) === null;
  }

  /** True only when the database said this batch that no record has the number. */
  numberFree(kind: string, number: string): boolean {
    return this.freeNumbers.get(kind)?.has(number) ?? false;
  }

  /**
   * Inserts a new record's row: waits for the next statement when the batch defers inserts,
   * at once otherwise. The id is forgotten (the row has the table's defaults, which only the
   * database knows) and the number is no longer known to be free.
   */
  async insert(kind: string, id: string, number: string | undefined, row: Row): Promise<void> {
    const table = this.registry.get(kind).table;
    if (this.deferInserts) {
      if (this.pendingTable !== table || this.pendingUpdates.length > 0) await this.flush();
      this.pendingTable = table;
      this.pending.push(row);
    } else {
      await this.flush();
      await dynamic(this.tx).insertInto(table).values(row).execute();
    }
    const k = key(kind, id);
    this.known.delete(k);
    this.touched.add(k);
    if (number !== undefined) this.freeNumbers.get(kind)?.delete(number);
  }

  /** The id of the record of `kind` that has this number, if any (the database's answer). */
  async numberTaken(kind: string, number: string): Promise<string | undefined> {
    if (this.freeNumbers.get(kind)?.has(number)) return undefined;
    const column = this.registry.get(kind).humanId?.column;
    if (!column) return undefined;
    await this.flush();
    const row = await dynamic(this.tx)
      .selectFrom(this.registry.get(kind).table)
      .select(['id'])
      .where(column, '=', number)
      .executeTakeFirst();
    return row ? String(row.id) : undefined;
  }

  /**
   * Inserts the rows that wait, or runs the updates that wait. Call before any statement of
   * the push that is not one of these methods (they call it themselves). A refusal of the
   * rows, or any failure but the server's own, runs the batch again with savepoints (they
   * are then written one at a time).
   */
  async flush(): Promise<void> {
    const table = this.pendingTable;
    const rows = this.pending.splice(0);
    const updates = this.pendingUpdates.splice(0);
    this.pendingTable = null;
    this.waiting.clear();
    if (table === null) return;
    try {
      if (rows.length > 0) await this.insertRows(table, rows);
      if (updates.length > 0) await this.updateRows(table, updates);
    } catch (error) {
      if (serverFault(error)) throw error;
      throw new RetryWithSavepoints();
    }
  }

  private async insertRows(table: string, rows: Row[]): Promise<void> {
    const d = dynamic(this.tx);
    let chunk: Row[] = [];
    const columns = new Set<string>();
    for (const row of rows) {
      for (const column of Object.keys(row)) columns.add(column);
      if (chunk.length > 0 && (chunk.length + 1) * columns.size > INSERT_PARAMETERS) {
        await d.insertInto(table).values(chunk).execute();
        chunk = [];
        columns.clear();
        for (const column of Object.keys(row)) columns.add(column);
      }
      chunk.push(row);
    }
    if (chunk.length > 0) await d.insertInto(table).values(chunk).execute();
  }

  /**
   * Waiting updates of one table (no record twice: write and get flush first), one statement
   * per kind and set of columns. The order between different records does not matter:
   * nothing reads them before the last one is in, and the triggers give each row its own
   * version.
   */
  private async updateRows(table: string, updates: PendingUpdate[]): Promise<void> {
    const groups = new Map<string, PendingUpdate[]>();
    for (const update of updates) {
      const signature = `${update.kind}:${Object.keys(update.set).sort().join(',')}`;
      const group = groups.get(signature) ?? [];
      group.push(update);
      groups.set(signature, group);
    }
    for (const group of groups.values()) {
      const first = group[0] as PendingUpdate;
      const keys = Object.keys(first.set).sort();
      const per = Math.max(1, Math.floor(INSERT_PARAMETERS / (keys.length + 1)));
      for (let i = 0; i < group.length; i += per)
        await this.updateChunk(table, keys, group.slice(i, i + per));
    }
  }

  private async updateChunk(
    table: string,
    keys: string[],
    updates: PendingUpdate[],
  ): Promise<void> {
    const first = updates[0] as PendingUpdate;
    const shape = this.shape(first.kind);
    const column = (k: string): { column: string; type: string } => {
      const found = shape.columns.get(k);
      if (!found) throw new Error(`${shape.def.sqlTable} has no column for ${k}`);
      return found;
    };
    const id = column('id');
    const columns = keys.map(column);
    // Each value typed as its column (a VALUES list of parameters would otherwise be text),
    // without the column's modifier: the assignment applies it (rounding, length checks) as a
    // one-row update's parameter does, where an explicit cast would truncate.
    const cast = (type: string) => sql.raw(CAST_TYPES.get(type) ?? type);
    const values = sql.join(
      updates.map(
        (u) =>
          sql`(${sql.join([
            sql`${u.id}::${cast(id.type)}`,
            ...keys.map((k, i) => sql`${u.set[k]}::${cast(columns[i]?.type ?? 'text')}`),
          ])})`,
      ),
    );
    const names = sql.raw(['id', ...columns.map((c) => c.column)].map(quoteIdent).join(', '));
    const assignments = sql.raw(
      columns.map((c) => `${quoteIdent(c.column)} = v.${quoteIdent(c.column)}`).join(', '),
    );
    const update = sql`update ${sql.table(table)} as t set ${assignments}
      from (values ${values}) as v(${names}) where t.id = v.id`;
    const kept = updates.filter((u) => u.keep);
    if (kept.length === 0) {
      await update.execute(this.tx);
      return;
    }
    // Rows a later mutation names: as the database left them (the fields set, the triggers'
    // version and updated_at; or the whole row, see write).
    const partial =
      shape.plainUpdates && kept.every((u) => u.before)
        ? [...keys, 'version', 'updatedAt']
        : undefined;
    const wanted = sql.join(kept.map((u) => sql`${u.id}`));
    const { rows } = await sql<WireRow>`with u as (${update} returning t.*)
      ${recordRows(shape, sql`(select * from u where u.id::text in (${wanted}))`, partial)}`.execute(
      this.tx,
    );
    const byId = new Map(rows.map((row) => [row.id, row]));
    for (const u of kept) {
      const row = byId.get(u.id);
      if (row) this.remember(key(u.kind, u.id), row, partial ? u.before : undefined);
    }
  }

  private remember(k: string, row: WireRow, before: StoredRecord | undefined): void {
    const after = parseStored(row);
    this.known.set(k, before ? { ...after, record: { ...before.record, ...after.record } } : after);
  }

  /**
   * Updates one record: sets `set` (column values by key: record fields and bookkeeping
   * columns). When the batch defers writes, the update waits with the table's others (flush).
   * When a later mutation of the batch names the record, keeps the row the update leaves, as
   * the database returns it: the fields it set and the triggers' version and updated_at over
   * the record as it was (or the whole row, for a table whose updates may change more:
   * wire-sql.ts plainUpdates). Otherwise the record is forgotten.
   */
  async write(kind: string, id: string, set: Row): Promise<void> {
    const k = key(kind, id);
    this.touched.add(k);
    const before = this.known.get(k) ?? undefined;
    const keep = (this.lastUse.get(k) ?? -1) > this.position;
    const table = this.registry.get(kind).table;
    const shape = this.shape(kind);
    this.known.delete(k);
    if (
      this.deferInserts &&
      ['id', ...Object.keys(set)].every((column) => shape.columns.has(column))
    ) {
      if (this.pendingTable !== table || this.pending.length > 0 || this.waiting.has(k))
        await this.flush();
      this.pendingTable = table;
      this.pendingUpdates.push({ kind, id, set, keep, before });
      this.waiting.add(k);
      return;
    }
    await this.flush();
    const update = dynamic(this.tx).updateTable(table).set(set).where('id', '=', id);
    if (!keep) {
      await update.execute();
      return;
    }
    const partial =
      shape.plainUpdates && before ? [...Object.keys(set), 'version', 'updatedAt'] : undefined;
    const { rows } = await sql<WireRow>`with u as (${update.returningAll()})
      ${recordRows(shape, sql`u`, partial)}`.execute(this.tx);
    const [row] = rows;
    if (row) this.remember(k, row, partial ? before : undefined);
  }

  async author(userId: number): Promise<Author> {
    if (this.authors.has(userId)) return this.authors.get(userId) ?? null;
    await this.flush();
    const user = await this.tx
      .selectFrom('users')
      .select(['fullName', 'callSign'])
      .where('id', '=', userId)
      .executeTakeFirst();
    this.authors.set(userId, user ?? null);
    return user ?? null;
  }

  /** The audit entry already recorded for an access event (this batch's included). */
  async accessSeen(eventId: string): Promise<AccessSeen | undefined> {
    if (!this.access) {
      this.access = new Map();
      await this.readAccess([...this.named]);
    }
    if (!this.named.has(eventId) && !this.access.has(eventId)) {
      this.named.add(eventId);
      await this.readAccess([eventId]);
    }
    return this.access.get(eventId);
  }

  private async readAccess(ids: string[]): Promise<void> {
    if (ids.length === 0) return;
    await this.flush();
    const rows = await this.tx
      .selectFrom('auditLog')
      .select(['action', 'entityId', sql<string>`details->>'accessEventId'`.as('eventId')])
      .where(sql<boolean>`details ? 'accessEventId'`)
      .where(sql<string>`details->>'accessEventId'`, 'in', ids)
      .execute();
    for (const row of rows)
      this.access?.set(row.eventId, { action: row.action, entityId: row.entityId });
  }

  /** An access event's audit entry was written (or buffered) by the running mutation. */
  accessRecorded(eventId: string, seen: AccessSeen): void {
    this.access?.set(eventId, seen);
    this.touched.add(`access:${eventId}`);
  }
}

function key(kind: string, id: string): string {
  return `${kind}:${id}`;
}

/** A kind and its ancestors (a vital sign, its case). */
function lineage(registry: Registry, kind: string): string[] {
  const out: string[] = [];
  let def = registry.has(kind) ? registry.get(kind) : undefined;
  for (let i = 0; def && i < 10; i++) {
    out.push(def.kind);
    def = def.parent ? registry.get(def.parent.kind) : undefined;
  }
  return out;
}
