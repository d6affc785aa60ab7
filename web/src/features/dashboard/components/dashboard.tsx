import type { User } from '@rescuelog/sync-protocol/accounts/users';
import { lazy, Suspense, type ReactNode } from 'react';
import { ActionGrid } from './action-grid';
import { DashboardHeader } from './dashboard-header';
import { PrimarySurveyCard } from './primary-survey-card';
import { QuickStats } from './quick-stats';
import { RecentCases } from './recent-cases';
import styles from './dashboard.module.css';

// The administrator's tools (the conflicts count brings the record registry and its schemas)
// load after the home screen is on screen, not before it.
const AdminTools = lazy(async () => ({ default: (await import('./admin-tools')).AdminTools }));

/**
 * The home screen. `notifications` is the bell and `notices` what the route shows above the
 * cards (the offer to turn on notifications on this device), both composed in by the route.
 */
export function Dashboard({
  user,
  notifications,
  notices,
}: {
  user: User;
  notifications: ReactNode;
  notices?: ReactNode;
}) {
  return (
    <>
      <DashboardHeader user={user} notifications={notifications} />
      <main className="page">
        {notices}
        <QuickStats />
        <ActionGrid user={user} />
        <div className={styles.columns}>
          <RecentCases />
          <PrimarySurveyCard />
        </div>
        {user.role === 'administrator' ? (
          <Suspense fallback={null}>
            <AdminTools />
          </Suspense>
        ) : null}
      </main>
    </>
  );
}
