// A case this device does not hold, right after sign-in: the first pull is usually still
// bringing the user's cases. Wait for it (bounded), so a case screen opens on the device's
// live copy instead of saying "not on this device" (or opening the server's read-only copy)
// and then switching under the user's fingers. Afterwards, offline, or when the sync stalls
// or fails, `children` decides.
import { useEffect, useState, type ReactNode } from 'react';
import { PageSpinner } from '@/components/ui/spinner';
import { useOnline, useSyncStatus } from '@/lib/sync/use-sync';

/** How long a missing case waits for this tab's first sync before `children` show. */
export const FIRST_SYNC_WAIT_MS = 10_000;

export function AwaitFirstSync({ children }: { children: ReactNode }) {
  const online = useOnline();
  const status = useSyncStatus();
  const [waited, setWaited] = useState(false);
  useEffect(() => {
    const timer = setTimeout(() => setWaited(true), FIRST_SYNC_WAIT_MS);
    return () => clearTimeout(timer);
  }, []);
  const firstSyncRunning =
    status.lastSyncAt === null &&
    (status.phase === 'syncing' || (status.phase === 'idle' && status.failures === 0));
  if (online && firstSyncRunning && !waited)
    return <PageSpinner label="Getting your cases from the server" />;
  return <>{children}</>;
}
