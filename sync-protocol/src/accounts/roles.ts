// Roles (spec §3 roles, §5 role validation). System roles cannot be deleted or renamed; their
// permissions can be edited. A user's effective permissions are their role's, overridden per
// module by their own entries (decision 020, permissions.ts effectivePermissions).
import { z } from 'zod';
import { explainedModuleSchema, permissionsSchema, type Permissions } from '../permissions';
import { isoDateSchema as isoDate } from '../primitives';
import '../zod-config';

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
  /** How many accounts reference the role (the list and the delete dialog show it). */
  userCount: z.number().int().nonnegative().optional(),
  createdAt: isoDate,
  updatedAt: isoDate,
});
export type Role = z.output<typeof roleSchema>;
export const roleListResponseSchema = z.object({
  roles: z.array(roleSchema),
  /** The role an approval gives when the administrator picks none (decision 059). */
  approvalRoleId: z.number().int().nullable().default(null),
});

/** Route parameter `:id` for users, roles and other integer-keyed administrative records. */
export const idParamSchema = z.strictObject({
  id: z.coerce.number().int().positive().max(2147483647),
});

/** The role whose members are administrators (spec §6 role 'administrator'). */
export const ADMINISTRATOR_ROLE = 'administrator';
/** Reads and views, creates nothing (spec §6 defaults); a demoted administrator's role. */
export const MEMBER_ROLE = 'member';
/** The role an approval uses when System Settings name no default role (decision 059). */
export const RESPONDER_ROLE = 'responder';

/**
 * The system roles a new system starts with (migration 2026-11-24T1100 seeds the same for
 * existing systems; it keeps its own copy, migrations never import app code). Administrator
 * and Member have no entries: §6's defaults apply (everything, resp. read and view only).
 */
export const SYSTEM_ROLES: ReadonlyArray<{
  name: string;
  displayName: string;
  description: string;
  permissions: Permissions;
}> = [
  {
    name: ADMINISTRATOR_ROLE,
    displayName: 'Administrator',
    description: 'Full access, including user and system administration',
    permissions: {},
  },
  {
    name: MEMBER_ROLE,
    displayName: 'Member',
    description: 'Rescue and medical personnel',
    permissions: {},
  },
  {
    name: RESPONDER_ROLE,
    displayName: 'Responder',
    description: 'Documents patients, CPR, incidents and reports; sees the logs',
    permissions: {
      newCase: { read: true, create: true },
      cprLogger: { read: true, create: true },
      multiPatient: { read: true, create: true },
      incidentReports: { read: true, create: true },
      medicalInventory: { read: true },
      firstAidProtocols: { view: true },
      cprLogs: { view: true },
      // No Cases Logged entry: their own cases only; colleagues' patients are an explicit
      // grant (decisions 024, 059). Systems from before 059 keep the grant they had.
      multiPatientLogs: { view: true },
      userManagement: false,
      systemAdmin: false,
    },
  },
  {
    name: 'observer',
    displayName: 'Observer',
    description: 'Sees records and logs but cannot create or change anything',
    permissions: {
      newCase: { read: true },
      cprLogger: { read: true },
      multiPatient: { read: true },
      incidentReports: { read: true },
      medicalInventory: { read: true },
      firstAidProtocols: { view: true },
      cprLogs: { view: true },
      casesLogged: { view: true },
      multiPatientLogs: { view: true },
      userManagement: false,
      systemAdmin: false,
    },
  },
  {
    name: 'stores',
    displayName: 'Stores',
    description: 'Manages the medical inventory; no access to patient records',
    permissions: {
      newCase: false,
      cprLogger: false,
      multiPatient: false,
      incidentReports: false,
      medicalInventory: true,
      firstAidProtocols: { view: true },
      cprLogs: false,
      casesLogged: false,
      multiPatientLogs: false,
      userManagement: false,
      systemAdmin: false,
    },
  },
];

/** DELETE /api/admin/roles/:id?reassignTo=<role id>: where the role's users move to. */
export const roleDeleteQuerySchema = z.strictObject({
  reassignTo: z.coerce
    .number({ error: 'Choose the role its users move to' })
    .int('Choose the role its users move to')
    .positive('Choose the role its users move to')
    .max(2147483647)
    .optional(),
});

export const roleDeleteResponseSchema = z.object({
  message: z.string(),
  role: roleSchema,
  reassigned: z.number().int().nonnegative(),
});

/** POST /api/admin/users/:id/approve: the role to approve with (default: the configured one). */
export const approveUserSchema = z
  .strictObject({ roleId: z.number().int().positive().max(2147483647).optional() })
  .optional();

/** GET /api/admin/users/:id/permissions: each module's effective flags and their source. */
export const effectivePermissionsResponseSchema = z.object({
  role: z.enum(['administrator', 'member']),
  assignedRole: z
    .object({ id: z.number().int(), name: z.string(), displayName: z.string() })
    .nullable(),
  modules: z.array(explainedModuleSchema),
});
export type EffectivePermissionsResponse = z.output<typeof effectivePermissionsResponseSchema>;
