// Roles (spec §3 roles, §5 role validation). System roles (administrator, member) cannot be deleted.
import { z } from 'zod';
import { permissionsSchema } from './permissions';
import { isoDateSchema as isoDate } from './primitives';
import './zod-config';

export const ROLE_MESSAGES = {
  name: 'Role name is required',
  nameFormat: 'Role name may contain only lower-case letters, digits, hyphens and underscores',
  displayName: 'Display name is required',
} as const;

const roleName = z
  .string({ error: ROLE_MESSAGES.name })
  .trim()
  .min(1, ROLE_MESSAGES.name)
  .max(50, 'Role name must be at most 50 characters')
  .regex(/^[a-z0-9_-]+$/, ROLE_MESSAGES.nameFormat);
const displayName = z
  .string({ error: ROLE_MESSAGES.displayName })
  .trim()
  .min(1, ROLE_MESSAGES.displayName)
  .max(100, 'Display name must be at most 100 characters');
const description = z
  .string()
  .trim()
  .max(500, 'Description must be at most 500 characters')
  .nullable()
  .optional()
  .transform((v) => (v ? v : null));
/** For updates: absent stays absent (a PATCH without it keeps the stored text); empty or null clears it. */
const descriptionUpdate = z
  .string()
  .trim()
  .max(500, 'Description must be at most 500 characters')
  .nullable()
  .optional()
  .transform((v) => (v === undefined ? undefined : v ? v : null));

export const roleCreateSchema = z.strictObject({
  name: roleName,
  displayName,
  description,
  permissions: permissionsSchema.default({}),
});
export type RoleCreateInput = z.input<typeof roleCreateSchema>;

export const roleUpdateSchema = z
  .strictObject({
    name: roleName.optional(),
    displayName: displayName.optional(),
    description: descriptionUpdate,
    permissions: permissionsSchema.optional(),
  })
  .refine((v) => Object.values(v).some((x) => x !== undefined), { message: 'Nothing to change' });
export type RoleUpdateInput = z.input<typeof roleUpdateSchema>;

export const roleSchema = z.object({
  id: z.number().int(),
  name: z.string(),
  displayName: z.string(),
  description: z.string().nullable(),
  permissions: permissionsSchema,
  isSystem: z.boolean(),
  createdAt: isoDate,
  updatedAt: isoDate,
});
export type Role = z.output<typeof roleSchema>;
export const roleListResponseSchema = z.object({ roles: z.array(roleSchema) });

/** Route parameter `:id` for users, roles and other integer-keyed administrative records. */
export const idParamSchema = z.strictObject({
  id: z.coerce.number().int().positive().max(2147483647),
});
