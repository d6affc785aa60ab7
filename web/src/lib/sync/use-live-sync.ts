// A screen several people watch at once (a live board) syncs more often while it is open:
// every few seconds while the page is visible and online, a short poll of push and pull, so a
// change another device has synced shows here within seconds. Pull reads PostgreSQL, so it
// works whichever API instance answers. The engine's backoff still applies ('timer'), and
// nothing runs once the screen is left: the app's own 30 s timer goes on as before.
import { useEffect } from 'react';
import { useOnline, useSyncSession } from './use-sync';

export const LIVE_SYNC_INTERVAL_MS = 2_500;

export function useLiveSync(active: boolean, intervalMs: number = LIVE_SYNC_INTERVAL_MS): void {
  const session = useSyncSession();
  const online = useOnline();
  useEffect(() => {
    if (!active || !online || !session) return undefined;
    const tick = () => {
      if (document.visibilityState === 'visible') void session.engine.sync('timer');
    };
    const timer = window.setInterval(tick, intervalMs);
    return () => window.clearInterval(timer);
  }, [active, online, session, intervalMs]);
}
