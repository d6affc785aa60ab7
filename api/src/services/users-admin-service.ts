// The administrator's user management (issue 2, spec §4 and §6; roles: issue 11): list,
// approve with a role, suspend, change role and permissions. The routes audit every change.
// An administrator cannot suspend their own account, and no change may leave the system
// without an approved administrator (LAST_ADMINISTRATOR): the check runs under a lock on the
// administrators' rows, so two administrators demoting each other at once cannot both win.
// A user's `role` (administrator or member, spec §6) follows the role they are assigned:
// the Administrator role makes an administrator, any other role a member.
import { sql, type Kysely, type Transaction } from 'kysely';
import type { Database } from '@rescuelog/db/schema';
import { ErrorCode } from '@rescuelog/sync-protocol/errors';
import type { AdminUserPatch, UserStatus } from '@rescuelog/sync-protocol/accounts/users';
import { ApiError } from '../lib/api-error';
import {
  ADMINISTRATOR_ROLE,
  MEMBER_ROLE,
  RESPONDER_ROLE,
} from '@rescuelog/sync-protocol/accounts/roles';
import { findRoleById, findRoleByName } from '../repositories/roles-repository';

const userNotFound = () => new ApiError(404, ErrorCode.NOT_FOUND, 'User not found');
const ownAccount = (what: string) =>
  new ApiError(409, ErrorCode.CANNOT_CHANGE_OWN_ACCOUNT, `You cannot ${what} your own account`);

/** Pending accounts first (they need action), then newest first. */
/** The users (pending first, newest first), each with the display name of their role. */
export async function listUsers(db: Kysely<Database>, status: UserStatus | undefined) {
  let query = db
    .selectFrom('users')
    .leftJoin('roles', 'roles.id', 'users.roleId')
    .selectAll('users')
    .select('roles.displayName as roleName');
  if (status !== undefined) query = query.where('users.status', '=', status);
  return query
    .orderBy(sql`case when ${sql.ref('users.status')} = 'pending' then 0 else 1 end`)
    .orderBy('users.createdAt', 'desc')
    .orderBy('users.id', 'desc')
    .execute();
}

async function lockUser(db: Transaction<Database>, id: number) {
  const user = await db
    .selectFrom('users')
    .selectAll()
    .where('id', '=', id)
    .forUpdate()
    .executeTakeFirst();
  if (user === undefined) throw userNotFound();
  return user;
}

/** The spec §6 account role a role assignment implies. */
async function accountRoleFor(
  db: Transaction<Database>,
  roleId: number,
): Promise<'administrator' | 'member'> {
  const role = await findRoleById(db, roleId);
  if (role === undefined) {
    throw new ApiError(400, ErrorCode.VALIDATION_FAILED, 'Role not found', {
      fieldErrors: { roleId: ['Role not found'] },
    });
  }
  return role.name === ADMINISTRATOR_ROLE ? 'administrator' : 'member';
}

export const LAST_ADMINISTRATOR_MESSAGE =
  'This is the only administrator: make someone else an administrator first';

/**
 * Refuses a change that takes away the last approved administrator. Locks the approved
 * administrators' rows first, so concurrent demotions are decided one after the other.
 */
async function keepAnAdministrator(
  trx: Transaction<Database>,
  before: { id: number; role: string; status: string },
  after: { role: string; status: string },
): Promise<void> {
  const wasAdmin = before.role === 'administrator' && before.status === 'approved';
  const isAdmin = after.role === 'administrator' && after.status === 'approved';
  if (!wasAdmin || isAdmin) return;
  const others = await trx
    .selectFrom('users')
    .select('id')
    .where('role', '=', 'administrator')
    .where('status', '=', 'approved')
    .where('id', '<>', before.id)
    .forUpdate()
    .execute();
  if (others.length === 0)
    throw new ApiError(409, ErrorCode.LAST_ADMINISTRATOR, LAST_ADMINISTRATOR_MESSAGE);
}

/**
 * The role an approval uses when the administrator names none: System Settings' default role,
 * else Responder, who can do a crew member's job (decision 059), else Member.
 */
export async function approvalRoleId(
  trx: Kysely<Database> | Transaction<Database>,
  configured: number | null,
): Promise<number | null> {
  if (configured !== null && (await findRoleById(trx, configured)) !== undefined) return configured;
  const responder = await findRoleByName(trx, RESPONDER_ROLE);
  return responder?.id ?? (await findRoleByName(trx, MEMBER_ROLE))?.id ?? null;
}

export async function approveUser(
  db: Kysely<Database>,
  id: number,
  options: { roleId?: number | undefined; configuredDefaultRoleId: number | null },
) {
  return db.transaction().execute(async (trx) => {
    const before = await lockUser(trx, id);
    const roleId = options.roleId ?? (await approvalRoleId(trx, options.configuredDefaultRoleId));
    const role = roleId === null ? before.role : await accountRoleFor(trx, roleId);
    const after = await trx
      .updateTable('users')
      .set({ status: 'approved', roleId, role, updatedAt: new Date() })
      .where('id', '=', id)
      .returningAll()
      .executeTakeFirstOrThrow();
    return { before, after };
  });
}

export async function suspendUser(db: Kysely<Database>, actorId: number, id: number) {
  if (id === actorId) throw ownAccount('suspend');
  return db.transaction().execute(async (trx) => {
    const before = await lockUser(trx, id);
    await keepAnAdministrator(trx, before, { role: before.role, status: 'suspended' });
    const after = await trx
      .updateTable('users')
      .set({ status: 'suspended', updatedAt: new Date() })
      .where('id', '=', id)
      .returningAll()
      .executeTakeFirstOrThrow();
    return { before, after };
  });
}

export async function patchUser(db: Kysely<Database>, id: number, patch: AdminUserPatch) {
  return db.transaction().execute(async (trx) => {
    const before = await lockUser(trx, id);
    // A role assignment decides administrator or member; `role` alone (no roleId) still sets
    // the account role directly, and then the Administrator role follows it.
    let role = patch.role;
    let roleId = patch.roleId;
    if (roleId !== undefined && roleId !== null) {
      role = await accountRoleFor(trx, roleId);
    } else if (roleId === undefined && role !== undefined && role !== before.role) {
      const adminRole = await findRoleByName(trx, ADMINISTRATOR_ROLE);
      if (role === 'administrator') roleId = adminRole?.id ?? before.roleId;
      else if (before.roleId !== null && before.roleId === adminRole?.id)
        roleId = (await findRoleByName(trx, MEMBER_ROLE))?.id ?? null;
    }
    await keepAnAdministrator(trx, before, {
      role: role ?? before.role,
      status: before.status,
    });
    const after = await trx
      .updateTable('users')
      .set({
        ...(role !== undefined ? { role } : {}),
        ...(roleId !== undefined ? { roleId } : {}),
        ...(patch.permissions !== undefined
          ? { permissions: JSON.stringify(patch.permissions) }
          : {}),
        updatedAt: new Date(),
      })
      .where('id', '=', id)
      .returningAll()
      .executeTakeFirstOrThrow();
    return { before, after };
  });
}
