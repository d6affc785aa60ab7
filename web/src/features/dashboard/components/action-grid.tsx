import {
  hasPermission,
  type PermissionAction,
  type PermissionModule,
} from '@rescuelog/sync-protocol/permissions';
import type { User } from '@rescuelog/sync-protocol/accounts/users';
import {
  Activity,
  BookOpen,
  ClipboardList,
  FileText,
  HeartPulse,
  History,
  LifeBuoy,
  Package,
  Plus,
  ShieldAlert,
  Users,
  type LucideIcon,
} from 'lucide-react';
import { Link } from 'react-router-dom';
import { cx } from '@/lib/cx';
import styles from './action-grid.module.css';

interface DashboardAction {
  label: string;
  description?: string;
  to: string;
  icon: LucideIcon;
  /** Absent: every approved user may open it (spec §6 ungated buttons). */
  permission?: { module: PermissionModule; action: PermissionAction };
  primary?: boolean;
}

/** The 11 dashboard buttons in spec §2 order, with the §6 gating. */
export const DASHBOARD_ACTIONS: readonly DashboardAction[] = [
  {
    label: 'New Case',
    to: '/patient-details',
    icon: Plus,
    permission: { module: 'newCase', action: 'create' },
    primary: true,
  },
  {
    label: 'CPR Logger',
    to: '/cpr-logger',
    icon: HeartPulse,
    permission: { module: 'cprLogger', action: 'create' },
  },
  {
    label: 'Multi-Patient',
    description: 'Mass casualty incident command',
    to: '/multi-patient',
    icon: Users,
    permission: { module: 'multiPatient', action: 'create' },
  },
  {
    label: 'Incident Reports',
    description: 'Non-medical rescue operations',
    to: '/incident-reports',
    icon: ShieldAlert,
    permission: { module: 'incidentReports', action: 'create' },
  },
  {
    label: 'First Aid Protocols',
    to: '/protocols',
    icon: BookOpen,
    permission: { module: 'firstAidProtocols', action: 'view' },
  },
  { label: 'Medical Inventory', to: '/medical-inventory', icon: Package },
  {
    label: 'CPR Logs',
    description: 'Session history',
    to: '/cpr-logs',
    icon: Activity,
    permission: { module: 'cprLogs', action: 'view' },
  },
  {
    label: 'Cases Logged',
    to: '/case-search',
    icon: ClipboardList,
    permission: { module: 'casesLogged', action: 'view' },
  },
  {
    label: 'Multi-Patient Logs',
    to: '/multi-patient-logs',
    icon: History,
    permission: { module: 'multiPatientLogs', action: 'view' },
  },
  { label: 'Internal SOPs', to: '/internal-protocols', icon: FileText },
  { label: 'Help & Guide', to: '/help', icon: LifeBuoy },
];

/** What the user may do; the server enforces the same rule, this only hides buttons. */
export function visibleActions(user: User): DashboardAction[] {
  return DASHBOARD_ACTIONS.filter(
    (a) => !a.permission || hasPermission(user, a.permission.module, a.permission.action),
  );
}

export function ActionGrid({ user }: { user: User }) {
  return (
    <nav aria-label="Main actions">
      <ul className={styles.list}>
        {visibleActions(user).map(({ label, description, to, icon: Icon, primary }) => (
          <li key={to}>
            <Link to={to} className={cx(styles.button, primary && styles.primary)}>
              <Icon aria-hidden="true" size={28} />
              <span className={styles.label}>{label}</span>
              {description ? <span className={styles.description}>{description}</span> : null}
            </Link>
          </li>
        ))}
      </ul>
    </nav>
  );
}
