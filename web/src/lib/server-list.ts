// A log screen's server source: GET <path>?<filters>&limit=N[&cursor=…], a page at a time
// ("Load more"), the body a list the screen's zod schema parses and the next page's cursor in
// the X-Next-Cursor header (the keyset paging every list endpoint uses, decision 010). Asked
// only while the browser is online; the list scaffold (components/record-list) shows the
// device's records otherwise. Decision 058.
import { useInfiniteQuery } from '@tanstack/react-query';
import { useMemo } from 'react';
import type { z } from 'zod';
import { apiFetch, throwIfNotOk } from '@/lib/api-client';
import { useOnline } from '@/hooks/use-online';

export const SERVER_PAGE_SIZE = 50;

export interface ServerPage<T> {
  items: T[];
  nextCursor: string | null;
}

/** What the scaffold needs of a server list (the TanStack infinite query, narrowed). */
export interface ServerList<T> {
  /** The pages loaded so far, in the server's order. */
  items: T[];
  /** Not asked (offline), waiting for the first page, answered, or failed. */
  status: 'off' | 'pending' | 'success' | 'error';
  error: unknown;
  /** A page is being asked for (the first, the next, or a refresh). */
  fetching: boolean;
  hasMore: boolean;
  loadingMore: boolean;
  loadMore: () => void;
  retry: () => void;
}

export interface ServerListOptions<T> {
  /** The endpoint, e.g. '/api/cases'. */
  path: string;
  /** The screen's filters as query parameters (limit and cursor are added here). */
  params: URLSearchParams;
  /** Parses one page's body (a boundary: the server's answer). */
  schema: z.ZodType<T[]>;
  pageSize?: number;
  /** false: never asked (a list without a server source). */
  enabled?: boolean;
}

async function fetchPage<T>(
  { path, params, schema, pageSize = SERVER_PAGE_SIZE }: ServerListOptions<T>,
  cursor: string | null,
  signal: AbortSignal,
): Promise<ServerPage<T>> {
  const query = new URLSearchParams(params);
  query.set('limit', String(pageSize));
  if (cursor) query.set('cursor', cursor);
  const res = await apiFetch(`${path}?${query.toString()}`, { credentials: 'include', signal });
  await throwIfNotOk(res);
  return {
    items: schema.parse(await res.json()),
    nextCursor: res.headers.get('X-Next-Cursor'),
  };
}

export function useServerList<T>(options: ServerListOptions<T>): ServerList<T> {
  const online = useOnline();
  const paramsKey = options.params.toString();
  const query = useInfiniteQuery({
    // The same key shape as every other read of the endpoint: [path, { search }].
    queryKey: [options.path, { search: paramsKey }],
    queryFn: ({ pageParam, signal }) => fetchPage(options, pageParam, signal),
    initialPageParam: null as string | null,
    getNextPageParam: (last) => last.nextCursor,
    enabled: online && options.enabled !== false,
    // A list others keep adding to: opening the screen again asks the server again.
    staleTime: 0,
  });
  const items = useMemo(() => query.data?.pages.flatMap((p) => p.items) ?? [], [query.data]);
  const { fetchNextPage, refetch } = query;
  return {
    items,
    status:
      !online || options.enabled === false
        ? 'off'
        : query.isSuccess
          ? 'success'
          : query.isError
            ? 'error'
            : 'pending',
    error: query.error,
    fetching: query.isFetching,
    hasMore: query.hasNextPage,
    loadingMore: query.isFetchingNextPage,
    loadMore: () => void fetchNextPage(),
    retry: () => void refetch(),
  };
}
