// The common-password rule: the first 10,000 of zxcvbn-ts's ranked list, any letter case,
// only on the server's schemas (the web's registerSchema keeps the spec's floor alone).
import { dictionary } from '@zxcvbn-ts/language-common';
import { describe, expect, it } from 'vitest';
import {
  COMMON_PASSWORD_COUNT,
  isCommonPassword,
  serverRegisterSchema,
} from '../src/accounts/password-policy';
import { MESSAGES, registerSchema } from '../src/accounts/users';

const form = (password: string) => ({
  email: 'sipho@example.org',
  password,
  fullName: 'Sipho Dlamini',
  qualifications: 'Nurse',
});

describe('common passwords', () => {
  const ranked = dictionary['passwords-common'];

  it('refuses the first 10,000 of the ranked list, in any letter case, and nothing after them', () => {
    expect(COMMON_PASSWORD_COUNT).toBe(10_000);
    expect(isCommonPassword('123456')).toBe(true);
    expect(isCommonPassword('PassWord1')).toBe(true);
    const last = ranked[COMMON_PASSWORD_COUNT - 1] ?? '';
    expect(isCommonPassword(last)).toBe(true);
    const firstIn = new Set(ranked.slice(0, COMMON_PASSWORD_COUNT));
    const later = ranked.slice(COMMON_PASSWORD_COUNT).find((p) => !firstIn.has(p)) ?? '';
    expect(later).not.toBe('');
    expect(isCommonPassword(later)).toBe(false);
    expect(isCommonPassword('kx7#qp')).toBe(false);
  });

  it('the server schema says why; the floor message wins for a short one; the web schema keeps the floor only', () => {
    const common = serverRegisterSchema.safeParse(form('sunshine'));
    expect(common.success).toBe(false);
    expect(common.error?.issues.map((i) => i.message)).toEqual([MESSAGES.passwordCommon]);
    const short = serverRegisterSchema.safeParse(form('12345'));
    expect(short.error?.issues.map((i) => i.message)).toEqual([MESSAGES.password]);
    expect(registerSchema.safeParse(form('sunshine')).success).toBe(true);
    expect(serverRegisterSchema.safeParse(form('kx7#qp')).success).toBe(true);
  });
});
