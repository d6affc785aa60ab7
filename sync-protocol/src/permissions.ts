// Spec §6: permission modules, their flags, and the one check rule. The API enforces it;
// the web app calls the same function only to hide what a user cannot do.
import { z } from 'zod';
import './zod-config';

export const CRUD_MODULES = [
  'newCase',
  'cprLogger',
  'multiPatient',
  'incidentReports',
  'medicalInventory',
] as const;
export const VIEW_ONLY_MODULES = ['firstAidProtocols'] as const;
export const LOG_MODULES = ['cprLogs', 'casesLogged', 'multiPatientLogs'] as const;
export const BOOLEAN_MODULES = ['userManagement', 'systemAdmin'] as const;

export const PERMISSION_MODULES = [
  ...CRUD_MODULES,
  ...VIEW_ONLY_MODULES,
  ...LOG_MODULES,
  ...BOOLEAN_MODULES,
] as const;
export type PermissionModule = (typeof PERMISSION_MODULES)[number];
export type PermissionAction = 'read' | 'create' | 'edit' | 'delete' | 'view';

/** The flags each module offers, in the order a form shows them. Boolean modules have none. */
export const MODULE_ACTIONS: Record<PermissionModule, readonly PermissionAction[]> = {
  newCase: ['read', 'create', 'edit', 'delete'],
  cprLogger: ['read', 'create', 'edit', 'delete'],
  multiPatient: ['read', 'create', 'edit', 'delete'],
  incidentReports: ['read', 'create', 'edit', 'delete'],
  medicalInventory: ['read', 'create', 'edit', 'delete'],
  firstAidProtocols: ['view'],
  cprLogs: ['view', 'edit', 'delete'],
  casesLogged: ['view', 'edit', 'delete'],
  multiPatientLogs: ['view', 'edit', 'delete'],
  userManagement: [],
  systemAdmin: [],
};

export const MODULE_LABELS: Record<PermissionModule, string> = {
  newCase: 'New Case',
  cprLogger: 'CPR Logger',
  multiPatient: 'Multi-Patient',
  incidentReports: 'Incident Reports',
  medicalInventory: 'Medical Inventory',
  firstAidProtocols: 'First Aid Protocols',
  cprLogs: 'CPR Logs',
  casesLogged: 'Cases Logged',
  multiPatientLogs: 'Multi-Patient Logs',
  userManagement: 'User Management',
  systemAdmin: 'System Administration',
};

const flag = z.boolean().optional();
const unknownFlag = (iss: z.core.$ZodRawIssue) =>
  iss.code === 'unrecognized_keys'
    ? `Unknown permission flag: ${iss.keys.map((k) => `'${k}'`).join(', ')}`
    : undefined;
const crudEntry = z.strictObject(
  { read: flag, create: flag, edit: flag, delete: flag },
  { error: unknownFlag },
);
const viewEntry = z.strictObject({ view: flag }, { error: unknownFlag });
const logEntry = z.strictObject({ view: flag, edit: flag, delete: flag }, { error: unknownFlag });

/**
 * A permissions object as stored on a user or a role. Unknown modules and flags are refused
 * (strict objects), so nothing but these keys ever reaches the database. A boolean entry
 * applies to every action of the module.
 */
export const permissionsSchema = z.strictObject(
  {
    newCase: z.union([z.boolean(), crudEntry]).optional(),
    cprLogger: z.union([z.boolean(), crudEntry]).optional(),
    multiPatient: z.union([z.boolean(), crudEntry]).optional(),
    incidentReports: z.union([z.boolean(), crudEntry]).optional(),
    medicalInventory: z.union([z.boolean(), crudEntry]).optional(),
    firstAidProtocols: z.union([z.boolean(), viewEntry]).optional(),
    cprLogs: z.union([z.boolean(), logEntry]).optional(),
    casesLogged: z.union([z.boolean(), logEntry]).optional(),
    multiPatientLogs: z.union([z.boolean(), logEntry]).optional(),
    userManagement: z.boolean().optional(),
    systemAdmin: z.boolean().optional(),
  },
  {
    error: (iss) =>
      iss.code === 'unrecognized_keys'
        ? `Unknown permission module: ${iss.keys.map((k) => `'${k}'`).join(', ')}`
        : undefined,
  },
);

/**
 * True for the issues a permissions object with an unknown module or flag produces, so the
 * API can answer them with PERMISSION_UNKNOWN rather than a generic validation failure.
 */
export function isUnknownPermissionIssue(issue: {
  code: string;
  path: readonly PropertyKey[];
}): boolean {
  return issue.code === 'unrecognized_keys' && issue.path[0] === 'permissions';
}

export type Permissions = z.infer<typeof permissionsSchema>;

export interface PermissionSubject {
  role: 'administrator' | 'member';
  permissions: Permissions | null | undefined;
}

/**
 * Spec §6 check rule:
 * - no entry for the module: an administrator is allowed; anyone else only 'read' or 'view';
 * - a boolean entry applies to all actions;
 * - otherwise the entry's flag for the action must be true.
 */
export function hasPermission(
  subject: PermissionSubject,
  module: PermissionModule,
  action: PermissionAction,
): boolean {
  const entry: unknown = subject.permissions?.[module];
  if (entry === undefined || entry === null) {
    return subject.role === 'administrator' || action === 'read' || action === 'view';
  }
  if (typeof entry === 'boolean') return entry;
  return (entry as Partial<Record<PermissionAction, boolean | undefined>>)[action] === true;
}

/**
 * The §6 rule where a grant must be explicit (decision 024, least privilege): an entry for the
 * module decides as in hasPermission, and with no entry only an administrator is allowed; a
 * member's "no entry: read or view" default does not apply. Used for seeing other people's
 * patient records (a family's `othersNeedGrant`), where §6's default would show every patient
 * to every member.
 */
export function hasGrantedPermission(
  subject: PermissionSubject,
  module: PermissionModule,
  action: PermissionAction,
): boolean {
  const entry: unknown = subject.permissions?.[module];
  if (entry === undefined || entry === null) return subject.role === 'administrator';
  return hasPermission(subject, module, action);
}

/**
 * A user's own permissions refine those of the role they reference: a module set on the user
 * replaces the role's entry for that module.
 */
export function effectivePermissions(
  rolePermissions: Permissions | null | undefined,
  userPermissions: Permissions | null | undefined,
): Permissions {
  return { ...(rolePermissions ?? {}), ...(userPermissions ?? {}) };
}

/** Where a module's effective entry comes from (decision 020). */
export type PermissionSource = 'user' | 'role' | 'default';

export interface ExplainedModule {
  module: PermissionModule;
  source: PermissionSource;
  /** Each of the module's flags (boolean modules: 'allowed') and whether it is allowed. */
  actions: Partial<Record<PermissionAction | 'allowed', boolean>>;
}

/**
 * What a user may do in every module and where each answer comes from: the user's own entry,
 * their role's entry, or the §6 default for their account role (administrator or member).
 * Uses effectivePermissions and hasPermission, so it cannot disagree with the API's guards.
 */
export function explainPermissions(
  role: PermissionSubject['role'],
  rolePermissions: Permissions | null | undefined,
  userPermissions: Permissions | null | undefined,
): ExplainedModule[] {
  const permissions = effectivePermissions(rolePermissions, userPermissions);
  const subject: PermissionSubject = { role, permissions };
  return PERMISSION_MODULES.map((module) => {
    const source: PermissionSource =
      userPermissions?.[module] !== undefined
        ? 'user'
        : rolePermissions?.[module] !== undefined
          ? 'role'
          : 'default';
    const flags = MODULE_ACTIONS[module];
    const actions: ExplainedModule['actions'] =
      flags.length === 0
        ? // A single boolean grants a power, not a view: with no entry only an administrator has it.
          { allowed: hasPermission(subject, module, 'edit') }
        : Object.fromEntries(flags.map((a) => [a, hasPermission(subject, module, a)]));
    return { module, source, actions };
  });
}

export const explainedModuleSchema = z.object({
  module: z.enum(PERMISSION_MODULES),
  source: z.enum(['user', 'role', 'default']),
  actions: z.record(z.string(), z.boolean()),
});
