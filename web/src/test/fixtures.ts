import type { User } from '@rescuelog/sync-protocol/users';

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
    role: 'member',
    status: 'approved',
    permissions: {},
    createdAt: '2026-11-01T08:00:00.000Z',
    updatedAt: '2026-11-01T08:00:00.000Z',
    ...overrides,
  };
}
