// The current user: one react-query entry (GET /api/user) that every screen reads. A 401
// means "no session" and resolves to null instead of failing or retrying (spec §7).
import { currentUserResponseSchema, type User } from '@rescuelog/sync-protocol/users';
import { queryOptions, useMutation, useQuery, useQueryClient, type QueryClient } from '@tanstack/react-query';
import { getJson, HttpError, errorMessage, sendJson } from './api-client';
import { clearCached } from './local-cache';
import { toast } from './toast-store';
import { z } from 'zod';

export const USER_QUERY_KEY = ['/api/user'] as const;

async function fetchCurrentUser({ signal }: { signal: AbortSignal }): Promise<User | null> {
  try {
    const { user } = await getJson('/api/user', currentUserResponseSchema, signal);
    return user;
  } catch (error) {
    if (error instanceof HttpError && error.status === 401) return null;
    throw error;
  }
}

export const currentUserQuery = queryOptions({ queryKey: USER_QUERY_KEY, queryFn: fetchCurrentUser, retry: false });

export function useUser() {
  return useQuery(currentUserQuery);
}

export function setCurrentUser(queryClient: QueryClient, user: User | null): void {
  queryClient.setQueryData<User | null>(USER_QUERY_KEY, user);
}

const logoutResponseSchema = z.object({ message: z.string() }).partial();

/**
 * Logout (spec §4): the user becomes null and every cached query and `cache_` entry goes.
 * Signing out is also how a pending user gets back to the sign-in screen.
 */
export function useLogout() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => sendJson('POST', '/api/logout', logoutResponseSchema),
    onSuccess: () => {
      clearSession(queryClient);
      toast({ title: 'Logged out', description: 'You have been logged out successfully' });
    },
    onError: (error) => {
      toast({ title: 'Logout failed', description: errorMessage(error) || 'Failed to logout', variant: 'destructive' });
    },
  });
}

export function clearSession(queryClient: QueryClient): void {
  void queryClient.cancelQueries();
  queryClient.removeQueries({ predicate: (q) => q.queryKey[0] !== USER_QUERY_KEY[0] });
  setCurrentUser(queryClient, null);
  clearCached();
}
