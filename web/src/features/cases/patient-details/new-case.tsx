// New Case (/patient-details without a case number): creates the case on the device at once
// (device-generated case number, no network needed) and replaces the URL with the case's,
// so Back does not create a second case. The responder defaults to the signed-in user.
import { hasPermission } from '@rescuelog/sync-protocol/permissions';
import type { User } from '@rescuelog/sync-protocol/accounts/users';
import { stepPath } from '@rescuelog/sync-protocol/cases/steps';
import { AlertTriangle, CloudOff, Lock } from 'lucide-react';
import { useEffect, useRef, useState } from 'react';
import { Link, useNavigate } from 'react-router-dom';
import { Spinner } from '@/components/ui/spinner';
import { StatusPage } from '@/components/ui/status-page';
import { useUser } from '@/lib/auth';
import { localDatabaseAvailable } from '@/lib/sync/sync-session';
import { useSyncSession } from '@/lib/sync/use-sync';
import { createCase } from '../data/case-writes';
import styles from './patient-details.module.css';

function HomeLink() {
  return (
    <Link to="/" className="button button--primary button--block">
      Back to Home
    </Link>
  );
}

/** What a new case starts with: the signed-in responder (they can change it). */
export function newCaseDefaults(user: Pick<User, 'fullName' | 'callSign'>) {
  const name = user.fullName.trim();
  const callSign = user.callSign?.trim() ?? '';
  return {
    ...(name ? { responderName: name } : {}),
    ...(callSign ? { responderCallSign: callSign } : {}),
  };
}

export function NewCaseScreen() {
  const { data: user } = useUser();
  const session = useSyncSession();
  const navigate = useNavigate();
  const [failure, setFailure] = useState<string | null>(null);
  const [attempt, setAttempt] = useState(0);
  // One case per visit: StrictMode runs effects twice in development, and the session can
  // re-render this screen while the first create is still being stored.
  const started = useRef<number | null>(null);
  const mounted = useRef(false);
  const canCreate = user ? hasPermission(user, 'newCase', 'create') : false;

  useEffect(() => {
    mounted.current = true;
    return () => {
      mounted.current = false;
    };
  }, []);

  useEffect(() => {
    if (!user || !canCreate || !session || started.current === attempt) return;
    started.current = attempt;
    createCase(newCaseDefaults(user)).then(
      ({ caseId }) => {
        if (mounted.current) void navigate(stepPath('patient-details', caseId), { replace: true });
      },
      (error: unknown) => {
        if (mounted.current) setFailure(error instanceof Error ? error.message : String(error));
      },
    );
  }, [user, canCreate, session, attempt, navigate]);

  if (user && !canCreate) {
    return (
      <StatusPage
        icon={<Lock size={40} />}
        title="You cannot create cases"
        tone="warning"
        actions={<HomeLink />}
      >
        <p>
          Your account does not have permission to start a new case. Ask your administrator if you
          need it.
        </p>
      </StatusPage>
    );
  }
  if (!localDatabaseAvailable()) {
    return (
      <StatusPage
        icon={<CloudOff size={40} />}
        title="Cases need this device's storage"
        tone="warning"
        actions={<HomeLink />}
      >
        <p>
          This browser is not keeping data on the device (private browsing, or storage is switched
          off), so cases cannot be captured here. Use the installed app or a normal browser window.
        </p>
      </StatusPage>
    );
  }
  if (failure) {
    return (
      <StatusPage
        icon={<AlertTriangle size={40} />}
        title="Could not start a new case"
        tone="danger"
        actions={
          <>
            <button
              type="button"
              className="button button--primary button--block"
              onClick={() => {
                setFailure(null);
                setAttempt((n) => n + 1);
              }}
            >
              Try again
            </button>
            <Link to="/" className="button button--block">
              Back to Home
            </Link>
          </>
        }
      >
        <p>The case could not be stored on this device: {failure}</p>
      </StatusPage>
    );
  }
  return (
    <main className={`page-center ${styles.newCase}`} aria-busy="true">
      <h1 className={styles.newCaseTitle}>Starting a new case…</h1>
      <Spinner label="Creating the case on this device" />
    </main>
  );
}
