// Who may write and see which synced records, from the §6 permission rule (sync-protocol
// hasPermission) plus ownership:
// - create: the module's `create` (newCase, cprLogger, incidentReports, multiPatient);
// - change one's own record: the module's `create` or `edit` (the author keeps capturing the
//   record they started); delete one's own: the module's `delete`;
// - change or delete another responder's record: the logs module's `edit` / `delete`
//   (casesLogged, cprLogs, multiPatientLogs; incidentReports has no logs module, so its own
//   `edit` / `delete`);
// - see others' records: the logs module's `view` (incidentReports: `read`).
import {
  hasPermission,
  type PermissionAction,
  type PermissionModule,
  type PermissionSubject,
} from '@rescuelog/sync-protocol/permissions';
import { RejectionCode } from '@rescuelog/sync-protocol/sync/rejections';

/** The record families access is decided on (children follow their parent). */
export type AccessFamily = 'case' | 'cprSession' | 'incidentReport' | 'mciIncident';

interface FamilyModules {
  module: PermissionModule;
  logModule: PermissionModule;
  viewAction: PermissionAction;
}

export const FAMILY_MODULES: Record<AccessFamily, FamilyModules> = {
  case: { module: 'newCase', logModule: 'casesLogged', viewAction: 'view' },
  cprSession: { module: 'cprLogger', logModule: 'cprLogs', viewAction: 'view' },
  incidentReport: { module: 'incidentReports', logModule: 'incidentReports', viewAction: 'read' },
  mciIncident: { module: 'multiPatient', logModule: 'multiPatientLogs', viewAction: 'view' },
};

export interface Actor extends PermissionSubject {
  id: number;
}

export type AccessDecision =
  | { allowed: true }
  | { allowed: false; code: RejectionCode; module: PermissionModule; action: PermissionAction };

function decide(
  actor: Actor,
  module: PermissionModule,
  action: PermissionAction,
  deniedCode: RejectionCode,
): AccessDecision {
  return hasPermission(actor, module, action)
    ? { allowed: true }
    : { allowed: false, code: deniedCode, module, action };
}

export function canCreate(actor: Actor, family: AccessFamily): AccessDecision {
  return decide(actor, FAMILY_MODULES[family].module, 'create', RejectionCode.FORBIDDEN);
}

export function canChange(actor: Actor, family: AccessFamily, ownerId: number): AccessDecision {
  const { module, logModule } = FAMILY_MODULES[family];
  if (ownerId === actor.id) {
    return hasPermission(actor, module, 'create')
      ? { allowed: true }
      : decide(actor, module, 'edit', RejectionCode.FORBIDDEN);
  }
  return decide(actor, logModule, 'edit', RejectionCode.NOT_OWNER);
}

export function canDelete(actor: Actor, family: AccessFamily, ownerId: number): AccessDecision {
  const { module, logModule } = FAMILY_MODULES[family];
  if (ownerId === actor.id) return decide(actor, module, 'delete', RejectionCode.FORBIDDEN);
  return decide(actor, logModule, 'delete', RejectionCode.NOT_OWNER);
}

/** Sees every record of the family, not only their own. */
export function canSeeAll(actor: Actor, family: AccessFamily): boolean {
  const { logModule, viewAction } = FAMILY_MODULES[family];
  return hasPermission(actor, logModule, viewAction);
}
