import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import {
  MODULE_ACTIONS,
  PERMISSION_MODULES,
  effectivePermissions,
  hasPermission,
  permissionsSchema,
  type PermissionAction,
  type PermissionModule,
} from '../src/permissions';

const ACTIONS: PermissionAction[] = ['read', 'create', 'edit', 'delete', 'view'];

describe('hasPermission (spec §6 check rule)', () => {
  describe('no entry for the module', () => {
    it.each(PERMISSION_MODULES)('an administrator is allowed every action on %s', (module) => {
      for (const action of ACTIONS) {
        expect(hasPermission({ role: 'administrator', permissions: {} }, module, action)).toBe(
          true,
        );
      }
    });

    it.each(PERMISSION_MODULES)('a member may only read or view %s', (module) => {
      const member = { role: 'member' as const, permissions: {} };
      expect(hasPermission(member, module, 'read')).toBe(true);
      expect(hasPermission(member, module, 'view')).toBe(true);
      expect(hasPermission(member, module, 'create')).toBe(false);
      expect(hasPermission(member, module, 'edit')).toBe(false);
      expect(hasPermission(member, module, 'delete')).toBe(false);
    });

    it('treats null or missing permissions as no entry', () => {
      expect(hasPermission({ role: 'member', permissions: null }, 'newCase', 'create')).toBe(false);
      expect(hasPermission({ role: 'member', permissions: undefined }, 'casesLogged', 'view')).toBe(
        true,
      );
      expect(hasPermission({ role: 'administrator', permissions: null }, 'newCase', 'delete')).toBe(
        true,
      );
    });
  });

  describe('boolean entry applies to all actions', () => {
    it('true allows everything, for a member too', () => {
      for (const action of ACTIONS) {
        expect(
          hasPermission(
            { role: 'member', permissions: { userManagement: true } },
            'userManagement',
            action,
          ),
        ).toBe(true);
        expect(
          hasPermission({ role: 'member', permissions: { newCase: true } }, 'newCase', action),
        ).toBe(true);
      }
    });
    it('false denies everything, for an administrator and for read/view too', () => {
      for (const action of ACTIONS) {
        expect(
          hasPermission(
            { role: 'administrator', permissions: { systemAdmin: false } },
            'systemAdmin',
            action,
          ),
        ).toBe(false);
        expect(
          hasPermission(
            { role: 'member', permissions: { casesLogged: false } },
            'casesLogged',
            action,
          ),
        ).toBe(false);
      }
    });
  });

  describe('object entry: the action flag must be true', () => {
    it('allows exactly the flags that are true', () => {
      const member = {
        role: 'member' as const,
        permissions: { newCase: { read: true, create: true, edit: false } },
      };
      expect(hasPermission(member, 'newCase', 'create')).toBe(true);
      expect(hasPermission(member, 'newCase', 'read')).toBe(true);
      expect(hasPermission(member, 'newCase', 'edit')).toBe(false);
      expect(hasPermission(member, 'newCase', 'delete')).toBe(false);
    });
    it('an absent flag is false even for read/view and even for an administrator', () => {
      expect(
        hasPermission(
          { role: 'member', permissions: { casesLogged: { edit: true } } },
          'casesLogged',
          'view',
        ),
      ).toBe(false);
      expect(
        hasPermission(
          { role: 'administrator', permissions: { cprLogger: { read: true } } },
          'cprLogger',
          'create',
        ),
      ).toBe(false);
    });
  });

  it('agrees with a reference model on random inputs', () => {
    const entry = fc.oneof(
      fc.constant(undefined),
      fc.boolean(),
      fc.record({
        read: fc.option(fc.boolean(), { nil: undefined }),
        create: fc.option(fc.boolean(), { nil: undefined }),
        edit: fc.option(fc.boolean(), { nil: undefined }),
        delete: fc.option(fc.boolean(), { nil: undefined }),
        view: fc.option(fc.boolean(), { nil: undefined }),
      }),
    );
    fc.assert(
      fc.property(
        fc.constantFrom('administrator' as const, 'member' as const),
        fc.constantFrom(...PERMISSION_MODULES),
        fc.constantFrom(...ACTIONS),
        entry,
        (role, module, action, e) => {
          const permissions = e === undefined ? {} : { [module]: e };
          const expected =
            e === undefined
              ? role === 'administrator' || action === 'read' || action === 'view'
              : typeof e === 'boolean'
                ? e
                : e[action] === true;
          expect(hasPermission({ role, permissions: permissions as never }, module, action)).toBe(
            expected,
          );
        },
      ),
    );
  });
});

describe('permissionsSchema', () => {
  it('accepts every module with its own flags', () => {
    const all: Record<string, unknown> = {};
    for (const module of PERMISSION_MODULES) {
      const actions = MODULE_ACTIONS[module as PermissionModule];
      all[module] = actions.length === 0 ? true : Object.fromEntries(actions.map((a) => [a, true]));
    }
    expect(permissionsSchema.safeParse(all).success).toBe(true);
  });
  it('refuses unknown modules, unknown flags and prototype keys', () => {
    expect(permissionsSchema.safeParse({ launchMissiles: true }).success).toBe(false);
    expect(permissionsSchema.safeParse({ firstAidProtocols: { create: true } }).success).toBe(
      false,
    );
    expect(permissionsSchema.safeParse({ userManagement: { view: true } }).success).toBe(false);
    expect(permissionsSchema.safeParse(JSON.parse('{"__proto__": {"admin": true}}')).success).toBe(
      false,
    );
  });
});

describe('effectivePermissions', () => {
  it("lets a user's own entry replace the role's entry for that module", () => {
    const merged = effectivePermissions(
      { newCase: true, cprLogger: { read: true } },
      { newCase: { read: true } },
    );
    expect(merged).toEqual({ newCase: { read: true }, cprLogger: { read: true } });
  });
});
