import type { Role } from '@rescuelog/sync-protocol/accounts/roles';
import { SYSTEM_ROLES } from '@rescuelog/sync-protocol/accounts/roles';
import type { User } from '@rescuelog/sync-protocol/accounts/users';

export function makeUser(overrides: Partial<User> = {}): User {
  return {
    id: 7,
    email: 'thandi@example.org',
    fullName: 'Thandi Nkosi',
    callSign: 'R7',
    contactNumber: null,
    idNumber: null,
    qualifications: 'Emergency Care Technician',
    qualificationsOther: null,
    nextOfKinName: null,
    nextOfKinRelationship: null,
    nextOfKinContact: null,
    idDocumentUrl: null,
    certificationsUrl: null,
    roleId: null,
    roleName: null,
    role: 'member',
    status: 'approved',
    permissions: {},
    createdAt: '2026-11-01T08:00:00.000Z',
    updatedAt: '2026-11-01T08:00:00.000Z',
    ...overrides,
  };
}

/** The seeded system roles (ids 1..n) plus any extra ones, as GET /api/admin/roles lists them. */
export function makeRoles(extra: Array<Partial<Role> & { name: string }> = []): Role[] {
  const all = [...SYSTEM_ROLES.map((r) => ({ ...r, isSystem: true })), ...extra];
  return all.map((r, i) => ({
    id: i + 1,
    displayName: r.name,
    description: null,
    permissions: {},
    isSystem: false,
    userCount: 0,
    createdAt: '2026-11-01T08:00:00.000Z',
    updatedAt: '2026-11-01T08:00:00.000Z',
    ...r,
  }));
}
