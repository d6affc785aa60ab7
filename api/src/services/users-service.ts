// Accounts: registration (with the first-administrator rule), credential checks, and the
// mapping from a database row to the User the API returns (never the password hash).
import type { Kysely } from 'kysely';
import type { Database, PermissionsJson, User as UserRow } from '@rescuelog/db/schema';
import { UNIQUE_KEYS, isUniqueViolation } from '@rescuelog/db/errors';
import {
  effectivePermissions,
  permissionsSchema,
  type Permissions,
} from '@rescuelog/sync-protocol/permissions';
import {
  REGISTRATION_ATTEMPT_NOTICE,
  type RegisterData,
  type User,
} from '@rescuelog/sync-protocol/accounts/users';
import { ADMINISTRATOR_ROLE } from '@rescuelog/sync-protocol/accounts/roles';
import { notifyUser } from './notifications-service';
import { findRoleByName } from '../repositories/roles-repository';
import type { PasswordHasher } from '../plugins/app/passwords';
import {
  countUsers,
  findUserByEmail,
  insertUser,
  lockUsersForRegistration,
} from '../repositories/users-repository';

/** Stored permissions are parsed, never trusted: anything unknown counts as "no entry". */
export function parsePermissions(value: PermissionsJson | null | undefined): Permissions {
  const result = permissionsSchema.safeParse(value ?? {});
  return result.success ? result.data : {};
}

/**
 * The API's User. With `rolePermissions`, `permissions` is what the check rule applies to:
 * the role's entries overridden by the user's own (sync-protocol effectivePermissions).
 */
export function toPublicUser(
  row: UserRow,
  rolePermissions?: PermissionsJson | null,
  roleName: string | null = null,
): User {
  const own = parsePermissions(row.permissions);
  return {
    id: row.id,
    email: row.email,
    fullName: row.fullName,
    callSign: row.callSign,
    contactNumber: row.contactNumber,
    idNumber: row.idNumber,
    qualifications: row.qualifications,
    qualificationsOther: row.qualificationsOther,
    nextOfKinName: row.nextOfKinName,
    nextOfKinRelationship: row.nextOfKinRelationship,
    nextOfKinContact: row.nextOfKinContact,
    idDocumentUrl: row.idDocumentUrl,
    certificationsUrl: row.certificationsUrl,
    roleId: row.roleId,
    roleName: row.roleId === null ? null : roleName,
    role: row.role,
    status: row.status,
    permissions: rolePermissions
      ? effectivePermissions(parsePermissions(rolePermissions), own)
      : own,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}

export type RegistrationResult =
  | {
      kind: 'created';
      user: UserRow;
      /** True when the first-administrator rule made this account an approved administrator. */
      firstAdministrator: boolean;
    }
  /** The email already holds an account: nothing was created, its owner has been told. */
  | { kind: 'taken'; existing: UserRow };

/**
 * Creates a pending member, or, when `firstUserAdmin` is on and no account exists yet, an
 * approved administrator. The count and the insert happen under one table lock, so two
 * simultaneous first registrations cannot both become administrator. An email that already
 * holds an account creates nothing; its owner gets an in-app notice in the same transaction
 * (decision 027: the caller answers both cases alike).
 */
export async function registerUser(
  db: Kysely<Database>,
  input: RegisterData,
  passwordHash: string,
  options: { firstUserAdmin: boolean },
): Promise<RegistrationResult> {
  const taken = async (trx: Kysely<Database>, existing: UserRow): Promise<RegistrationResult> => {
    await notifyUser(trx, existing.id, REGISTRATION_ATTEMPT_NOTICE);
    return { kind: 'taken', existing };
  };
  try {
    return await db.transaction().execute(async (trx) => {
      await lockUsersForRegistration(trx);
      const existing = await findUserByEmail(trx, input.email);
      if (existing) return taken(trx, existing);
      const firstAdministrator = options.firstUserAdmin && (await countUsers(trx)) === 0;
      const { password: _password, ...profile } = input;
      const user = await insertUser(trx, {
        ...profile,
        email: input.email.toLowerCase(),
        passwordHash,
        role: firstAdministrator ? 'administrator' : 'member',
        // The first administrator holds the Administrator role; others get one at approval.
        roleId: firstAdministrator
          ? ((await findRoleByName(trx, ADMINISTRATOR_ROLE))?.id ?? null)
          : null,
        status: firstAdministrator ? 'approved' : 'pending',
      });
      return { kind: 'created', user, firstAdministrator };
    });
  } catch (error) {
    // Another instance inserted the same email between our check and insert.
    if (isUniqueViolation(error, UNIQUE_KEYS.userEmail)) {
      const existing = await findUserByEmail(db, input.email);
      if (existing) return db.transaction().execute((trx) => taken(trx, existing));
    }
    throw error;
  }
}

export type CredentialCheck =
  | { ok: true; user: UserRow }
  | { ok: false; reason: 'unknown-email' | 'wrong-password'; user: UserRow | undefined };

/** Verifies email and password in constant-ish time whether or not the account exists. */
export async function checkCredentials(
  db: Kysely<Database>,
  passwords: PasswordHasher,
  email: string,
  password: string,
): Promise<CredentialCheck> {
  return verifyCredentials(passwords, await findUserByEmail(db, email), password);
}

/** checkCredentials for an account already looked up (undefined: no such email). */
export async function verifyCredentials(
  passwords: PasswordHasher,
  user: UserRow | undefined,
  password: string,
): Promise<CredentialCheck> {
  if (!user) {
    await passwords.verifyDummy(password);
    return { ok: false, reason: 'unknown-email', user: undefined };
  }
  if (!(await passwords.verify(user.passwordHash, password)))
    return { ok: false, reason: 'wrong-password', user };
  return { ok: true, user };
}
