// The current user: one react-query entry (GET /api/user) that every screen reads. A 401
// means "no session" and resolves to null instead of failing or retrying (spec §7).
import type { EndingUser } from '@rescuelog/sync-protocol/client/session-end';
import type { User } from '@rescuelog/sync-protocol/users';
import {
  queryOptions,
  useMutation,
  useQuery,
  useQueryClient,
  type QueryClient,
} from '@tanstack/react-query';
import { boundarySchemas, getJson, HttpError, errorMessage, sendJson } from './api-client';
import { clearCached } from './local-cache';
import { toast } from './toast-store';

export const USER_QUERY_KEY = ['/api/user'] as const;

/**
 * The last account this device signed in with, kept so the app opens without signal: a crew
 * that reloads the app (or starts it) in a dead zone must still reach its cases. It is the
 * user's own profile, written when the server confirms the session and removed at logout or
 * when the server says the session is gone (401). Not a `cache_` entry: those expire after
 * 24 h (spec §9), and a shift can be longer than a day without signal.
 */
export const KNOWN_USER_KEY = 'rescuelog.knownUser';
/** The schema of GET /api/user's answer (also the stored copy's), from its own chunk. */
const currentUserSchema = () => boundarySchemas().then((s) => s.currentUserResponseSchema);

export async function readKnownUser(): Promise<User | null> {
  try {
    const raw = localStorage.getItem(KNOWN_USER_KEY);
    if (raw === null) return null;
    const parsed = (await currentUserSchema()).safeParse(JSON.parse(raw));
    return parsed.success ? parsed.data.user : null;
  } catch {
    return null;
  }
}

function rememberUser(user: User | null): void {
  try {
    if (user) localStorage.setItem(KNOWN_USER_KEY, JSON.stringify({ user }));
    else localStorage.removeItem(KNOWN_USER_KEY);
  } catch {
    // Storage disabled (private mode): the app then needs signal to open.
  }
}

/** How the sign-in prompt names a user whose changes are held. */
export function displayName(user: Pick<User, 'fullName' | 'email'>): string {
  return user.fullName.trim() || user.email;
}

/**
 * The user whose session the server ended while this device has not finished clearing or
 * holding their data (decision 023). Written before the device forgets the account and removed
 * once that is done, so a page closed or reloaded in between (a phone's OS killing the tab, a
 * crew member pressing reload) finishes the job at the next start instead of leaving patient
 * data in a database nothing points at any more.
 */
export const ENDING_USER_KEY = 'rescuelog.endingUser';

function storedEndingUser(): string | null {
  try {
    return localStorage.getItem(ENDING_USER_KEY);
  } catch {
    return null;
  }
}

/** The mark, zod-parsed; null when absent or unreadable. Its schema loads with the sync
 * code, only when a mark exists; a failure to load it throws (the mark must then stay). */
async function readEndingUser(): Promise<EndingUser | null> {
  const raw = storedEndingUser();
  if (raw === null) return null;
  const { endingUserSchema } = await import('@rescuelog/sync-protocol/client/session-end');
  try {
    const parsed = endingUserSchema.safeParse(JSON.parse(raw));
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}

function writeEndingUser(user: EndingUser | null): void {
  try {
    if (user)
      localStorage.setItem(
        ENDING_USER_KEY,
        JSON.stringify({ id: user.id, name: user.name.slice(0, 200) || `User ${String(user.id)}` }),
      );
    else localStorage.removeItem(ENDING_USER_KEY);
  } catch {
    // Storage disabled: the end of the session runs once, as it is about to.
  }
}

/** Clears or holds the ended user's data (deletes it when `wipe`, the user's own choice at
 * logout); the mark goes only once that is done. */
async function finishSessionEnd({ wipe = false }: { wipe?: boolean } = {}): Promise<void> {
  if (storedEndingUser() === null) return;
  try {
    const ending = await readEndingUser();
    if (ending) {
      const sync = await import('./sync/sync-session');
      if (wipe) await sync.wipeLocalData(ending.id);
      else await sync.endLocalSession(ending);
    }
    writeEndingUser(null);
  } catch {
    // Never keep someone from the sign-in screen; the mark stays, so the next start tries
    // again, and the data stays in its per-user database meanwhile.
  }
}

/**
 * The one way the device ends a user's session after the server did (logout, or a 401): the
 * mark is written at once, before anything can be interrupted, then the user's data is
 * cleared or held (or deleted, `wipe`). A page closed meanwhile finishes it at its next start.
 */
export function endSessionOnDevice(
  user: EndingUser,
  options: { wipe?: boolean } = {},
): Promise<void> {
  writeEndingUser(user);
  return finishSessionEnd(options);
}

/** How long the first request for the user may take before the device's copy is used
 * (a hanging captive portal or a dying signal must not leave a spinner). */
export const USER_FETCH_TIMEOUT_MS = 8000;

async function fetchCurrentUser({ signal }: { signal: AbortSignal }): Promise<User | null> {
  // AbortSignal.any is missing on older iOS Safari: combine by hand.
  const controller = new AbortController();
  const abort = () => controller.abort();
  signal.addEventListener('abort', abort, { once: true });
  const timer = setTimeout(abort, USER_FETCH_TIMEOUT_MS);
  try {
    const { user } = await getJson('/api/user', currentUserSchema, controller.signal);
    rememberUser(user);
    // An end interrupted earlier: the same user signed in again keeps their data; anyone
    // else's ended session is finished first.
    const ending = await readEndingUser().catch(() => null);
    if (ending?.id === user.id) writeEndingUser(null);
    else await finishSessionEnd();
    return user;
  } catch (error) {
    if (error instanceof HttpError && error.status === 401) {
      // The server confirms the session is over. Whoever this device last signed in as gets
      // their patient data cleared, or held behind their own sign-in (decision 023), before
      // the sign-in screen shows.
      // endSessionOnDevice writes its mark before it first waits, so before the account is
      // forgotten here; with no known account it still finishes an end marked earlier.
      const known = await readKnownUser();
      const ended = known
        ? endSessionOnDevice({ id: known.id, name: displayName(known) })
        : finishSessionEnd();
      rememberUser(null);
      clearCached();
      await ended;
      return null;
    }
    // No answer, a server error or a page that is not ours (captive portal): without signal
    // the account this device last signed in with opens the app; the sync engine asks for a
    // new sign-in if the server later refuses the session.
    if (signal.aborted) throw error;
    // The end of a session the server confirmed earlier needs no signal to finish.
    await finishSessionEnd();
    const known = await readKnownUser();
    if (known) return known;
    throw error;
  } finally {
    clearTimeout(timer);
    signal.removeEventListener('abort', abort);
  }
}

export const currentUserQuery = queryOptions({
  queryKey: USER_QUERY_KEY,
  queryFn: fetchCurrentUser,
  retry: false,
});

export function useUser() {
  return useQuery(currentUserQuery);
}

export function setCurrentUser(queryClient: QueryClient, user: User | null): void {
  rememberUser(user);
  if (user && storedEndingUser() !== null)
    void readEndingUser().then(
      (ending) => {
        if (ending?.id === user.id) writeEndingUser(null);
      },
      () => undefined,
    );
  queryClient.setQueryData<User | null>(USER_QUERY_KEY, user);
}

/**
 * Logout (spec §4): the user becomes null and every cached query and `cache_` entry goes.
 * Signing out is also how a pending user gets back to the sign-in screen.
 */
export function useLogout() {
  const queryClient = useQueryClient();
  return useMutation({
    // `wipe`: the user chose to delete changes still waiting to sync (use-guarded-logout).
    mutationFn: async (_options?: { wipe?: boolean }) => {
      // This device stops receiving the user's notifications first (it needs the session):
      // the next person on a shared tablet must not see them.
      await import('./push-device')
        .then((push) => push.removeDevicePushAtLogout())
        .catch(() => undefined);
      return sendJson('POST', '/api/logout', () =>
        boundarySchemas().then((s) => s.logoutResponseSchema),
      );
    },
    onSuccess: (_answer, options) => {
      // The device's copy of the user's patients is cleared or held (decision 023), also for a
      // suspended account's "Back to Login". Marked before the account is forgotten, so a tab
      // closed right after the tap finishes it at its next start. A pending account never had
      // a database here.
      const user = queryClient.getQueryData<User | null>(USER_QUERY_KEY);
      if (user && user.status !== 'pending')
        void endSessionOnDevice(
          { id: user.id, name: displayName(user) },
          { wipe: options?.wipe === true },
        );
      clearSession(queryClient);
      toast({ title: 'Logged out', description: 'You have been logged out successfully' });
    },
    onError: (error) => {
      toast({
        title: 'Logout failed',
        description: errorMessage(error) || 'Failed to logout',
        variant: 'destructive',
      });
    },
  });
}

export function clearSession(queryClient: QueryClient): void {
  void queryClient.cancelQueries();
  queryClient.removeQueries({ predicate: (q) => q.queryKey[0] !== USER_QUERY_KEY[0] });
  setCurrentUser(queryClient, null);
  clearCached();
}
