// Roles CRUD for administrators (spec §3, §5, §6). System roles (administrator, member) can
// be edited but never renamed or deleted; a role that users reference cannot be deleted.
import type { Kysely } from 'kysely';
import type { Database } from '@rescuelog/db/schema';
import { ErrorCode } from '@rescuelog/sync-protocol/errors';
import { permissionsSchema } from '@rescuelog/sync-protocol/permissions';
import type { Role, roleCreateSchema, roleUpdateSchema } from '@rescuelog/sync-protocol/roles';
import type { z } from 'zod';
import { ApiError } from '../lib/api-error';
import * as roles from '../repositories/roles-repository';
import { UNIQUE_KEYS, isUniqueViolation } from '@rescuelog/db/errors';

type RoleRow = NonNullable<Awaited<ReturnType<typeof roles.findRoleById>>>;

export function toRole(row: RoleRow): Role {
  const permissions = permissionsSchema.safeParse(row.permissions ?? {});
  return {
    id: row.id,
    name: row.name,
    displayName: row.displayName,
    description: row.description,
    // Anything stored that the contract no longer knows is dropped rather than sent on.
    permissions: permissions.success ? permissions.data : {},
    isSystem: row.isSystem,
    createdAt: new Date(row.createdAt).toISOString(),
    updatedAt: new Date(row.updatedAt).toISOString(),
  };
}

const nameTaken = () =>
  new ApiError(409, ErrorCode.ROLE_NAME_TAKEN, 'A role with this name already exists', {
    fieldErrors: { name: ['A role with this name already exists'] },
  });
const roleNotFound = () => new ApiError(404, ErrorCode.NOT_FOUND, 'Role not found');

export async function listRoles(db: Kysely<Database>): Promise<Role[]> {
  return (await roles.listRoles(db)).map(toRole);
}

export async function createRole(
  db: Kysely<Database>,
  input: z.output<typeof roleCreateSchema>,
): Promise<Role> {
  try {
    return await db.transaction().execute(async (trx) => {
      if (await roles.findRoleByName(trx, input.name)) throw nameTaken();
      const row = await roles.insertRole(trx, input);
      return toRole(row);
    });
  } catch (error) {
    // Two administrators creating the same name at once: the unique key decides.
    if (isUniqueViolation(error, UNIQUE_KEYS.roleName)) throw nameTaken();
    throw error;
  }
}

export async function updateRole(
  db: Kysely<Database>,
  id: number,
  input: z.output<typeof roleUpdateSchema>,
): Promise<{ before: Role; after: Role }> {
  try {
    return await db.transaction().execute(async (trx) => {
      const before = await roles.findRoleById(trx, id);
      if (before === undefined) throw roleNotFound();
      if (input.name !== undefined && input.name !== before.name) {
        if (before.isSystem)
          throw new ApiError(
            409,
            ErrorCode.SYSTEM_ROLE_PROTECTED,
            'A system role cannot be renamed',
          );
        if (await roles.findRoleByName(trx, input.name)) throw nameTaken();
      }
      const after = await roles.updateRole(trx, id, {
        ...(input.name !== undefined ? { name: input.name } : {}),
        ...(input.displayName !== undefined ? { displayName: input.displayName } : {}),
        ...(input.description !== undefined ? { description: input.description } : {}),
        ...(input.permissions !== undefined ? { permissions: input.permissions } : {}),
      });
      return { before: toRole(before), after: toRole(after) };
    });
  } catch (error) {
    if (isUniqueViolation(error, UNIQUE_KEYS.roleName)) throw nameTaken();
    throw error;
  }
}

/** Deletes a custom role nobody references; returns what was deleted, for the audit log. */
export async function deleteRole(db: Kysely<Database>, id: number): Promise<Role> {
  return db.transaction().execute(async (trx) => {
    const role = await roles.findRoleById(trx, id);
    if (role === undefined) throw roleNotFound();
    if (role.isSystem)
      throw new ApiError(409, ErrorCode.SYSTEM_ROLE_PROTECTED, 'A system role cannot be deleted');
    const users = await roles.countUsersWithRole(trx, id);
    if (users > 0) {
      throw new ApiError(
        409,
        ErrorCode.ROLE_IN_USE,
        `This role is assigned to ${String(users)} user${users === 1 ? '' : 's'}; assign them another role first`,
      );
    }
    await roles.deleteRole(trx, id);
    return toRole(role);
  });
}
