// The password rules the server applies: the spec's 6-character floor (users.ts) and no
// password from the 10,000 most common ones (NIST SP 800-63B 3.1.1.2: refuse passwords from
// lists of commonly used or breached values). The list is the ranked one that zxcvbn-ts
// ships (@zxcvbn-ts/language-common, MIT), cut to its first 10,000 entries. Server only: the
// web must not import this module into a render chunk (the list is about 380 KB), so the web
// forms check the floor and show the server's answer for the rest.
import { dictionary } from '@zxcvbn-ts/language-common';
import { buildPasswordChangeSchema, buildRegisterSchema, newPasswordSchema } from './users';

export const COMMON_PASSWORD_COUNT = 10_000;

let common: ReadonlySet<string> | undefined;

/** True for a password on the list, compared without regard to letter case. */
export function isCommonPassword(password: string): boolean {
  common ??= new Set(dictionary['passwords-common'].slice(0, COMMON_PASSWORD_COUNT));
  return common.has(password.toLowerCase());
}

/** POST /api/register. */
export const serverRegisterSchema = buildRegisterSchema(isCommonPassword);
/** POST /api/user/password. */
export const serverPasswordChangeSchema = buildPasswordChangeSchema(isCommonPassword);
/** A password an administrator sets (the create-admin command). */
export const serverNewPasswordSchema = newPasswordSchema(isCommonPassword);
