// The signed-in app's pull after an administrator changed what the user may see: the next
// pull starts from the beginning, so records older than the device's cursor that the new
// access opens reach the device (sync-protocol client/pull.ts accessKeyOf). The access is the
// user as GET /api/user last answered, read at every pull.
import 'fake-indexeddb/auto';
import { http, HttpResponse } from 'msw';
import { afterEach, describe, expect, it } from 'vitest';
import { waitFor } from '@testing-library/react';
import { USER_QUERY_KEY } from '@/lib/auth';
import { getSyncSession, stopSyncSession, wipeLocalData } from '@/lib/sync/sync-session';
import { makeUser } from '@/test/fixtures';
import { dashboardData, renderApp, signedInAs } from '@/test/render-app';
import { server } from '@/test/server';

const MEMBER = makeUser({
  id: 7,
  permissions: { casesLogged: { view: false, edit: false, delete: false } },
});

afterEach(async () => {
  stopSyncSession();
  await wipeLocalData(MEMBER.id);
});

describe('the pull after a change of access', { timeout: 20_000 }, () => {
  it('keeps its cursor while the access is the same, and starts over after a grant', async () => {
    const cursors: (string | null)[] = [];
    signedInAs(MEMBER);
    dashboardData();
    server.use(
      http.post('/api/sync/push', () => HttpResponse.json({ lastAppliedSeq: 0, results: [] })),
      http.post('/api/sync/pull', async ({ request }) => {
        const body = (await request.json()) as { cursor: string | null };
        cursors.push(body.cursor);
        return HttpResponse.json({ cursor: '42', hasMore: false, keys: {}, changes: [] });
      }),
    );
    const { queryClient } = renderApp('/');
    await waitFor(() => expect(cursors).toEqual([null]));
    const engine = getSyncSession()?.engine;
    if (!engine) throw new Error('no sync session');

    await engine.sync('timer');
    expect(cursors.at(-1)).toBe('42');

    // The administrator grants Cases Logged view; the app reads the user again.
    signedInAs({
      ...MEMBER,
      permissions: { casesLogged: { view: true, edit: false, delete: false } },
    });
    await queryClient.refetchQueries({ queryKey: USER_QUERY_KEY });
    await engine.sync('timer');
    expect(cursors.at(-1)).toBeNull();
    await engine.sync('timer');
    expect(cursors.at(-1)).toBe('42');
  });
});
