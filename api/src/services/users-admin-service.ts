// The administrator's user management (issue 2, spec §4 and §6): list, approve, suspend,
// change role and permissions. The routes audit every change. An
// administrator cannot suspend or demote their own account, so the acting administrator
// always remains and the system is never left without one.
import { sql, type Kysely, type Transaction } from 'kysely';
import type { Database } from '@rescuelog/db/schema';
import { ErrorCode } from '@rescuelog/sync-protocol/errors';
import type { AdminUserPatch, UserStatus } from '@rescuelog/sync-protocol/users';
import { ApiError } from '../lib/api-error';
import { findRoleById } from '../repositories/roles-repository';

const userNotFound = () => new ApiError(404, ErrorCode.NOT_FOUND, 'User not found');
const ownAccount = (what: string) =>
  new ApiError(409, ErrorCode.CANNOT_CHANGE_OWN_ACCOUNT, `You cannot ${what} your own account`);

/** Pending accounts first (they need action), then newest first. */
export async function listUsers(db: Kysely<Database>, status: UserStatus | undefined) {
  let query = db.selectFrom('users').selectAll();
  if (status !== undefined) query = query.where('status', '=', status);
  return query
    .orderBy(sql`case when ${sql.ref('status')} = 'pending' then 0 else 1 end`)
    .orderBy('createdAt', 'desc')
    .orderBy('id', 'desc')
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

export async function approveUser(db: Kysely<Database>, id: number) {
  return db.transaction().execute(async (trx) => {
    const before = await lockUser(trx, id);
    const after = await trx
      .updateTable('users')
      .set({ status: 'approved', updatedAt: new Date() })
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
    const after = await trx
      .updateTable('users')
      .set({ status: 'suspended', updatedAt: new Date() })
      .where('id', '=', id)
      .returningAll()
      .executeTakeFirstOrThrow();
    return { before, after };
  });
}

export async function patchUser(
  db: Kysely<Database>,
  actorId: number,
  id: number,
  patch: AdminUserPatch,
) {
  if (id === actorId && patch.role !== undefined && patch.role !== 'administrator')
    throw ownAccount('demote');
  return db.transaction().execute(async (trx) => {
    const before = await lockUser(trx, id);
    if (
      patch.roleId !== undefined &&
      patch.roleId !== null &&
      (await findRoleById(trx, patch.roleId)) === undefined
    ) {
      throw new ApiError(400, ErrorCode.VALIDATION_FAILED, 'Role not found', {
        fieldErrors: { roleId: ['Role not found'] },
      });
    }
    const after = await trx
      .updateTable('users')
      .set({
        ...(patch.role !== undefined ? { role: patch.role } : {}),
        ...(patch.roleId !== undefined ? { roleId: patch.roleId } : {}),
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
