import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import {
  MODULE_ACTIONS,
  PERMISSION_MODULES,
  effectivePermissions,
  explainPermissions,
  hasGrantedPermission,
  hasPermission,
  isUnknownPermissionIssue,
  permissionsSchema,
  type PermissionAction,
  type PermissionModule,
  type PermissionSource,
  type Permissions,
} from '../src/permissions';
import { SYSTEM_ROLES } from '../src/accounts/roles';
import { canSeeAll } from '../src/platform/access';
import { CASE_ACCESS } from '../src/cases/case';

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

describe('effective permissions: the role, overridden per module by the user (decision 020)', () => {
  // [case, account role, role entries, user entries, module, action, allowed, source]
  const table: Array<
    [
      string,
      'administrator' | 'member',
      Permissions,
      Permissions,
      PermissionModule,
      PermissionAction,
      boolean,
      PermissionSource,
    ]
  > = [
    [
      'role flag grants',
      'member',
      { newCase: { create: true } },
      {},
      'newCase',
      'create',
      true,
      'role',
    ],
    [
      'role flag absent denies',
      'member',
      { newCase: { read: true } },
      {},
      'newCase',
      'create',
      false,
      'role',
    ],
    [
      'role entry withholds a default view',
      'member',
      { casesLogged: { edit: true } },
      {},
      'casesLogged',
      'view',
      false,
      'role',
    ],
    [
      'user entry replaces the role entry',
      'member',
      { newCase: { create: true } },
      { newCase: { read: true } },
      'newCase',
      'create',
      false,
      'user',
    ],
    [
      'user entry grants what the role does not',
      'member',
      { cprLogger: false },
      { cprLogger: { create: true } },
      'cprLogger',
      'create',
      true,
      'user',
    ],
    [
      'role boolean true applies to all actions',
      'member',
      { medicalInventory: true },
      {},
      'medicalInventory',
      'delete',
      true,
      'role',
    ],
    [
      'user boolean false overrides a role true',
      'member',
      { medicalInventory: true },
      { medicalInventory: false },
      'medicalInventory',
      'read',
      false,
      'user',
    ],
    [
      'missing entry: a member may read',
      'member',
      {},
      {},
      'incidentReports',
      'read',
      true,
      'default',
    ],
    ['missing entry: a member may view', 'member', {}, {}, 'cprLogs', 'view', true, 'default'],
    [
      'missing entry: a member may not create',
      'member',
      {},
      {},
      'incidentReports',
      'create',
      false,
      'default',
    ],
    [
      'missing entry: an administrator may do anything',
      'administrator',
      {},
      {},
      'multiPatientLogs',
      'delete',
      true,
      'default',
    ],
    [
      'an administrator role entry binds administrators too',
      'administrator',
      { systemAdmin: false },
      {},
      'systemAdmin',
      'edit',
      false,
      'role',
    ],
    [
      'an administrator user entry binds them too',
      'administrator',
      {},
      { newCase: { read: true } },
      'newCase',
      'delete',
      false,
      'user',
    ],
    [
      'null role permissions count as none',
      'member',
      null as unknown as Permissions,
      { newCase: true },
      'newCase',
      'create',
      true,
      'user',
    ],
  ];

  it.each(table)('%s', (_case, role, rolePerms, userPerms, module, action, allowed, source) => {
    const permissions = effectivePermissions(rolePerms, userPerms);
    expect(hasPermission({ role, permissions }, module, action)).toBe(allowed);
    const explained = explainPermissions(role, rolePerms, userPerms).find(
      (m) => m.module === module,
    );
    expect(explained?.source).toBe(source);
    const flag = MODULE_ACTIONS[module].length === 0 ? 'allowed' : action;
    if (MODULE_ACTIONS[module].includes(action) || flag === 'allowed')
      expect(explained?.actions[flag]).toBe(allowed);
  });

  it('explains every module, single-boolean modules as one "allowed" power', () => {
    const explained = explainPermissions('member', {}, {});
    expect(explained.map((m) => m.module)).toEqual([...PERMISSION_MODULES]);
    expect(explained.find((m) => m.module === 'userManagement')?.actions).toEqual({
      allowed: false,
    });
    expect(
      explainPermissions('administrator', {}, {}).find((m) => m.module === 'systemAdmin')?.actions,
    ).toEqual({ allowed: true });
  });

  it('gives the seeded system roles what their descriptions say', () => {
    const byName = Object.fromEntries(SYSTEM_ROLES.map((r) => [r.name, r.permissions]));
    const can = (role: string, module: PermissionModule, action: PermissionAction) =>
      hasPermission({ role: 'member', permissions: byName[role] ?? {} }, module, action);
    for (const m of ['newCase', 'cprLogger', 'multiPatient', 'incidentReports'] as const) {
      expect(can('responder', m, 'create')).toBe(true);
      expect(can('observer', m, 'create')).toBe(false);
      expect(can('observer', m, 'read')).toBe(true);
      expect(can('stores', m, 'read')).toBe(false);
    }
    expect(can('observer', 'casesLogged', 'view')).toBe(true);
    expect(can('stores', 'casesLogged', 'view')).toBe(false);
    expect(can('stores', 'medicalInventory', 'delete')).toBe(true);
    expect(can('responder', 'medicalInventory', 'edit')).toBe(false);
    for (const role of SYSTEM_ROLES)
      expect(permissionsSchema.parse(role.permissions)).toEqual(role.permissions);
  });
});

describe('unknown permissions', () => {
  it('name the unknown module or flag, and are recognisable as such', () => {
    const module = permissionsSchema.safeParse({ launchMissiles: true });
    expect(module.error?.issues[0]?.message).toBe("Unknown permission module: 'launchMissiles'");
    const flag = permissionsSchema.safeParse({ cprLogs: { print: true } });
    expect(flag.error?.issues[0]?.message).toBe("Unknown permission flag: 'print'");
    expect(
      isUnknownPermissionIssue({ code: 'unrecognized_keys', path: ['permissions', 'cprLogs'] }),
    ).toBe(true);
    expect(isUnknownPermissionIssue({ code: 'unrecognized_keys', path: [] })).toBe(false);
  });
});

describe('hasGrantedPermission (decision 024: other people’s patient records)', () => {
  it('needs an entry for a member; an administrator with no entry is still allowed', () => {
    expect(hasGrantedPermission({ role: 'member', permissions: {} }, 'casesLogged', 'view')).toBe(
      false,
    );
    expect(hasGrantedPermission({ role: 'member', permissions: null }, 'casesLogged', 'view')).toBe(
      false,
    );
    expect(
      hasGrantedPermission({ role: 'administrator', permissions: {} }, 'casesLogged', 'view'),
    ).toBe(true);
  });

  it('decides an entry exactly as the §6 rule does', () => {
    const granted = { casesLogged: { view: true } };
    const withheld = { casesLogged: { view: false } };
    for (const role of ['member', 'administrator'] as const) {
      expect(hasGrantedPermission({ role, permissions: granted }, 'casesLogged', 'view')).toBe(
        true,
      );
      expect(hasGrantedPermission({ role, permissions: withheld }, 'casesLogged', 'view')).toBe(
        false,
      );
      expect(
        hasGrantedPermission({ role, permissions: { casesLogged: true } }, 'casesLogged', 'view'),
      ).toBe(true);
    }
  });

  it('narrows seeing others only for a family that asks for it (cases do)', () => {
    const member = { id: 1, role: 'member' as const, permissions: {} };
    expect(canSeeAll(member, CASE_ACCESS)).toBe(false);
    expect(canSeeAll(member, { ...CASE_ACCESS, othersNeedGrant: false })).toBe(true);
    expect(
      canSeeAll({ ...member, permissions: { casesLogged: { view: true } } }, CASE_ACCESS),
    ).toBe(true);
  });
});
