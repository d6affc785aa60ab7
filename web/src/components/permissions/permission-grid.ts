// Permissions as the editors show them (roles on /admin/roles, a member's access on User
// Management): every module with every flag set or not, computed by the one §6 rule
// (sync-protocol hasPermission), and back to an object in which every module is explicit, so
// what an editor shows is exactly what is granted.
import {
  MODULE_ACTIONS,
  PERMISSION_MODULES,
  hasPermission,
  type PermissionAction,
  type PermissionModule,
  type Permissions,
} from '@rescuelog/sync-protocol/permissions';
import { ADMINISTRATOR_ROLE } from '@rescuelog/sync-protocol/accounts/roles';

export type Flags = Partial<Record<PermissionAction, boolean>>;
/** A flag module maps to its flags; a single-boolean module (user management…) to a boolean. */
export type PermissionGrid = Record<PermissionModule, Flags | boolean>;

export const ACTION_LABELS: Record<PermissionAction, string> = {
  read: 'Read',
  create: 'Create',
  edit: 'Edit',
  delete: 'Delete',
  view: 'View',
};

/** The account role a role's members have: the Administrator role's are administrators. */
export function accountRoleOf(roleName: string): 'administrator' | 'member' {
  return roleName === ADMINISTRATOR_ROLE ? 'administrator' : 'member';
}

/** What each module allows an account of `accountRole` with these permissions. */
export function gridOf(
  accountRole: 'administrator' | 'member',
  permissions: Permissions,
): PermissionGrid {
  const subject = { role: accountRole, permissions };
  const grid = {} as PermissionGrid;
  for (const m of PERMISSION_MODULES) {
    const actions = MODULE_ACTIONS[m];
    grid[m] =
      actions.length === 0
        ? // A single boolean is a power: without an entry only an administrator has it.
          hasPermission(subject, m, 'edit')
        : Object.fromEntries(actions.map((a) => [a, hasPermission(subject, m, a)]));
  }
  return grid;
}

/** What the role of this name grants. */
export function toGrid(roleName: string, permissions: Permissions): PermissionGrid {
  return gridOf(accountRoleOf(roleName), permissions);
}

/** One module's entry as stored: every flag explicit. */
export function entryOf(m: PermissionModule, value: Flags | boolean): Flags | boolean {
  return typeof value === 'boolean'
    ? value
    : Object.fromEntries(MODULE_ACTIONS[m].map((a) => [a, value[a] ?? false]));
}

export function sameEntry(m: PermissionModule, a: Flags | boolean, b: Flags | boolean): boolean {
  if (typeof a === 'boolean' || typeof b === 'boolean') return a === b;
  return MODULE_ACTIONS[m].every((x) => (a[x] ?? false) === (b[x] ?? false));
}

export function fromGrid(grid: PermissionGrid): Permissions {
  const out: Record<string, Flags | boolean> = {};
  for (const m of PERMISSION_MODULES) out[m] = entryOf(m, grid[m]);
  return out as Permissions;
}
