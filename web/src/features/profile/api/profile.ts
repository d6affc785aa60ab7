// The signed-in user's own account (issue 11): profile, password, sessions, documents.
import { documentsSchema, type DocumentsInput } from '@rescuelog/sync-protocol/accounts/uploads';
import {
  currentUserResponseSchema,
  endSessionsResponseSchema,
  passwordChangeResponseSchema,
  sessionListResponseSchema,
  type PasswordChangeInput,
  type ProfileUpdateInput,
  type SessionInfo,
} from '@rescuelog/sync-protocol/accounts/users';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { getJson, sendJson } from '@/lib/api-client';
import { setCurrentUser } from '@/lib/auth';

export const SESSIONS_KEY = '/api/user/sessions';

export function useUpdateProfile() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: ProfileUpdateInput) =>
      sendJson('PATCH', '/api/user/profile', currentUserResponseSchema, input),
    onSuccess: ({ user }) => setCurrentUser(queryClient, user),
  });
}

export function useChangePassword() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: PasswordChangeInput) =>
      sendJson('POST', '/api/user/password', passwordChangeResponseSchema, input),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: [SESSIONS_KEY] }),
  });
}

export function useSessions() {
  return useQuery({
    queryKey: [SESSIONS_KEY],
    queryFn: async ({ signal }): Promise<SessionInfo[]> =>
      (await getJson(SESSIONS_KEY, sessionListResponseSchema, signal)).sessions,
    staleTime: 0,
  });
}

export function useEndSessions() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (which: { id: string } | 'others') =>
      which === 'others'
        ? sendJson('POST', `${SESSIONS_KEY}/end-others`, endSessionsResponseSchema)
        : sendJson('DELETE', `${SESSIONS_KEY}/${which.id}`, endSessionsResponseSchema),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: [SESSIONS_KEY] }),
  });
}

/** PUT /api/user/documents with the new set of document URLs. */
export function useSaveDocuments() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: DocumentsInput) =>
      sendJson(
        'PUT',
        '/api/user/documents',
        currentUserResponseSchema,
        documentsSchema.parse(input),
      ),
    onSuccess: ({ user }) => setCurrentUser(queryClient, user),
  });
}
