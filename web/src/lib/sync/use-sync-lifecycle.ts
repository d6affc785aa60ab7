// Opens the signed-in user's sync session and closes it when they sign out or another user
// signs in. A 401/403 from the sync API means the session cookie is gone: the current user
// is re-checked, so the access guard sends the user to sign in; signing in again as the
// same user resumes the paused queue. The sync code loads only once someone is signed in.
import type { User } from '@rescuelog/sync-protocol/users';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { USER_QUERY_KEY } from '@/lib/auth';

// Set once the sync code has been asked for. Until then there is no session to stop, so a
// signed-out visitor (the sign-in screen) never downloads or runs the sync code at all.
let syncCodeRequested = false;

export function useSyncLifecycle(user: User | null | undefined): void {
  const queryClient = useQueryClient();
  const userId = user?.status === 'approved' ? user.id : null;
  useEffect(() => {
    let cancelled = false;
    if (userId === null && !syncCodeRequested) return;
    syncCodeRequested = true;
    void import('./sync-session').then((sync) => {
      if (cancelled) return;
      if (userId === null) {
        sync.stopSyncSession();
        return;
      }
      sync.startSyncSession(userId, {
        onAuthRequired: () => void queryClient.invalidateQueries({ queryKey: USER_QUERY_KEY }),
      });
    });
    return () => {
      cancelled = true;
    };
  }, [userId, queryClient]);
}
