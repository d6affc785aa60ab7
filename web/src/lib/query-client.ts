import { MutationCache, QueryCache, QueryClient } from '@tanstack/react-query';
import { apiFetch, HttpError, keyToPath, throwIfNotOk } from './api-client';

/** The current user's query (auth.ts USER_QUERY_KEY; not imported: auth.ts loads later). */
const USER_PATH = '/api/session';

/**
 * Every query and mutation runs when asked, whatever the browser's online flag says. The flag
 * is a hint: the service worker may answer, a captive portal may lie, and many queries read
 * only the device (who is signed in, whose changes are held). TanStack's default ("online")
 * instead pauses anything started after an `offline` event, so a responder whose session
 * ended just before the signal went saw "Checking this device" until the signal came back.
 * With no retries, "offlineFirst" is one attempt: a failure shows the screen's own error or
 * offline state, never an endless spinner.
 */
const OFFLINE_FIRST = 'offlineFirst' as const;

/** Spec §7: GET of the key's path, no retry, no staleness-driven refetch, no focus refetch
 * unless a query asks for it. Hooks pass their own zod-parsing queryFn; this default only
 * covers a query that forgot to, and still fails loudly on non-OK. */
export function createQueryClient(): QueryClient {
  // A 401 anywhere means the session ended (expired, suspended, signed out elsewhere):
  // re-ask GET /api/session so the guard sends the user to /auth instead of showing errors.
  const onError = (error: unknown, key?: readonly unknown[]) => {
    if (error instanceof HttpError && error.status === 401 && key?.[0] !== USER_PATH) {
      void client.invalidateQueries({ queryKey: [USER_PATH] });
    }
  };
  const client: QueryClient = new QueryClient({
    queryCache: new QueryCache({ onError: (error, query) => onError(error, query.queryKey) }),
    mutationCache: new MutationCache({ onError: (error) => onError(error) }),
    defaultOptions: {
      queries: {
        queryFn: async ({ queryKey, signal }) => {
          const res = await apiFetch(keyToPath(queryKey), { credentials: 'include', signal });
          await throwIfNotOk(res);
          return (await res.json()) as unknown;
        },
        retry: false,
        staleTime: Infinity,
        refetchOnWindowFocus: false,
        refetchOnReconnect: false,
        networkMode: OFFLINE_FIRST,
      },
      mutations: { retry: false, networkMode: OFFLINE_FIRST },
    },
  });
  return client;
}

export const queryClient = createQueryClient();
