// Mounted once in the app's root layout: opens the signed-in user's sync session and shows
// the sync status bar on every signed-in screen. Signed out, nothing of the sync code loads.
import { lazy, Suspense } from 'react';
import { useAfterFirstLoad } from '@/hooks/use-after-first-load';
import { useUser } from '@/lib/auth';
import { useSyncLifecycle } from '@/lib/sync/use-sync-lifecycle';

const SyncStatusBar = lazy(async () => ({
  default: (await import('./sync-status-bar')).SyncStatusBar,
}));

export function SyncShell() {
  const { data: user } = useUser();
  // Opening the local database and the first sync wait until the first screen has loaded.
  const afterLoad = useAfterFirstLoad();
  useSyncLifecycle(afterLoad ? user : undefined);
  // Without IndexedDB there is no session (see localDatabaseAvailable) and nothing to show.
  if (user?.status !== 'approved' || typeof indexedDB === 'undefined') return null;
  // The slot (styled in styles.css, which loads with the page) holds the bar's space from the
  // first render, so the page below does not jump down when the lazily loaded bar arrives.
  return (
    <div className="sync-bar-slot">
      <Suspense fallback={null}>
        <SyncStatusBar />
      </Suspense>
    </div>
  );
}
