// System roles a rescue service needs from its first day (issue 11, docs/decisions/020):
// Responder (documents patients, CPR, incidents; sees the logs), Observer (sees, never
// changes) and Stores (the medical inventory, no patient records), beside the Administrator
// and Member roles the accounts migration made. A role of the same name an administrator
// already created is kept exactly as it is (on conflict do nothing), and no user is moved:
// everyone keeps the access they had until an administrator assigns a role.
// Frozen copy of the permissions: migrations never import app code.
import { sql } from 'kysely';
import type { Kysely } from 'kysely';

const ROLES = [
  {
    name: 'responder',
    displayName: 'Responder',
    description: 'Documents patients, CPR, incidents and reports; sees the logs',
    permissions: {
      newCase: { read: true, create: true },
      cprLogger: { read: true, create: true },
      multiPatient: { read: true, create: true },
      incidentReports: { read: true, create: true },
      medicalInventory: { read: true },
      firstAidProtocols: { view: true },
      cprLogs: { view: true },
      casesLogged: { view: true },
      multiPatientLogs: { view: true },
      userManagement: false,
      systemAdmin: false,
    },
  },
  {
    name: 'observer',
    displayName: 'Observer',
    description: 'Sees records and logs but cannot create or change anything',
    permissions: {
      newCase: { read: true },
      cprLogger: { read: true },
      multiPatient: { read: true },
      incidentReports: { read: true },
      medicalInventory: { read: true },
      firstAidProtocols: { view: true },
      cprLogs: { view: true },
      casesLogged: { view: true },
      multiPatientLogs: { view: true },
      userManagement: false,
      systemAdmin: false,
    },
  },
  {
    name: 'stores',
    displayName: 'Stores',
    description: 'Manages the medical inventory; no access to patient records',
    permissions: {
      newCase: false,
      cprLogger: false,
      multiPatient: false,
      incidentReports: false,
      medicalInventory: true,
      firstAidProtocols: { view: true },
      cprLogs: false,
      casesLogged: false,
      multiPatientLogs: false,
      userManagement: false,
      systemAdmin: false,
    },
  },
] as const;

export async function up(db: Kysely<unknown>): Promise<void> {
  for (const role of ROLES) {
    await sql`insert into roles (name, display_name, description, permissions, is_system)
      values (${role.name}, ${role.displayName}, ${role.description},
        ${JSON.stringify(role.permissions)}::jsonb, true)
      on conflict (name) do nothing`.execute(db);
  }
}

export async function down(db: Kysely<unknown>): Promise<void> {
  // Only the rows this migration made (system roles); a custom role of that name stays.
  await sql`delete from roles where is_system and name in ('responder', 'observer', 'stores')`.execute(
    db,
  );
}
