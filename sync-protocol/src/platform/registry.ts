// The registry: every record kind the app syncs, by its one definition (record.ts). The
// generic engine on the device (client/) and on the server (api/src/services/sync/) asks
// the registry for tables, schemas, mutators and access rules; it never names a kind.
import { z } from 'zod';
import '../zod-config';
import { canChangeAny, type Actor } from './access';
import { conflictRecord } from './conflict-record';
import { SET_ASIDE_MUTATION, SET_ASIDE_OVERHEAD_BYTES, setAsideArgsSchema } from './set-aside';
import { mutationEnvelopeSchema, type MutationEnvelope } from './envelope';
import type { AnyMutator, Mutator, Row } from './mutator';
import { narrowSafeParse } from './narrow-parse';
import type { FamilyAccess, RecordDefinition } from './record';
import { Rejection, RejectionCode } from './rejections';
import { findUnstorable, jsonBytes, MAX_MUTATION_BYTES } from './storable';
import { MIN_SCHEMA_VERSION } from './versions';

/** A mutation whose envelope and args have been checked: args as its mutator parsed them. */
export interface ParsedMutation extends MutationEnvelope {
  args: unknown;
}

/** The first zod issue as a rejection (path: message), with the first 20 issues as details. */
export function validationRejection(error: z.ZodError, root = ''): Rejection {
  const issue = error.issues[0];
  const path = issue ? [root, ...issue.path.map(String)].filter(Boolean).join('.') : root;
  return new Rejection(
    RejectionCode.VALIDATION_FAILED,
    `${path ? `${path}: ` : ''}${issue?.message ?? 'Invalid input'}`,
    {
      issues: error.issues.slice(0, 20).map((i) => ({
        path: [root, ...i.path.map(String)].filter(Boolean).join('.'),
        message: i.message,
      })),
    },
  );
}

export class Registry {
  private readonly byKind = new Map<string, RecordDefinition>();
  private readonly byMutation = new Map<string, AnyMutator>();
  /** Local schemas, built once per kind (every device read parses with one). */
  private readonly localSchemas = new Map<string, z.ZodType<Row>>();

  constructor(definitions: readonly RecordDefinition[]) {
    const tables = new Map<string, string>();
    // Every app syncs its conflicts (conflict-record.ts).
    for (const def of [...definitions, conflictRecord as RecordDefinition]) {
      if (this.byKind.has(def.kind)) throw new Error(`Record kind ${def.kind} is defined twice`);
      checkTables(def, tables);
      this.byKind.set(def.kind, def);
      for (const m of def.mutators) {
        if (this.byMutation.has(m.name)) throw new Error(`Mutation ${m.name} is defined twice`);
        this.byMutation.set(m.name, m);
      }
    }
    for (const def of this.byKind.values()) {
      if (def.parent && !this.byKind.has(def.parent.kind))
        throw new Error(`${def.kind}: parent kind ${def.parent.kind} is not registered`);
      if (!def.parent && !def.access && !def.ownerColumns)
        throw new Error(`${def.kind}: a root kind needs an access rule`);
    }
  }

  get definitions(): RecordDefinition[] {
    return [...this.byKind.values()];
  }

  get kinds(): string[] {
    return [...this.byKind.keys()];
  }

  get mutators(): AnyMutator[] {
    return [...this.byMutation.values()];
  }

  has(kind: string): boolean {
    return this.byKind.has(kind);
  }

  get(kind: string): RecordDefinition {
    const def = this.byKind.get(kind);
    if (!def) throw new Error(`Unknown record kind ${kind}`);
    return def;
  }

  byTable(table: string): RecordDefinition | undefined {
    return this.definitions.find((d) => d.table === table || d.sqlTable === table);
  }

  mutator(name: string): Mutator<unknown> | undefined {
    return this.byMutation.get(name) as Mutator<unknown> | undefined;
  }

  /** The kinds a client of `schemaVersion` knows (pull sends it only those). */
  kindsFor(schemaVersion: number): RecordDefinition[] {
    return this.definitions.filter((d) => (d.sinceSchemaVersion ?? 1) <= schemaVersion);
  }

  /** The access rule of a kind: its own, or the nearest ancestor's. */
  family(kind: string): FamilyAccess | undefined {
    let def: RecordDefinition | undefined = this.get(kind);
    for (let i = 0; def && i < 10; i++) {
      if (def.access) return def.access;
      def = def.parent ? this.get(def.parent.kind) : undefined;
    }
    return undefined;
  }

  ownerColumns(kind: string): readonly string[] {
    return this.get(kind).ownerColumns ?? ['userId'];
  }

  /** The kinds whose records (and conflicts) the actor may settle: change anyone's. */
  moderatedKinds(actor: Actor): string[] {
    return this.definitions
      .filter((d) => d.lww)
      .filter((d) => {
        const access = this.family(d.kind);
        return access !== undefined && canChangeAny(actor, access);
      })
      .map((d) => d.kind);
  }

  /** A record as the device keeps it: every field optional but the id (pending creates). */
  localSchema(kind: string): z.ZodType<Row> {
    const cached = this.localSchemas.get(kind);
    if (cached) return cached;
    const record = this.get(kind).record;
    const schema: z.ZodType<Row> =
      record instanceof z.ZodObject ? record.partial().required({ id: true }) : record;
    this.localSchemas.set(kind, schema);
    return schema;
  }

  /** Checks one mutation: envelope, name, args (its mutator's schema), storability, size. */
  parseMutation(raw: unknown): ParsedMutation {
    const envelope = mutationEnvelopeSchema.safeParse(raw);
    if (!envelope.success) throw validationRejection(envelope.error);
    const m = envelope.data;
    if (m.schemaVersion < MIN_SCHEMA_VERSION)
      throw new Rejection(RejectionCode.SCHEMA_VERSION_UNSUPPORTED);
    // A set-aside marker carries another change whole (set-aside.ts); no kind defines it.
    const marker = m.name === SET_ASIDE_MUTATION;
    const schema = marker ? setAsideArgsSchema : this.mutator(m.name)?.args;
    if (!schema)
      throw new Rejection(RejectionCode.VALIDATION_FAILED, `name: Unknown change ${m.name}`, {
        name: m.name,
      });
    const unstorable = findUnstorable(m.args);
    if (unstorable)
      throw new Rejection(unstorable.code, unstorable.message, { path: unstorable.path });
    // After the depth check: serialising a 10,000-deep value would overflow the stack.
    const limit = marker ? MAX_MUTATION_BYTES + SET_ASIDE_OVERHEAD_BYTES : MAX_MUTATION_BYTES;
    if (jsonBytes(m.args) > limit)
      throw new Rejection(RejectionCode.MUTATION_TOO_LARGE, undefined, { limitBytes: limit });
    // By the mutator's schema, narrowed to the fields the change names (narrow-parse.ts).
    const args = narrowSafeParse(schema, m.args);
    if (!args.success) throw validationRejection(args.error, 'args');
    return { ...m, args: args.data };
  }
}

function snakeCase(name: string): string {
  return name.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);
}

/**
 * A kind's tables are its own, and its two names are one table: the server's database layer
 * maps camelCase to snake_case (CamelCasePlugin), so a `table` that is not the `sqlTable` in
 * camelCase would read another table than the one the wire shape is built from. A table of a
 * kind that is not synced at all is in the way too; the compiler names that one
 * (api/src/plugins/app/record-tables.ts).
 */
function checkTables(def: RecordDefinition, tables: Map<string, string>): void {
  if (snakeCase(def.table) !== def.sqlTable)
    throw new Error(
      `${def.kind}: its table ${def.table} and its sqlTable ${def.sqlTable} must be one name (${snakeCase(def.table)} in SQL)`,
    );
  for (const name of new Set([def.table, def.sqlTable])) {
    const other = tables.get(name);
    if (other !== undefined)
      throw new Error(`Record kinds ${other} and ${def.kind} both use the table ${name}`);
    tables.set(name, def.kind);
  }
}

export function createRegistry(definitions: readonly RecordDefinition[]): Registry {
  return new Registry(definitions);
}
