import { MutationCache, QueryCache, QueryClient } from '@tanstack/react-query';
import { HttpError, keyToPath, throwIfNotOk } from './api-client';

const USER_PATH = '/api/user';

/** Spec §7: GET of the key's path, no retry, no staleness-driven refetch, no focus refetch
 * unless a query asks for it. Hooks pass their own zod-parsing queryFn; this default only
 * covers a query that forgot to, and still fails loudly on non-OK. */
export function createQueryClient(): QueryClient {
  // A 401 anywhere means the session ended (expired, suspended, signed out elsewhere):
  // re-ask GET /api/user so the guard sends the user to /auth instead of showing errors.
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
          const res = await fetch(keyToPath(queryKey), { credentials: 'include', signal });
          await throwIfNotOk(res);
          return (await res.json()) as unknown;
        },
        retry: false,
        staleTime: Infinity,
        refetchOnWindowFocus: false,
        refetchOnReconnect: false,
      },
      mutations: { retry: false },
    },
  });
  return client;
}

export const queryClient = createQueryClient();
