// Who may create, change, delete and see which records, from the §6 permission rule
// (permissions.ts hasPermission) plus ownership, for any kind through its family's rule
// (record.ts FamilyAccess):
// - create: the module's `create`;
// - change one's own record: the module's `create` or `edit`; delete one's own: `delete`;
// - change or delete another person's record: the log module's `edit` / `delete`, or
//   `changeAnyWith`;
// - see others' records: the log module's view action, or `seeAllWith`; for a family with
//   `othersNeedGrant` (patient records) the view must be granted by an entry, not §6's
//   member default (decision 024). Pull, the case routes, search and export all ask here;
// - a verb in `everyone` is every approved user's (internal SOPs: decision 080).
import {
  hasGrantedPermission,
  hasPermission,
  type PermissionAction,
  type PermissionModule,
} from '../permissions';
import type { PermissionSubject } from '../permissions';
import type { AccessVerb, Row } from './mutator';
import type { FamilyAccess } from './record';
import { RejectionCode } from './rejections';

export interface Actor extends PermissionSubject {
  id: number;
}

export type AccessDecision =
  | { allowed: true }
  | { allowed: false; code: RejectionCode; module: PermissionModule; action: PermissionAction };

const ALLOWED: AccessDecision = { allowed: true };

function decide(
  actor: Actor,
  module: PermissionModule,
  action: PermissionAction,
  code: RejectionCode,
): AccessDecision {
  return hasPermission(actor, module, action) ? ALLOWED : { allowed: false, code, module, action };
}

/** Sees every record of the family, not only their own. */
export function canSeeAll(actor: PermissionSubject, access: FamilyAccess): boolean {
  if (access.everyone?.includes('see') === true) return true;
  const check = access.othersNeedGrant === true ? hasGrantedPermission : hasPermission;
  if (check(actor, access.logModule, access.viewAction)) return true;
  return access.seeAllWith !== undefined && hasPermission(actor, ...access.seeAllWith);
}

/** May change anyone's record of the family (and so settle its conflicts). */
export function canChangeAny(actor: Actor, access: FamilyAccess): boolean {
  if (hasPermission(actor, access.logModule, 'edit')) return true;
  return access.changeAnyWith !== undefined && hasPermission(actor, ...access.changeAnyWith);
}

/** The decision for `verb` on a record owned by `ownerIds` (none: a new record). */
export function decideAccess(
  actor: Actor,
  access: FamilyAccess,
  verb: AccessVerb,
  ownerIds: readonly number[],
): AccessDecision {
  const own = ownerIds.includes(actor.id);
  if (access.everyone?.includes(verb) === true) return ALLOWED;
  switch (verb) {
    case 'create':
      return decide(actor, access.module, 'create', RejectionCode.FORBIDDEN);
    case 'see':
      return own || canSeeAll(actor, access)
        ? ALLOWED
        : {
            allowed: false,
            code: RejectionCode.FORBIDDEN,
            module: access.logModule,
            action: access.viewAction,
          };
    case 'change':
      if (own)
        return hasPermission(actor, access.module, 'create')
          ? ALLOWED
          : decide(actor, access.module, 'edit', RejectionCode.FORBIDDEN);
      if (access.changeAnyWith !== undefined && hasPermission(actor, ...access.changeAnyWith))
        return ALLOWED;
      return decide(actor, access.logModule, 'edit', RejectionCode.NOT_OWNER);
    case 'delete':
      if (own) return decide(actor, access.module, 'delete', RejectionCode.FORBIDDEN);
      return decide(actor, access.logModule, 'delete', RejectionCode.NOT_OWNER);
  }
}

/** The owners of a row by the definition's owner columns. */
export function ownersOf(row: Row | undefined, ownerColumns: readonly string[]): number[] {
  if (!row) return [];
  return ownerColumns
    .map((column) => row[column])
    .filter((v): v is number | string => typeof v === 'number' || typeof v === 'string')
    .map(Number);
}
