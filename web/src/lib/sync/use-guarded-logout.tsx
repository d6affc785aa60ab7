// Logout that never silently throws away unsynced work: with an empty outbox it signs out
// and deletes the user's local database (patient data does not stay on a shared device);
// with changes still waiting it says how many and lets the user choose. The sync code and
// the dialog load on demand, so the header that uses this stays light.
import { lazy, Suspense, useState, type ReactNode } from 'react';
import { useLogout, useUser } from '@/lib/auth';

const UnsyncedLogoutDialog = lazy(async () => ({
  default: (await import('./unsynced-logout-dialog')).UnsyncedLogoutDialog,
}));

export type LocalDataChoice = 'if-drained' | 'keep' | 'delete';

export function useGuardedLogout(): {
  requestLogout: () => void;
  isPending: boolean;
  dialog: ReactNode;
} {
  const logout = useLogout();
  const { data: user } = useUser();
  const [unsynced, setUnsynced] = useState<number | null>(null);

  function signOut(choice: LocalDataChoice): void {
    const userId = user?.id;
    setUnsynced(null);
    logout.mutate(undefined, {
      onSuccess: () => {
        if (userId === undefined) return;
        void (async () => {
          const sync = await import('./sync-session');
          const wipe =
            choice === 'delete' || (choice === 'if-drained' && (await sync.pendingCount()) === 0);
          if (wipe) await sync.wipeLocalData(userId);
          else sync.stopSyncSession();
        })();
      },
    });
  }

  async function requestLogout(): Promise<void> {
    const sync = await import('./sync-session');
    const count = await sync.pendingCount();
    if (count === 0) signOut('if-drained');
    else setUnsynced(count);
  }

  const dialog =
    unsynced === null ? null : (
      <Suspense fallback={null}>
        <UnsyncedLogoutDialog
          count={unsynced}
          onCancel={() => setUnsynced(null)}
          onChoose={signOut}
        />
      </Suspense>
    );

  return { requestLogout: () => void requestLogout(), isPending: logout.isPending, dialog };
}
