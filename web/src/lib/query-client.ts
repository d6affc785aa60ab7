import { QueryClient } from '@tanstack/react-query';
import { keyToPath, throwIfNotOk } from './api-client';

/** Spec §7: GET of the key's path, no retry, no staleness-driven refetch, no focus refetch
 * unless a query asks for it. Hooks pass their own zod-parsing queryFn; this default only
 * covers a query that forgot to, and still fails loudly on non-OK. */
export function createQueryClient(): QueryClient {
  return new QueryClient({
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
}

export const queryClient = createQueryClient();
