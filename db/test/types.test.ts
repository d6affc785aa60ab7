// Compile-time checks (tsc over test/ fails on a mismatch) of what callers see: generated
// timestamps select as Date, optional on insert; ids and versions as the drivers return them.
import { describe, expectTypeOf, it } from 'vitest';
import type { Case, NewCase, NewUser, User } from '../src/schema';

describe('row types', () => {
  it('select generated and nullable columns as plain values', () => {
    expectTypeOf<User['createdAt']>().toEqualTypeOf<Date>();
    expectTypeOf<User['status']>().toEqualTypeOf<'pending' | 'approved' | 'suspended'>();
    expectTypeOf<User['permissions']>().toEqualTypeOf<
      Record<string, boolean | Record<string, boolean>>
    >();
    expectTypeOf<Case['version']>().toEqualTypeOf<string>();
    expectTypeOf<Case['incidentLatitude']>().toEqualTypeOf<string | null>();
    expectTypeOf<Case['symptoms']>().toEqualTypeOf<string[]>();
    expectTypeOf<Case['completedAt']>().toEqualTypeOf<Date | null>();
    expectTypeOf<Case['aedUsed']>().toEqualTypeOf<boolean>();
  });

  it('make generated columns optional on insert and take strings or numbers where stated', () => {
    expectTypeOf<{ email: string; passwordHash: string; fullName: string }>().toExtend<NewUser>();
    expectTypeOf<NewCase['createdAt']>().toEqualTypeOf<Date | string | undefined>();
    expectTypeOf<NewCase['incidentLatitude']>().toEqualTypeOf<string | number | null | undefined>();
    expectTypeOf<NewCase['symptoms']>().toEqualTypeOf<string | undefined>();
  });
});
