// One mutator, two sides: a mutation's effect is written once, against MutatorTx, and runs
// on the device (optimistic, in IndexedDB: client/device-store.ts) and on the server (in the
// push transaction: api/src/services/sync/server-store.ts), the way Replicache mutators do.
// The two stores differ only where they must: the server checks permissions, numbers
// (human ids) against every other device's, keeps field versions and conflicts and writes
// the audit log; the device stamps what it knows and leaves the rest to the server.
import type { z } from 'zod';
import '../zod-config';
import type { JsonValue } from './json';

export type Row = Record<string, unknown>;

/** The envelope fields a mutator may read (mutation ids, the device's clock, its base). */
export interface MutationContext {
  name: string;
  mutationId: string;
  deviceId: string;
  seq: number;
  actorUserId: number;
  /** The device's time of the change: createdAt of new rows, deletedAt of tombstones. */
  clientTime: string;
  /** The record version the edit was based on (null: never seen a server copy). */
  baseVersion: string | null;
}

/** A field where another person's newer value was replaced; both are kept for review. */
export interface ConflictReport {
  field: string;
  serverValue: JsonValue;
  clientValue: JsonValue;
}

export interface UpdateOptions {
  /**
   * Conflicts are judged against the values the author saw (an addendum's `before`) instead
   * of the mutation's base version.
   */
  before?: Record<string, unknown>;
}

export interface UpdateResult {
  /** Fields whose value changed. */
  changed: string[];
  /** Server only: fields where a concurrent write by another person was replaced. */
  conflicts: ConflictReport[];
}

/** create: a new record; change: edit one; delete: tombstone one; see: read one. */
export type AccessVerb = 'create' | 'change' | 'delete' | 'see';

export interface AccessEvent {
  /** The access event's own id (a resend records nothing twice). */
  id: string;
  kind: string;
  recordId: string;
  /** e.g. view, print, pdf, export */
  action: string;
  detail?: string | undefined;
}

/** The small storage interface every mutator is written against. */
export interface MutatorTx {
  readonly location: 'device' | 'server';
  readonly mutation: MutationContext;
  /** The record as the wire carries it (tombstones included), or undefined. */
  get(kind: string, id: string): Promise<Row | undefined>;
  /**
   * The record, which must exist and not be deleted (NOT_FOUND / DELETED otherwise). With a
   * verb, the actor's right to it is checked before anything about its state is answered
   * (a stranger learns nothing of a record's state). On the device a record it does not hold
   * ends the local effect: the server decides.
   */
  require(kind: string, id: string, verb?: AccessVerb): Promise<Row>;
  /** The error for a record that is not there (device: not held here; server: NOT_FOUND). */
  notFound(kind: string, id: string): Error;
  /** Rows of `kind` whose `column` equals `value` (an indexed column on the device). */
  list(kind: string, column: string, value: string): Promise<Row[]>;
  /** Creates a record; the store stamps owner, createdAt (clientTime) and its bookkeeping. */
  insert(kind: string, values: Row): Promise<void>;
  /** Writes fields of an existing record (last write wins per field on the server). */
  update(kind: string, id: string, changes: Row, options?: UpdateOptions): Promise<UpdateResult>;
  /** Soft delete: deletedAt = clientTime. */
  tombstone(kind: string, id: string): Promise<void>;
  /** Throws a Rejection when the actor may not (server; the device leaves it to the server). */
  authorize(kind: string, verb: AccessVerb, row?: Row): void;
  /** A user's name and call sign as this side knows them (the server: its users). */
  author(userId: number): Promise<{ fullName: string; callSign: string | null } | null>;
  /** Adds details to this mutation's audit entry (server). */
  note(details: Record<string, JsonValue>): void;
  /** Records a view, print or export of a record in the audit log (server), once per event id. */
  recordAccess(event: AccessEvent): Promise<void>;
}

export interface Mutator<A = unknown, N extends string = string> {
  name: N;
  /** For people (the sync inbox): e.g. 'Vital sign correction'. */
  label: string;
  /** The kind the mutation is about (its audit entry's entity type, the inbox's label). */
  kind: string;
  /** It records that someone viewed, printed or exported a record (for the audit log) and
   * changes none: the device does not count it among the changes waiting to sync. */
  accessRecord?: true;
  args: z.ZodType<A>;
  /** The records the mutation touches (the outbox index: "is this record synced?"). */
  entityIds(args: A): string[];
  /**
   * The mutation may create a `kind` record under args.humanId: the server reads whether
   * the numbers of a batch's creates are free once for the whole batch.
   */
  creates?: boolean;
  apply(tx: MutatorTx, args: A): Promise<void>;
}

export type AnyMutator = Mutator<unknown>;

/** Declares a mutator; `args` is the zod schema the envelope's args are parsed with. */
export function defineMutator<const N extends string, S extends z.ZodType>(mutator: {
  name: N;
  label: string;
  kind: string;
  accessRecord?: true;
  args: S;
  entityIds: (args: z.output<S>) => string[];
  creates?: boolean;
  apply: (tx: MutatorTx, args: z.output<S>) => Promise<void>;
}): Mutator<z.output<S>, N> & { args: S } {
  return mutator as Mutator<z.output<S>, N> & { args: S };
}
