// Roles CRUD for administrators (spec §3, §5, §6; issue 11). System roles can be edited but
// never renamed or deleted. A role that users reference is deleted only with a role to move
// them to (reassignTo); the default role for new members is not deleted at all. A change of
// a role's permissions applies to its users at their next request (the API reads the role
// with the user on every request).
import type { Kysely } from 'kysely';
import type { Database } from '@rescuelog/db/schema';
import { ErrorCode } from '@rescuelog/sync-protocol/errors';
import { permissionsSchema } from '@rescuelog/sync-protocol/permissions';
import {
  ADMINISTRATOR_ROLE,
  type Role,
  type roleCreateSchema,
  type roleUpdateSchema,
} from '@rescuelog/sync-protocol/accounts/roles';
import type { z } from 'zod';
import { ApiError } from '../lib/api-error';
import * as roles from '../repositories/roles-repository';
import { UNIQUE_KEYS, isUniqueViolation } from '@rescuelog/db/errors';

type RoleRow = NonNullable<Awaited<ReturnType<typeof roles.findRoleById>>>;

export function toRole(row: RoleRow & { userCount?: string | number | null }): Role {
  const permissions = permissionsSchema.safeParse(row.permissions ?? {});
  return {
    id: row.id,
    name: row.name,
    displayName: row.displayName,
    description: row.description,
    // Anything stored that the contract no longer knows is dropped rather than sent on.
    permissions: permissions.success ? permissions.data : {},
    isSystem: row.isSystem,
    ...(row.userCount !== undefined ? { userCount: Number(row.userCount ?? 0) } : {}),
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

export interface RoleDeletion {
  role: Role;
  reassignedTo: Role | null;
  reassignedUserIds: number[];
}

/**
 * Deletes a custom role. Its users move to `reassignTo` (required when it has any), with the
 * account role that role implies. Returns what was deleted and who moved, for the audit log.
 */
export async function deleteRole(
  db: Kysely<Database>,
  id: number,
  options: { reassignTo?: number | undefined; defaultRoleId: number | null },
): Promise<RoleDeletion> {
  return db.transaction().execute(async (trx) => {
    const role = await roles.findRoleById(trx, id);
    if (role === undefined) throw roleNotFound();
    if (role.isSystem)
      throw new ApiError(409, ErrorCode.SYSTEM_ROLE_PROTECTED, 'A system role cannot be deleted');
    if (options.defaultRoleId === id) {
      throw new ApiError(
        409,
        ErrorCode.ROLE_IN_USE,
        'This is the default role for new members; choose another default in System Settings first',
      );
    }
    const users = await roles.countUsersWithRole(trx, id);
    let reassignedTo: RoleRow | undefined;
    let reassignedUserIds: number[] = [];
    if (users > 0) {
      if (options.reassignTo === undefined) {
        throw new ApiError(
          409,
          ErrorCode.ROLE_IN_USE,
          `This role is assigned to ${String(users)} user${users === 1 ? '' : 's'}; choose a role to move them to`,
        );
      }
      if (options.reassignTo === id) {
        throw new ApiError(
          400,
          ErrorCode.VALIDATION_FAILED,
          'Choose another role to move them to',
          {
            fieldErrors: { reassignTo: ['Choose another role to move them to'] },
          },
        );
      }
      reassignedTo = await roles.findRoleById(trx, options.reassignTo);
      if (reassignedTo === undefined) {
        throw new ApiError(400, ErrorCode.VALIDATION_FAILED, 'Role not found', {
          fieldErrors: { reassignTo: ['Role not found'] },
        });
      }
      reassignedUserIds = await roles.reassignUsers(
        trx,
        id,
        reassignedTo.id,
        reassignedTo.name === ADMINISTRATOR_ROLE ? 'administrator' : 'member',
      );
    }
    await roles.deleteRole(trx, id);
    return {
      role: toRole(role),
      reassignedTo: reassignedTo ? toRole(reassignedTo) : null,
      reassignedUserIds,
    };
  });
}
