// The access guard of spec §2: spinner while the user loads, /auth when signed out, the
// pending screen for unapproved accounts, and Access Denied for members on admin routes.
import { Ban, CircleAlert, ShieldAlert } from 'lucide-react';
import { lazy } from 'react';
import { Link, Navigate, Outlet, useLocation } from 'react-router-dom';
import { PageSpinner } from '@/components/ui/spinner';
import { BackToLoginButton } from '@/components/back-to-login-button';
import { StatusPage } from '@/components/ui/status-page';
import { errorMessage } from '@/lib/api-client';
import { useUser } from '@/lib/auth';

// Only unapproved accounts see it, so its upload code stays out of everyone's first load.
const PendingApproval = lazy(async () => ({
  default: (await import('@/features/auth/components/pending-approval')).PendingApproval,
}));

function UserLoadError({ error, retry }: { error: unknown; retry: () => void }) {
  return (
    <StatusPage
      icon={<CircleAlert size={40} />}
      title="Could not load your account"
      tone="danger"
      actions={
        <button type="button" className="button button--primary button--block" onClick={retry}>
          Try again
        </button>
      }
    >
      <p>{errorMessage(error)}</p>
    </StatusPage>
  );
}

function AccountSuspended() {
  return (
    <StatusPage
      icon={<Ban size={40} />}
      title="Account Suspended"
      tone="danger"
      actions={<BackToLoginButton />}
    >
      <p>Your account has been suspended. Contact your administrator.</p>
    </StatusPage>
  );
}

/** Every protected route: an authenticated, approved user. */
export function RequireApprovedUser() {
  const { data: user, isPending, isError, error, refetch } = useUser();
  const location = useLocation();
  if (isPending) return <PageSpinner label="Loading your account" />;
  if (isError) return <UserLoadError error={error} retry={() => void refetch()} />;
  if (!user) return <Navigate to="/auth" replace state={{ from: location.pathname }} />;
  if (user.status === 'pending') return <PendingApproval user={user} />;
  if (user.status !== 'approved') return <AccountSuspended />;
  return <Outlet />;
}

/** /admin/*: additionally the administrator role. Sits inside RequireApprovedUser. */
export function RequireAdministrator() {
  const { data: user } = useUser();
  if (user?.role !== 'administrator') {
    return (
      <StatusPage
        icon={<ShieldAlert size={40} />}
        title="Access Denied"
        tone="danger"
        actions={
          <Link to="/" className="button button--primary button--block">
            Back to Home
          </Link>
        }
      >
        <p>This page requires administrator privileges. Contact your administrator for access.</p>
      </StatusPage>
    );
  }
  return <Outlet />;
}

/** /auth: a signed-in user (pending ones too) goes to /, where the guard takes over. */
export function GuestOnly() {
  const { data: user, isPending } = useUser();
  if (isPending) return <PageSpinner label="Loading your account" />;
  if (user) return <Navigate to="/" replace />;
  return <Outlet />;
}
