import type { User } from '@rescuelog/sync-protocol/accounts/users';
import { LogOut, ShieldPlus, UserRound } from 'lucide-react';
import type { ReactNode } from 'react';
import { Link } from 'react-router-dom';
import { RoleBadge } from '@/components/permissions/role-badge';
import { useGuardedLogout } from '@/lib/sync/use-guarded-logout';

export function DashboardHeader({ user, notifications }: { user: User; notifications: ReactNode }) {
  // Warns about changes not yet synced before signing out (issue 4).
  const logout = useGuardedLogout();
  return (
    <header className="app-header">
      <div className="app-header__bar">
        <div className="app-header__brand">
          <ShieldPlus aria-hidden="true" size={28} />
          <h1 className="app-header__title">RescueLog</h1>
        </div>
        <nav className="app-header__actions" aria-label="Account">
          {notifications}
          <Link to="/profile" className="icon-button icon-button--on-dark" aria-label="Profile">
            <UserRound aria-hidden="true" size={24} />
          </Link>
          <button
            type="button"
            className="icon-button icon-button--on-dark"
            aria-label="Log out"
            disabled={logout.isPending}
            onClick={logout.requestLogout}
          >
            <LogOut aria-hidden="true" size={24} />
          </button>
        </nav>
      </div>
      <div className="app-header__user">
        <span className="app-header__name">{user.fullName || user.email}</span>
        {user.callSign ? (
          <span className="badge badge--callsign">
            <span className="sr-only">Call sign </span>
            {user.callSign}
          </span>
        ) : null}
        <RoleBadge user={user} />
      </div>
      {logout.dialog}
    </header>
  );
}
