// Accounts: the registration, login and profile schemas shared by the web forms and the API
// (spec §3 users, §5 validation), and the User the API returns (never the password hash).
import { z } from 'zod';
import { permissionsSchema } from '../permissions';
import { isoDateSchema as isoDate } from '../primitives';
import '../zod-config';

export const QUALIFICATIONS = [
  'First Aid Level 3',
  'Basic Ambulance Assistant',
  'Ambulance Emergency Assistant',
  'Emergency Care Assistant',
  'Emergency Care Technician',
  'Emergency Care Practitioner',
  'Nurse',
  'Nursing Sister',
  'Medical Doctor',
  'Other',
] as const;
export type Qualification = (typeof QUALIFICATIONS)[number];

export const USER_STATUSES = ['pending', 'approved', 'suspended'] as const;
export type UserStatus = (typeof USER_STATUSES)[number];
export const USER_ROLES = ['administrator', 'member'] as const;
export type UserRole = (typeof USER_ROLES)[number];

export const userStatusSchema = z.enum(USER_STATUSES);
export const userRoleSchema = z.enum(USER_ROLES);

export const MESSAGES = {
  email: 'Valid email address is required',
  password: 'Password must be at least 6 characters',
  passwordRequired: 'Password is required',
  passwordTooLong: 'Password must be at most 128 characters',
  passwordCommon: 'This password is too common; choose one that is harder to guess',
  fullName: 'Full name is required',
  qualifications: 'Qualifications are required',
  qualificationsOther: 'Please describe your qualifications',
  tooLong: (max: number) => `Must be at most ${String(max)} characters`,
} as const;

export const PASSWORD_MIN = 6;
export const PASSWORD_MAX = 128;
export const FULL_NAME_MIN = 2;

const email = z
  .string({ error: MESSAGES.email })
  .trim()
  .toLowerCase()
  .max(254, MESSAGES.email)
  .email({ error: MESSAGES.email });

/** An optional free-text profile field: trimmed, empty means absent. */
function optionalText(max: number) {
  return z
    .string()
    .trim()
    .max(max, MESSAGES.tooLong(max))
    .optional()
    .nullable()
    .transform((v) => (v === undefined || v === null || v === '' ? null : v));
}

const profileFields = {
  fullName: z
    .string({ error: MESSAGES.fullName })
    .trim()
    .min(FULL_NAME_MIN, MESSAGES.fullName)
    .max(120, MESSAGES.tooLong(120)),
  callSign: optionalText(32),
  contactNumber: optionalText(32),
  idNumber: optionalText(32),
  qualificationsOther: optionalText(200),
  nextOfKinName: optionalText(120),
  nextOfKinRelationship: optionalText(60),
  nextOfKinContact: optionalText(32),
};

const qualifications = z.enum(QUALIFICATIONS, { error: MESSAGES.qualifications });

function requireOtherDescription(
  value: {
    qualifications?: Qualification | null | undefined;
    qualificationsOther?: string | null | undefined;
  },
  ctx: z.RefinementCtx,
) {
  if (value.qualifications === 'Other' && !value.qualificationsOther) {
    ctx.addIssue({
      code: 'custom',
      path: ['qualificationsOther'],
      message: MESSAGES.qualificationsOther,
    });
  }
}

/** Tells whether a password is one of the common ones (password-policy.ts, server only). */
export type CommonPasswordCheck = (password: string) => boolean;

/**
 * A password someone chooses: the spec's floor (6 characters) everywhere, and with
 * `isCommon` (the API; the list is too big for the web's bundle) no common password.
 */
export function newPasswordSchema(isCommon?: CommonPasswordCheck) {
  const floor = z
    .string({ error: MESSAGES.password })
    .min(PASSWORD_MIN, MESSAGES.password)
    .max(PASSWORD_MAX, MESSAGES.passwordTooLong);
  return isCommon
    ? floor.refine((p) => p.length < PASSWORD_MIN || !isCommon(p), MESSAGES.passwordCommon)
    : floor;
}

/** POST /api/register (with the common-password check) and the Register tab (without). */
export function buildRegisterSchema(isCommon?: CommonPasswordCheck) {
  return z
    .strictObject({
      email,
      password: newPasswordSchema(isCommon),
      ...profileFields,
      qualifications,
    })
    .superRefine(requireOtherDescription);
}

/** The Register tab. Documents are uploaded after registration succeeds. */
export const registerSchema = buildRegisterSchema();
export type RegisterInput = z.input<typeof registerSchema>;
export type RegisterData = z.output<typeof registerSchema>;

/** POST /api/login and the Sign In tab. */
export const loginSchema = z.strictObject({
  email,
  password: z
    .string({ error: MESSAGES.passwordRequired })
    .min(1, MESSAGES.passwordRequired)
    .max(PASSWORD_MAX, MESSAGES.passwordTooLong),
});
export type LoginInput = z.input<typeof loginSchema>;

/** Spec §5 "User update": the same profile fields, all optional, without password. */
export const userUpdateSchema = z
  .strictObject({
    email: email.optional(),
    ...profileFields,
    fullName: profileFields.fullName.optional(),
    qualifications: qualifications.optional(),
  })
  .partial()
  .superRefine(requireOtherDescription);
export type UserUpdateInput = z.input<typeof userUpdateSchema>;

/** PATCH /api/admin/users/:id: what an administrator may change besides approval. */
export const adminUserPatchSchema = z
  .strictObject({
    role: userRoleSchema.optional(),
    roleId: z.number().int().positive().nullable().optional(),
    permissions: permissionsSchema.optional(),
  })
  .refine((v) => v.role !== undefined || v.roleId !== undefined || v.permissions !== undefined, {
    message: 'Nothing to change',
  });
export type AdminUserPatch = z.infer<typeof adminUserPatchSchema>;

export const userListQuerySchema = z.strictObject({
  status: userStatusSchema.optional(),
});

/** The User the API returns: GET /api/user -> { user }. */
export const publicUserSchema = z.object({
  id: z.number().int(),
  email: z.string(),
  fullName: z.string(),
  callSign: z.string().nullable(),
  contactNumber: z.string().nullable(),
  idNumber: z.string().nullable(),
  qualifications: z.string().nullable(),
  qualificationsOther: z.string().nullable(),
  nextOfKinName: z.string().nullable(),
  nextOfKinRelationship: z.string().nullable(),
  nextOfKinContact: z.string().nullable(),
  idDocumentUrl: z.string().nullable(),
  certificationsUrl: z.string().nullable(),
  roleId: z.number().int().nullable(),
  /** The display name of the role `roleId` names ("Responder"): what the role badges show.
   * Defaults for a copy stored by an earlier build (auth.ts KNOWN_USER_KEY). */
  roleName: z.string().nullable().default(null),
  role: userRoleSchema,
  status: userStatusSchema,
  permissions: permissionsSchema,
  createdAt: isoDate,
  updatedAt: isoDate,
});
export type User = z.output<typeof publicUserSchema>;

export const currentUserResponseSchema = z.object({ user: publicUserSchema });
/** GET /api/session: the signed-in user, or null when no one is (decision 059). */
export const sessionResponseSchema = z.object({ user: publicUserSchema.nullable() });
/**
 * POST /api/register answers only a message (spec §7), the same whether the email was new or
 * already held an account, and signs nobody in: the form signs in next with the same email
 * and password (decision 027).
 */
export const registerResponseSchema = z.object({ message: z.string() });
export const userListResponseSchema = z.object({ users: z.array(publicUserSchema) });

export const REGISTRATION_MESSAGE =
  'Registration received. If this email address is new to us, your account has been created and is pending approval';
export const REGISTRATION_MESSAGE_FIRST_ADMIN = 'Your administrator account has been created';
export const INVALID_CREDENTIALS_MESSAGE = 'Invalid email or password';

/** The in-app notice the holder of an email gets when someone registers with it again. */
export const REGISTRATION_ATTEMPT_NOTICE = {
  title: 'Someone tried to register with your email address',
  message:
    'A new registration was made with the email address of your account. No new account was created and nothing in your account changed. If it was you, sign in with your existing password instead. If it was not, tell an administrator.',
} as const;

// ---------------------------------------------------------------------------------------
// Profile (issue 11, /profile): the signed-in user's own account
// ---------------------------------------------------------------------------------------

export const PROFILE_MESSAGES = {
  currentPasswordRequired: 'Enter your current password to change your email address',
  currentPasswordInvalid: 'Your current password is not correct',
  currentPassword: 'Current password is required',
  emailTaken: 'Another account already uses this email address',
  passwordSame: 'Choose a password different from your current one',
  passwordsDiffer: 'The passwords do not match',
} as const;

/**
 * PATCH /api/user/profile: spec §5 user update (all optional, no password) plus the current
 * password, which the server asks for only when the email address changes.
 */
export const profileUpdateSchema = z
  .strictObject({
    email: email.optional(),
    ...profileFields,
    fullName: profileFields.fullName.optional(),
    qualifications: qualifications.optional(),
    currentPassword: z.string().max(PASSWORD_MAX, MESSAGES.passwordTooLong).optional(),
  })
  .partial()
  .superRefine(requireOtherDescription)
  .refine((v) => Object.entries(v).some(([k, x]) => k !== 'currentPassword' && x !== undefined), {
    message: 'Nothing to change',
  });
export type ProfileUpdateInput = z.input<typeof profileUpdateSchema>;

/** POST /api/user/password (with the common-password check) and the web form (without). */
export function buildPasswordChangeSchema(isCommon?: CommonPasswordCheck) {
  return z
    .strictObject({
      currentPassword: z
        .string({ error: PROFILE_MESSAGES.currentPassword })
        .min(1, PROFILE_MESSAGES.currentPassword)
        .max(PASSWORD_MAX, MESSAGES.passwordTooLong),
      newPassword: newPasswordSchema(isCommon),
    })
    .refine((v) => v.currentPassword !== v.newPassword, {
      path: ['newPassword'],
      message: PROFILE_MESSAGES.passwordSame,
    });
}

/** The web's password form. The web form adds a confirmation field of its own. */
export const passwordChangeSchema = buildPasswordChangeSchema();
export type PasswordChangeInput = z.input<typeof passwordChangeSchema>;

export const passwordChangeResponseSchema = z.object({
  message: z.string(),
  endedSessions: z.number().int().nonnegative(),
});

/** One place the user is signed in. `id` is derived from the session id, never the id itself. */
export const sessionInfoSchema = z.object({
  id: z.string(),
  current: z.boolean(),
  createdAt: isoDate,
  lastSeenAt: isoDate,
  userAgent: z.string().nullable(),
  ip: z.string().nullable(),
});
export type SessionInfo = z.output<typeof sessionInfoSchema>;
export const sessionListResponseSchema = z.object({ sessions: z.array(sessionInfoSchema) });
export const sessionIdParamSchema = z.strictObject({
  id: z.string().regex(/^[a-f0-9]{32}$/, 'Invalid input'),
});
export const endSessionsResponseSchema = z.object({
  message: z.string(),
  endedSessions: z.number().int().nonnegative(),
});
