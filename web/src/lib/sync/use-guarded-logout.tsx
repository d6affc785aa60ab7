// Logout that never silently throws away unsynced work: with an empty outbox it signs out
// and deletes the user's local database (patient data does not stay on a shared device);
// with changes still waiting it says how many and lets the user choose (kept ones are held
// behind their sign-in, decision 023). The sync code and
// the dialog load on demand, so the header that uses this stays light.
import { lazy, Suspense, useState, type ReactNode } from 'react';
import { useLogout } from '@/lib/auth';

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
  const [unsynced, setUnsynced] = useState<number | null>(null);

  function signOut(choice: LocalDataChoice): void {
    setUnsynced(null);
    // Kept changes are held behind this user's sign-in (decision 023); with none left waiting
    // the database is deleted (useLogout ends the device session).
    logout.mutate({ wipe: choice === 'delete' });
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
