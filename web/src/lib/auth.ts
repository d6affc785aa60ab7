// The current user: one react-query entry (GET /api/session) that every screen reads. Signed
// out, the server answers `{ user: null }` (not a 401, which the browser would log as a failed
// request on every visit to the sign-in screen; decision 059); a 401 from an older server means
// the same. Either resolves to null instead of failing or retrying (spec §7).
import { addEndingUser } from '@rescuelog/sync-protocol/client/ending-users';
import type { EndingUser } from '@rescuelog/sync-protocol/client/session-end';
import type { User } from '@rescuelog/sync-protocol/accounts/users';
import {
  queryOptions,
  useMutation,
  useQuery,
  useQueryClient,
  type QueryClient,
} from '@tanstack/react-query';
import {
  apiFetch,
  boundarySchemas,
  HttpError,
  errorMessage,
  sendJson,
  throwIfNotOk,
} from './api-client';
import { clearCached } from './local-cache';
import { toast } from './toast-store';

export const USER_QUERY_KEY = ['/api/session'] as const;

/**
 * The last account this device signed in with, kept so the app opens without signal: a crew
 * that reloads the app (or starts it) in a dead zone must still reach its cases. It is the
 * user's own profile, written when the server confirms the session and removed at logout or
 * when the server says the session is gone (401). Not a `cache_` entry: those expire after
 * 24 h (spec §9), and a shift can be longer than a day without signal.
 */
export const KNOWN_USER_KEY = 'rescuelog.knownUser';
/** The schema of the stored copy ({ user }), from its own chunk. */
const currentUserSchema = () => boundarySchemas().then((s) => s.currentUserResponseSchema);
/** The schema of GET /api/session's answer ({ user: User | null }). */
const sessionSchema = () => boundarySchemas().then((s) => s.sessionResponseSchema);

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
 * The users whose sessions the server ended while this device has not finished clearing or
 * holding their data (decision 023), oldest first. A user is added before the device forgets
 * the account and removed once that is done, so a page closed or reloaded in between (a
 * phone's OS killing the tab, a crew member pressing reload) finishes the job at the next
 * start instead of leaving patient data in a database nothing points at any more. A list: an
 * end cut short stays marked when another user's end is marked after it (the format is in
 * sync-protocol/src/client/ending-users.ts; a mark of one user, as earlier builds wrote it,
 * is read too).
 */
export const ENDING_USER_KEY = 'rescuelog.endingUser';

function storedEndingUsers(): string | null {
  try {
    return localStorage.getItem(ENDING_USER_KEY);
  } catch {
    return null;
  }
}

/** Adds the user to the mark at once (no zod: nothing to load, nothing to wait for). */
function markEndingUser(user: EndingUser): void {
  try {
    localStorage.setItem(ENDING_USER_KEY, addEndingUser(storedEndingUsers(), user));
  } catch {
    // Storage disabled: the end of the session runs once, as it is about to.
  }
}

/**
 * The mark's users, zod-parsed ([] when absent or unreadable), and a way to drop some of them.
 * The schema loads with the sync code, only when a mark exists; a failure to load it throws
 * (the mark must then stay). `drop` reads and writes the mark in one go, without waiting, so a
 * user marked meanwhile in this page is kept.
 */
async function endingUsers(): Promise<{
  users: EndingUser[];
  drop: (ids: ReadonlySet<number>) => void;
}> {
  const { endingUsersSchema } = await import('@rescuelog/sync-protocol/client/session-end');
  const parse = (): EndingUser[] => {
    const raw = storedEndingUsers();
    if (raw === null) return [];
    try {
      const parsed = endingUsersSchema.safeParse(JSON.parse(raw));
      return parsed.success ? parsed.data : [];
    } catch {
      return [];
    }
  };
  return {
    users: parse(),
    drop: (ids) => {
      const rest = parse().filter((user) => !ids.has(user.id));
      try {
        if (rest.length > 0) localStorage.setItem(ENDING_USER_KEY, JSON.stringify(rest));
        else localStorage.removeItem(ENDING_USER_KEY);
      } catch {
        // Storage disabled: nothing was kept.
      }
    },
  };
}

/** The user signed in again on this device: their data is theirs, so their mark goes. */
async function unmarkEndingUser(userId: number): Promise<void> {
  if (storedEndingUsers() === null) return;
  const { drop } = await endingUsers();
  drop(new Set([userId]));
}

/** Clears or holds the data of every marked user, oldest first (deletes it for `wipe`, the
 * user who chose so at logout); each user's mark goes only once that is done. An unreadable
 * mark goes at once: it names no one to finish. */
async function finishSessionEnds({ wipe }: { wipe?: number } = {}): Promise<void> {
  if (storedEndingUsers() === null) return;
  try {
    const { users, drop } = await endingUsers();
    if (users.length === 0) {
      drop(new Set());
      return;
    }
    const sync = await import('./sync/sync-session');
    for (const ending of users) {
      try {
        if (ending.id === wipe) await sync.wipeLocalData(ending.id);
        else await sync.endLocalSession(ending);
        drop(new Set([ending.id]));
      } catch {
        // This user's mark stays, so the next start tries again; their data stays in its
        // per-user database meanwhile. The others are still finished.
      }
    }
  } catch {
    // Never keep someone from the sign-in screen; the mark stays for the next start.
  }
}

/**
 * The one way the device ends a user's session after the server did (logout, or a 401): the
 * mark is written at once, before anything can be interrupted, then the user's data is
 * cleared or held (or deleted, `wipe`), with that of any user marked earlier and not finished.
 * A page closed meanwhile finishes it at its next start.
 */
export function endSessionOnDevice(
  user: EndingUser,
  options: { wipe?: boolean } = {},
): Promise<void> {
  markEndingUser(user);
  return finishSessionEnds(options.wipe === true ? { wipe: user.id } : {});
}

/** How long the first request for the user may take before the device's copy is used
 * (a hanging captive portal or a dying signal must not leave a spinner). */
export const USER_FETCH_TIMEOUT_MS = 8000;

/**
 * The server confirms no one is signed in. Whoever this device last signed in as gets their
 * patient data cleared, or held behind their own sign-in (decision 023), before the sign-in
 * screen shows. endSessionOnDevice writes its mark before it first waits, so before the
 * account is forgotten here; with no known account it still finishes an end marked earlier.
 */
async function sessionEnded(): Promise<null> {
  const known = await readKnownUser();
  const ended = known
    ? endSessionOnDevice({ id: known.id, name: displayName(known) })
    : finishSessionEnds();
  rememberUser(null);
  clearCached();
  await ended;
  return null;
}

/** GET /api/session's answer when no one is signed in: an object whose `user` is null. */
function isSignedOutAnswer(body: unknown): boolean {
  return typeof body === 'object' && body !== null && 'user' in body && body.user === null;
}

async function fetchCurrentUser({ signal }: { signal: AbortSignal }): Promise<User | null> {
  // AbortSignal.any is missing on older iOS Safari: combine by hand.
  const controller = new AbortController();
  const abort = () => controller.abort();
  signal.addEventListener('abort', abort, { once: true });
  const timer = setTimeout(abort, USER_FETCH_TIMEOUT_MS);
  try {
    // The schema's chunk (zod) downloads beside the request, as getJson does it, but the
    // signed-out answer does not wait for it: `{ user: null }` is that whole shape, and the
    // sign-in screen's first render must not wait for zod (decision 059).
    const schema = sessionSchema();
    schema.catch(() => undefined);
    const res = await apiFetch(USER_QUERY_KEY[0], {
      credentials: 'include',
      signal: controller.signal,
    });
    await throwIfNotOk(res);
    const body: unknown = await res.json();
    if (isSignedOutAnswer(body)) return await sessionEnded();
    const { user } = (await schema).parse(body);
    if (user === null) return await sessionEnded();
    rememberUser(user);
    // Ends interrupted earlier: the same user signed in again keeps their data; everyone
    // else's ended session is finished first.
    await unmarkEndingUser(user.id).catch(() => undefined);
    await finishSessionEnds();
    return user;
  } catch (error) {
    if (error instanceof HttpError && error.status === 401) return await sessionEnded();
    // No answer, a server error or a page that is not ours (captive portal): without signal
    // the account this device last signed in with opens the app; the sync engine asks for a
    // new sign-in if the server later refuses the session.
    if (signal.aborted) throw error;
    // The end of a session the server confirmed earlier needs no signal to finish.
    await finishSessionEnds();
    const known = await readKnownUser();
    if (known) return known;
    throw error;
  } finally {
    clearTimeout(timer);
    signal.removeEventListener('abort', abort);
  }
}

/**
 * The app reads the user again when it comes back to the foreground after this long, and every
 * USER_REFRESH_EVERY_MS while it is shown: what an administrator changed (role, permissions,
 * approval, a suspension or a password reset that ends the session) reaches a running app
 * within minutes, not only at its next start or at a refused request. The sync engine's next
 * pull reads the new access from here (use-sync-lifecycle.ts accessKey). Without signal the
 * read answers the device's copy, as at start. Signed out, nothing is read on a timer.
 */
export const USER_STALE_MS = 60_000;
export const USER_REFRESH_EVERY_MS = 5 * 60_000;

export const currentUserQuery = queryOptions({
  queryKey: USER_QUERY_KEY,
  queryFn: fetchCurrentUser,
  retry: false,
  staleTime: USER_STALE_MS,
  // Only while someone is signed in: the sign-in screen has no one to read again.
  refetchOnWindowFocus: (query) => query.state.data != null,
  refetchInterval: (query) => (query.state.data != null ? USER_REFRESH_EVERY_MS : false),
});

export function useUser() {
  return useQuery(currentUserQuery);
}

export function setCurrentUser(queryClient: QueryClient, user: User | null): void {
  rememberUser(user);
  if (user) void unmarkEndingUser(user.id).catch(() => undefined);
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
