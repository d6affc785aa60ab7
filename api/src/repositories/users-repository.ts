// Queries on `users`. Each takes a Kysely instance or a transaction, so a service can combine
// several of them in one transaction. Rows (with the password hash) stop at the service layer.
import { sql, type Kysely, type Transaction } from 'kysely';
import type { Database, NewUser, PermissionsJson, User as UserRow } from '@rescuelog/db/schema';

export type Executor = Kysely<Database> | Transaction<Database>;

export interface UserWithRolePermissions {
  user: UserRow;
  rolePermissions: PermissionsJson | null;
  /** The display name of the user's role, null without one. */
  roleName: string | null;
}

export async function findUserByEmail(db: Executor, email: string): Promise<UserRow | undefined> {
  return db
    .selectFrom('users')
    .selectAll()
    .where(sql<string>`lower(email)`, '=', email.toLowerCase())
    .executeTakeFirst();
}

export async function findUserById(db: Executor, id: number): Promise<UserRow | undefined> {
  return db.selectFrom('users').selectAll().where('id', '=', id).executeTakeFirst();
}

/** The user and the permissions of the role they reference (if any), in one query. */
export async function findUserWithRolePermissions(
  db: Executor,
  id: number,
): Promise<UserWithRolePermissions | undefined> {
  const row = await db
    .selectFrom('users')
    .leftJoin('roles', 'roles.id', 'users.roleId')
    .selectAll('users')
    .select(['roles.permissions as rolePermissions', 'roles.displayName as roleName'])
    .where('users.id', '=', id)
    .executeTakeFirst();
  if (!row) return undefined;
  const { rolePermissions, roleName, ...user } = row;
  return { user, rolePermissions: rolePermissions ?? null, roleName: roleName ?? null };
}

/**
 * findUserWithRolePermissions plus the session cache's epoch read in the same statement (one
 * snapshot), so the cache knows how current the row is (lib/auth-cache.ts).
 */
export async function findUserWithRolePermissionsAndEpoch(
  db: Executor,
  id: number,
): Promise<(UserWithRolePermissions & { epoch: string }) | undefined> {
  const row = await db
    .selectFrom('users')
    .leftJoin('roles', 'roles.id', 'users.roleId')
    .selectAll('users')
    .select(['roles.permissions as rolePermissions', 'roles.displayName as roleName'])
    .select(sql<string>`(select epoch::text from auth_epoch)`.as('authEpoch'))
    .where('users.id', '=', id)
    .executeTakeFirst();
  if (!row) return undefined;
  const { rolePermissions, roleName, authEpoch, ...user } = row;
  return {
    user,
    rolePermissions: rolePermissions ?? null,
    roleName: roleName ?? null,
    epoch: authEpoch,
  };
}

export async function insertUser(db: Executor, values: NewUser): Promise<UserRow> {
  return db.insertInto('users').values(values).returningAll().executeTakeFirstOrThrow();
}

export async function countUsers(db: Executor): Promise<number> {
  const row = await db
    .selectFrom('users')
    .select((eb) => eb.fn.countAll<string>().as('count'))
    .executeTakeFirstOrThrow();
  return Number(row.count);
}

/**
 * Serialises registrations for the rest of the transaction (the mode conflicts with itself and
 * with writes, not with reads), so "is this the first user?" and the insert cannot interleave.
 */
export async function lockUsersForRegistration(trx: Transaction<Database>): Promise<void> {
  await sql`lock table users in share row exclusive mode`.execute(trx);
}

export async function updateUserRoleAndStatus(
  db: Executor,
  id: number,
  values: Pick<NewUser, 'role' | 'status'>,
): Promise<UserRow | undefined> {
  return db
    .updateTable('users')
    .set({ ...values, updatedAt: new Date() })
    .where('id', '=', id)
    .returningAll()
    .executeTakeFirst();
}
