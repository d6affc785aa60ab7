// /cpr-logger without a session number: the CPR Logger button's tap starts a session on the
// device at once (device-generated session number, start time = the tap, no network) and the
// URL becomes the session's, so Back or a reload never starts a second one.
import { hasPermission } from '@rescuelog/sync-protocol/permissions';
import { AlertTriangle, CloudOff, Lock } from 'lucide-react';
import { useEffect, useRef, useState } from 'react';
import { Link, useNavigate } from 'react-router-dom';
import { Spinner } from '@/components/ui/spinner';
import { StatusPage } from '@/components/ui/status-page';
import { useUser } from '@/lib/auth';
import { localDatabaseAvailable } from '@/lib/sync/sync-session';
import { useSyncSession } from '@/lib/sync/use-sync';
import { startCprSession } from '../data/cpr-writes';

function HomeLink() {
  return (
    <Link to="/" className="button button--primary button--block">
      Back to Home
    </Link>
  );
}

export function StartCprSession() {
  const { data: user } = useUser();
  const session = useSyncSession();
  const navigate = useNavigate();
  // The tap that opened this screen is the arrest's start, not when the database was ready.
  const [tappedAt] = useState(() => new Date());
  const [failure, setFailure] = useState<string | null>(null);
  const [attempt, setAttempt] = useState(0);
  const started = useRef<number | null>(null);
  const mounted = useRef(false);
  const canCreate = user ? hasPermission(user, 'cprLogger', 'create') : false;

  useEffect(() => {
    mounted.current = true;
    return () => {
      mounted.current = false;
    };
  }, []);

  useEffect(() => {
    if (!user || !canCreate || !session || started.current === attempt) return;
    started.current = attempt;
    startCprSession(tappedAt).then(
      ({ sessionId }) => {
        if (mounted.current) void navigate(`/cpr-logger/${sessionId}`, { replace: true });
      },
      (error: unknown) => {
        if (mounted.current) setFailure(error instanceof Error ? error.message : String(error));
      },
    );
  }, [user, canCreate, session, attempt, navigate, tappedAt]);

  if (user && !canCreate)
    return (
      <StatusPage
        icon={<Lock size={40} />}
        title="You cannot start CPR sessions"
        tone="warning"
        actions={<HomeLink />}
      >
        <p>
          Your account does not have permission to log CPR. Ask your administrator if you need it.
        </p>
      </StatusPage>
    );
  if (!localDatabaseAvailable())
    return (
      <StatusPage
        icon={<CloudOff size={40} />}
        title="The CPR logger needs this device's storage"
        tone="warning"
        actions={<HomeLink />}
      >
        <p>
          This browser is not keeping data on the device (private browsing, or storage is switched
          off), so an arrest cannot be logged here. Use the installed app or a normal browser
          window.
        </p>
      </StatusPage>
    );
  if (failure)
    return (
      <StatusPage
        icon={<AlertTriangle size={40} />}
        title="Could not start the CPR session"
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
        <p>The session could not be stored on this device: {failure}</p>
      </StatusPage>
    );
  return (
    <main className="page-center" aria-busy="true">
      <h1>Starting the CPR session…</h1>
      <Spinner label="Creating the session on this device" />
    </main>
  );
}
