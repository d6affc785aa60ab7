import type { User } from '@rescuelog/sync-protocol/users';
import type { ReactNode } from 'react';
import { ActionGrid } from './action-grid';
import { AdminTools } from './admin-tools';
import { DashboardHeader } from './dashboard-header';
import { PrimarySurveyCard } from './primary-survey-card';
import { QuickStats } from './quick-stats';
import { RecentCases } from './recent-cases';
import styles from './dashboard.module.css';

/** The home screen. `notifications` is the bell, composed in by the route. */
export function Dashboard({ user, notifications }: { user: User; notifications: ReactNode }) {
  return (
    <>
      <DashboardHeader user={user} notifications={notifications} />
      <main className="page">
        <QuickStats />
        <ActionGrid user={user} />
        <div className={styles.columns}>
          <RecentCases />
          <PrimarySurveyCard />
        </div>
        {user.role === 'administrator' ? <AdminTools /> : null}
      </main>
    </>
  );
}
