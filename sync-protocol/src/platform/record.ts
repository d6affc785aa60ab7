// One definition per record kind. Everything else is derived from it: the wire and local
// schemas, the server's table and columns, the device's IndexedDB store and indexes, the
// human-readable id, ownership, access (spec §6 modules), the lock, and the mutations with
// their one effect (mutator.ts). The generic engine (client/, api/src/services/sync/) only
// ever reaches a kind through its definition in a registry (registry.ts).
import type { z } from 'zod';
import '../zod-config';
import type { PermissionAction, PermissionModule } from '../permissions';
import type { HumanIdPrefix } from './human-id';
import type { AccessVerb, AnyMutator, Row } from './mutator';
import type { RejectionCode } from './rejections';

/** Who may create, change, delete and see the records of a family (a root kind and its children). */
export interface FamilyAccess {
  /** Covers one's own records: create, edit (or create: the author keeps capturing), delete. */
  module: PermissionModule;
  /** Covers other people's records: view (or `viewAction`), edit, delete. */
  logModule: PermissionModule;
  viewAction: PermissionAction;
  /**
   * Seeing other people's records needs an explicit grant of the log module's view action (a
   * role's or the user's own entry): a member with no entry sees only their own
   * (permissions.ts hasGrantedPermission; decision 024). Patient records set it.
   */
  othersNeedGrant?: boolean;
  /** Whoever holds this also sees every record of the family (and may add children to any). */
  seeAllWith?: readonly [PermissionModule, PermissionAction];
  /** Whoever holds this also changes any record of the family. */
  changeAnyWith?: readonly [PermissionModule, PermissionAction];
  /**
   * What every approved user may do whatever their permissions: a service's own documents
   * every member reads ('see'), a receipt every member writes ('create').
   */
  everyone?: readonly AccessVerb[];
}

export interface DeviceStore {
  /** Dexie index spec after the primary key `id`, e.g. 'caseId, userId'. */
  indexes: string;
}

export interface RecordDefinition<R extends Row = Row> {
  /** Wire name, e.g. 'vitalSign'. */
  kind: string;
  /** For people: 'vital sign' ("The vital sign was deleted."). */
  label: string;
  /** Field labels for people (conflicts, the inbox); a field without one shows its name. */
  fieldLabels?: Readonly<Record<string, string>>;
  /** Kysely/Dexie table name (camelCase), e.g. 'vitalSigns'. */
  table: string;
  /** The SQL table name, e.g. 'vital_signs'. */
  sqlTable: string;
  /** The whole record as the server sends it (pull, push answers). */
  record: z.ZodType<R>;
  /** Fields a new record holds before anything is written (the database's defaults). */
  defaults: Partial<R>;
  /** Last write wins per field, with field versions and conflicts (else: append-only). */
  lww: boolean;
  /** The human-readable number: its column and prefix (human-id.ts). */
  humanId?: { column: string; prefix: HumanIdPrefix };
  /** The parent a child row belongs to: access and visibility follow the parent. */
  parent?: { kind: string; column: string };
  /** Root kinds: the family's access rule. Children inherit their parent's. */
  access?: FamilyAccess;
  /** Who owns a row (default 'userId'); several for rows two people share (conflicts). */
  ownerColumns?: readonly string[];
  /** Rows visible to whoever moderates the kind named in this column (conflicts). */
  moderatedByKindColumn?: string;
  /** A row that accepts no more edits (a completed case), and the code a change gets. */
  lock?: { isLocked(row: Row): boolean; code: RejectionCode };
  /** numeric columns: exact strings from the driver, numbers on the wire. */
  numericColumns?: readonly string[];
  /** Column that records who wrote last (server). */
  updatedByColumn?: string;
  /** The oldest client schema version that knows this kind (pull sends it to those only). */
  sinceSchemaVersion?: number;
  device: DeviceStore;
  mutators: readonly AnyMutator[];
}

/**
 * Declares a kind. The definition keeps its literal type (its name, tables, numeric columns,
 * mutators with their names and argument types), so a registry's types (record-types.ts:
 * the record of each kind, every mutation's args) are derived from its list of definitions,
 * never kept beside it.
 */
export function defineRecord<const D extends RecordDefinition>(definition: D): D {
  return definition;
}
