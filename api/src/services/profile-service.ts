// The signed-in user's own account (issue 11, /profile): profile fields with the §5 user
// update rules (a new email needs the current password and stays unique), the password
// change, and the list of places they are signed in. Sessions are shown by a digest of
// their id, never the id itself (it is the bearer secret the cookie carries).
import { createHash } from 'node:crypto';
import { sql, type Kysely } from 'kysely';
import type { Database, User as UserRow } from '@rescuelog/db/schema';
import { UNIQUE_KEYS, isUniqueViolation } from '@rescuelog/db/errors';
import { ErrorCode } from '@rescuelog/sync-protocol/errors';
import {
  PROFILE_MESSAGES,
  type SessionInfo,
  type profileUpdateSchema,
} from '@rescuelog/sync-protocol/accounts/users';
import type { z } from 'zod';
import { ApiError } from '../lib/api-error';
import type { PasswordHasher } from '../plugins/app/passwords';
import { findUserByEmail, findUserById } from '../repositories/users-repository';

type ProfileUpdate = z.output<typeof profileUpdateSchema>;

export const currentPasswordInvalid = () =>
  new ApiError(400, ErrorCode.CURRENT_PASSWORD_INVALID, PROFILE_MESSAGES.currentPasswordInvalid, {
    fieldErrors: { currentPassword: [PROFILE_MESSAGES.currentPasswordInvalid] },
  });
const emailTaken = () =>
  new ApiError(409, ErrorCode.EMAIL_TAKEN, PROFILE_MESSAGES.emailTaken, {
    fieldErrors: { email: [PROFILE_MESSAGES.emailTaken] },
  });

/** Checks `password` against the user's stored hash; a wrong one is CURRENT_PASSWORD_INVALID. */
export async function confirmPassword(
  passwords: PasswordHasher,
  row: UserRow,
  password: string | undefined,
): Promise<void> {
  if (password === undefined || password === '') {
    throw new ApiError(400, ErrorCode.VALIDATION_FAILED, PROFILE_MESSAGES.currentPasswordRequired, {
      fieldErrors: { currentPassword: [PROFILE_MESSAGES.currentPasswordRequired] },
    });
  }
  if (!(await passwords.verify(row.passwordHash, password))) throw currentPasswordInvalid();
}

export async function updateProfile(
  db: Kysely<Database>,
  passwords: PasswordHasher,
  userId: number,
  input: ProfileUpdate,
): Promise<{ before: UserRow; after: UserRow; changed: Array<keyof UserRow> }> {
  const before = await findUserById(db, userId);
  if (!before) throw new ApiError(404, ErrorCode.NOT_FOUND, 'User not found');
  const { currentPassword, ...fields } = input;
  const changed: Array<keyof typeof fields & keyof UserRow> = (
    Object.keys(fields) as Array<keyof typeof fields>
  ).filter((k) => fields[k] !== undefined && fields[k] !== before[k]);
  if (changed.includes('email')) {
    await confirmPassword(passwords, before, currentPassword);
    const other = await findUserByEmail(db, fields.email ?? '');
    if (other && other.id !== userId) throw emailTaken();
  }
  if (changed.length === 0) return { before, after: before, changed: [] };
  const values = Object.fromEntries(changed.map((k) => [k, fields[k]]));
  try {
    const after = await db
      .updateTable('users')
      .set({ ...values, updatedAt: new Date() })
      .where('id', '=', userId)
      .returningAll()
      .executeTakeFirstOrThrow();
    return { before, after, changed };
  } catch (error) {
    if (isUniqueViolation(error, UNIQUE_KEYS.userEmail)) throw emailTaken();
    throw error;
  }
}

/** The public id of a session: a digest of its id, enough to name it, useless to present. */
export function sessionPublicId(sid: string): string {
  return createHash('sha256').update(sid).digest('hex').slice(0, 32);
}

export async function listSessions(
  db: Kysely<Database>,
  userId: number,
  currentSid: string,
): Promise<SessionInfo[]> {
  const rows = await db
    .selectFrom('sessions')
    .select(['sid', 'data', 'createdAt', 'lastSeenAt'])
    .where('userId', '=', userId)
    .where('expiresAt', '>', sql<Date>`now()`)
    .orderBy('lastSeenAt', 'desc')
    .execute();
  return rows.map((row) => ({
    id: sessionPublicId(row.sid),
    current: row.sid === currentSid,
    createdAt: row.createdAt.toISOString(),
    lastSeenAt: row.lastSeenAt.toISOString(),
    userAgent: typeof row.data.userAgent === 'string' ? row.data.userAgent : null,
    ip: typeof row.data.ip === 'string' ? row.data.ip : null,
  }));
}

/** Ends the user's sessions `which` selects; returns how many ended. */
export async function endSessions(
  db: Kysely<Database>,
  userId: number,
  which: { exceptSid: string } | { publicId: string },
): Promise<number> {
  const rows = await db.selectFrom('sessions').select('sid').where('userId', '=', userId).execute();
  const sids = rows
    .map((r) => r.sid)
    .filter((sid) =>
      'exceptSid' in which ? sid !== which.exceptSid : sessionPublicId(sid) === which.publicId,
    );
  if (sids.length === 0) return 0;
  const result = await db
    .deleteFrom('sessions')
    .where('userId', '=', userId)
    .where('sid', 'in', sids)
    .executeTakeFirst();
  return Number(result.numDeletedRows);
}

export async function changePassword(
  db: Kysely<Database>,
  passwords: PasswordHasher,
  userId: number,
  input: { currentPassword: string; newPassword: string },
): Promise<void> {
  const row = await findUserById(db, userId);
  if (!row) throw new ApiError(404, ErrorCode.NOT_FOUND, 'User not found');
  await confirmPassword(passwords, row, input.currentPassword);
  const passwordHash = await passwords.hash(input.newPassword);
  await db
    .updateTable('users')
    .set({ passwordHash, updatedAt: new Date() })
    .where('id', '=', userId)
    .execute();
}
