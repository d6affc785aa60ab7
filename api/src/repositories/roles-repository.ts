// The `roles` table (spec §3). Permissions are jsonb and come back exactly as stored.
import type { Kysely, Transaction } from 'kysely';
import type { Database } from '@rescuelog/db/schema';
import type { Permissions } from '@rescuelog/sync-protocol/permissions';

type Db = Kysely<Database> | Transaction<Database>;

const columns = [
  'id',
  'name',
  'displayName',
  'description',
  'permissions',
  'isSystem',
  'createdAt',
  'updatedAt',
] as const;

/** Every role with how many accounts reference it. */
export async function listRoles(db: Db) {
  return db
    .selectFrom('roles')
    .select(columns.map((c) => `roles.${c}` as const))
    .select((eb) =>
      eb
        .selectFrom('users')
        .select(eb.fn.countAll<string>().as('n'))
        .whereRef('users.roleId', '=', 'roles.id')
        .as('userCount'),
    )
    .orderBy('roles.isSystem', 'desc')
    .orderBy('roles.name')
    .execute();
}

/** Moves every user of role `from` to role `to`, with the account role `to` implies. */
export async function reassignUsers(
  db: Db,
  from: number,
  to: number,
  accountRole: 'administrator' | 'member',
): Promise<number[]> {
  const rows = await db
    .updateTable('users')
    .set({ roleId: to, role: accountRole, updatedAt: new Date() })
    .where('roleId', '=', from)
    .returning('id')
    .execute();
  return rows.map((r) => r.id);
}

export async function findRoleById(db: Db, id: number) {
  return db.selectFrom('roles').select(columns).where('id', '=', id).executeTakeFirst();
}

export async function findRoleByName(db: Db, name: string) {
  return db.selectFrom('roles').select(['id']).where('name', '=', name).executeTakeFirst();
}

export async function insertRole(
  db: Db,
  values: {
    name: string;
    displayName: string;
    description?: string | null | undefined;
    permissions: Permissions;
  },
) {
  return db
    .insertInto('roles')
    .values({
      ...values,
      description: values.description ?? null,
      permissions: JSON.stringify(values.permissions),
    })
    .returning(columns)
    .executeTakeFirstOrThrow();
}

export async function updateRole(
  db: Db,
  id: number,
  values: {
    name?: string;
    displayName?: string;
    description?: string | null;
    permissions?: Permissions;
  },
) {
  const { permissions, ...rest } = values;
  return db
    .updateTable('roles')
    .set({
      ...rest,
      ...(permissions !== undefined ? { permissions: JSON.stringify(permissions) } : {}),
      updatedAt: new Date(),
    })
    .where('id', '=', id)
    .returning(columns)
    .executeTakeFirstOrThrow();
}

export async function deleteRole(db: Db, id: number) {
  await db.deleteFrom('roles').where('id', '=', id).execute();
}

export async function countUsersWithRole(db: Db, id: number): Promise<number> {
  const row = await db
    .selectFrom('users')
    .select((eb) => eb.fn.countAll<string>().as('count'))
    .where('roleId', '=', id)
    .executeTakeFirstOrThrow();
  return Number(row.count);
}
