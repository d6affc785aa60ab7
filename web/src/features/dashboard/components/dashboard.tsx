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
 * The home screen. `notifications` is the bell and `notices` what the route shows below the
 * main actions (the offer to turn on notifications on this device), both composed in by the
 * route. The notices come after the actions, not above them: they appear once the page has
 * loaded, and above they pushed New Case down the screen as a crew reached for it (issue 37);
 * here New Case and CPR Logger stay where they were first painted, on a phone too.
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
        <QuickStats />
        <ActionGrid user={user} />
        {notices}
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
