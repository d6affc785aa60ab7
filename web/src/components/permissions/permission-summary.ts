// What a role allows, in words, without opening its editor: one line per group of modules
// (the Roles screen's cards) or one sentence (the approve dialog). Computed by the rules the
// API guards with (sync-protocol hasPermission, and hasGrantedPermission for seeing other
// people's cases, decision 024), so a summary cannot promise more than the server allows.
import {
  MODULE_LABELS,
  hasGrantedPermission,
  hasPermission,
  type PermissionModule,
  type PermissionSubject,
  type Permissions,
} from '@rescuelog/sync-protocol/permissions';
import { accountRoleOf } from './permission-grid';

export interface SummaryLine {
  group: string;
  text: string;
}

const RECORDS = ['newCase', 'cprLogger', 'multiPatient', 'incidentReports'] as const;
const LOGS = ['cprLogs', 'casesLogged', 'multiPatientLogs'] as const;
const ADMINISTRATION = ['userManagement', 'systemAdmin'] as const;

function list(items: readonly string[]): string {
  if (items.length <= 1) return items.join('');
  return `${items.slice(0, -1).join(', ')} and ${items.at(-1) ?? ''}`;
}

function labels(modules: readonly PermissionModule[]): string[] {
  return modules.map((m) => MODULE_LABELS[m]);
}

function subjectOf(roleName: string, permissions: Permissions): PermissionSubject {
  return { role: accountRoleOf(roleName), permissions };
}

/** Whose cases the role's members see: every case only with an explicit grant. */
function casesSeen(subject: PermissionSubject): 'every' | 'own' | 'none' {
  if (!hasPermission(subject, 'casesLogged', 'view')) return 'none';
  return hasGrantedPermission(subject, 'casesLogged', 'view') ? 'every' : 'own';
}

/** One line per group of modules: records, logs, inventory and protocols, administration. */
export function summarisePermissions(roleName: string, permissions: Permissions): SummaryLine[] {
  const subject = subjectOf(roleName, permissions);
  const can = (m: PermissionModule, a: Parameters<typeof hasPermission>[2]) =>
    hasPermission(subject, m, a);

  const creates = RECORDS.filter((m) => can(m, 'create'));
  const reads = RECORDS.filter((m) => !can(m, 'create') && can(m, 'read'));
  const records = [
    creates.length > 0 ? `creates ${list(labels(creates))}` : null,
    reads.length > 0 ? `reads ${list(labels(reads))}` : null,
  ].filter((part): part is string => part !== null);

  const cases = casesSeen(subject);
  const logs = LOGS.filter((m) => can(m, 'view')).map((m) =>
    m === 'casesLogged'
      ? `${MODULE_LABELS[m]} (${cases === 'every' ? 'every case' : 'own cases'})`
      : MODULE_LABELS[m],
  );

  const stock = [
    can('medicalInventory', 'edit') || can('medicalInventory', 'create')
      ? 'manages Medical Inventory'
      : can('medicalInventory', 'read')
        ? 'reads Medical Inventory'
        : null,
    can('firstAidProtocols', 'view') ? 'views First Aid Protocols' : null,
  ].filter((part): part is string => part !== null);

  const administration = ADMINISTRATION.filter((m) => can(m, 'edit'));

  return [
    { group: 'Records', text: records.length > 0 ? list(records) : 'none' },
    { group: 'Logs', text: logs.length > 0 ? list(logs) : 'none' },
    { group: 'Inventory and protocols', text: stock.length > 0 ? list(stock) : 'none' },
    {
      group: 'Administration',
      text: administration.length > 0 ? list(labels(administration)) : 'none',
    },
  ];
}

/** One sentence: what the role's members can document, and whose cases they see. */
export function permissionSentence(roleName: string, permissions: Permissions): string {
  const subject = subjectOf(roleName, permissions);
  if (subject.role === 'administrator')
    return 'Everything, including user management and system administration.';
  const creates = RECORDS.filter((m) => hasPermission(subject, m, 'create'));
  const documents =
    creates.length > 0
      ? `Documents ${list(labels(creates))}`
      : 'Reads and views; documents nothing';
  const cases = casesSeen(subject);
  const sees =
    cases === 'every'
      ? "sees every colleague's cases"
      : cases === 'own'
        ? 'sees their own cases only'
        : 'sees no cases';
  return `${documents}; ${sees}.`;
}
