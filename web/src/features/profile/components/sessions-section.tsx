import type { SessionInfo } from '@rescuelog/sync-protocol/accounts/users';
import { formatDateTime } from '@rescuelog/sync-protocol/time';
import { Spinner } from '@/components/ui/spinner';
import { errorMessage } from '@/lib/api-client';
import { toast } from '@/lib/toast-store';
import { useEndSessions, useSessions } from '../api/profile';

/** 'Chrome on Android' from a user-agent string: enough to tell one's devices apart. */
export function describeDevice(userAgent: string | null): string {
  if (!userAgent) return 'Unknown device';
  const browser = /Edg\//.test(userAgent)
    ? 'Edge'
    : /Firefox\//.test(userAgent)
      ? 'Firefox'
      : /Chrome\//.test(userAgent)
        ? 'Chrome'
        : /Safari\//.test(userAgent)
          ? 'Safari'
          : 'A browser';
  const system = /Android/.test(userAgent)
    ? 'Android'
    : /iPhone|iPad/.test(userAgent)
      ? 'iOS'
      : /Windows/.test(userAgent)
        ? 'Windows'
        : /Mac OS X/.test(userAgent)
          ? 'macOS'
          : /Linux/.test(userAgent)
            ? 'Linux'
            : null;
  return system ? `${browser} on ${system}` : browser;
}

function SessionRow({ session }: { session: SessionInfo }) {
  const end = useEndSessions();
  const device = describeDevice(session.userAgent);
  return (
    <li className="session-row">
      <div>
        <strong>{device}</strong>
        {session.current ? <span className="badge badge--member"> This device</span> : null}
        <div className="session-row__meta">
          Last seen {formatDateTime(session.lastSeenAt)}
          {session.ip ? ` from ${session.ip}` : ''}; signed in {formatDateTime(session.createdAt)}
        </div>
      </div>
      {session.current ? null : (
        <button
          type="button"
          className="button button--secondary"
          disabled={end.isPending}
          onClick={() =>
            end.mutate(
              { id: session.id },
              {
                onSuccess: () => toast({ title: 'Signed out', description: device }),
                onError: (e) =>
                  toast({
                    title: 'Could not sign out',
                    description: errorMessage(e),
                    variant: 'destructive',
                  }),
              },
            )
          }
        >
          Sign out<span className="sr-only"> {device}</span>
        </button>
      )}
    </li>
  );
}

export function SessionsSection() {
  const sessions = useSessions();
  const end = useEndSessions();
  const others = sessions.data?.filter((s) => !s.current).length ?? 0;
  return (
    <section className="card settings-section" aria-labelledby="sessions-title">
      <h2 id="sessions-title" className="card__title">
        Where you are signed in
      </h2>
      {sessions.isPending ? (
        <Spinner label="Loading sessions" />
      ) : sessions.isError ? (
        <p className="text-danger">
          Sessions could not be loaded ({errorMessage(sessions.error)}).
        </p>
      ) : (
        <ul className="session-list">
          {sessions.data.map((s) => (
            <SessionRow key={s.id} session={s} />
          ))}
        </ul>
      )}
      {others > 0 ? (
        <button
          type="button"
          className="button button--danger"
          disabled={end.isPending}
          onClick={() =>
            end.mutate('others', {
              onSuccess: ({ endedSessions }) =>
                toast({
                  title: 'Signed out everywhere else',
                  description: `${String(endedSessions)} ${endedSessions === 1 ? 'session' : 'sessions'} ended`,
                }),
            })
          }
        >
          Sign out all other devices
        </button>
      ) : null}
    </section>
  );
}
