// A running app reads the user again when it comes back to the foreground (once its copy is
// USER_STALE_MS old) and every USER_REFRESH_EVERY_MS while shown (auth.ts currentUserQuery):
// what an administrator changed reaches it without a restart, and a session the server ended
// sends it to sign-in without waiting for a refused request. Signed out, nothing is read.
import 'fake-indexeddb/auto';
import { focusManager } from '@tanstack/react-query';
import { act, screen, waitFor } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { USER_STALE_MS } from '@/lib/auth';
import { stopSyncSession, wipeLocalData } from '@/lib/sync/sync-session';
import type { User } from '@rescuelog/sync-protocol/accounts/users';
import { makeUser } from '@/test/fixtures';
import { dashboardData, renderApp, signedInAs } from '@/test/render-app';
import { server } from '@/test/server';

const MEMBER = makeUser({ id: 7, role: 'member' });

/** Signed in as `user`, with the dashboard's calls and the sync answered quietly. */
function startsSignedInAs(user: User) {
  signedInAs(user);
  dashboardData();
  server.use(
    http.post('/api/sync/push', () => HttpResponse.json({ lastAppliedSeq: 0, results: [] })),
    http.post('/api/sync/pull', () =>
      HttpResponse.json({ cursor: '1', hasMore: false, keys: {}, changes: [] }),
    ),
  );
}

/** How many times the app has asked GET /api/user so far. */
function countUserReads(): () => number {
  let reads = 0;
  server.events.on('request:start', ({ request }) => {
    if (request.method === 'GET' && new URL(request.url).pathname === '/api/session') reads += 1;
  });
  return () => reads;
}

/** The app goes to the background and comes back (a responder switched apps). */
function backToForeground() {
  act(() => {
    focusManager.setFocused(false);
    focusManager.setFocused(true);
  });
}

/** The same, more than a minute later: the app's copy of the user is stale. */
function backToForegroundAfterAMinute() {
  vi.useFakeTimers({ toFake: ['Date'] });
  vi.setSystemTime(Date.now() + USER_STALE_MS + 1000);
  backToForeground();
}

afterEach(async () => {
  server.events.removeAllListeners();
  act(() => focusManager.setFocused(undefined));
  vi.useRealTimers();
  stopSyncSession();
  await wipeLocalData(MEMBER.id);
});

describe('the signed-in user, read again while the app runs', { timeout: 20_000 }, () => {
  it('shows a role an administrator gave once the app is back in the foreground, without asking more often than once a minute', async () => {
    const reads = countUserReads();
    startsSignedInAs(MEMBER);
    renderApp('/');
    expect(await screen.findByText('Member')).toBeInTheDocument();
    const afterStart = reads();

    // The administrator makes them an administrator.
    signedInAs({ ...MEMBER, role: 'administrator' });
    // Back within the minute: the app's copy is fresh, nothing is asked.
    backToForeground();
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(reads()).toBe(afterStart);
    expect(screen.getByText('Member')).toBeInTheDocument();

    // Back after more than a minute: the app asks, and shows the new role.
    backToForegroundAfterAMinute();
    expect(await screen.findByText('Administrator')).toBeInTheDocument();
    expect(reads()).toBe(afterStart + 1);
  });

  it('lets a volunteer waiting for approval in once an administrator approved them', async () => {
    startsSignedInAs({ ...MEMBER, status: 'pending' });
    renderApp('/');
    expect(await screen.findByText('Account Pending Approval')).toBeInTheDocument();

    signedInAs(MEMBER);
    backToForegroundAfterAMinute();
    expect(await screen.findByRole('heading', { name: 'Quick Stats' })).toBeInTheDocument();
  });

  it('goes to sign-in when the server ended the session meanwhile', async () => {
    startsSignedInAs(MEMBER);
    const { location } = renderApp('/');
    expect(await screen.findByText('Member')).toBeInTheDocument();

    // Signed out elsewhere, or suspended by an administrator.
    signedInAs(null);
    backToForegroundAfterAMinute();
    await waitFor(() => expect(location.pathname).toBe('/auth'));
  });

  it('reads nothing again on the sign-in screen', async () => {
    const reads = countUserReads();
    signedInAs(null);
    renderApp('/auth');
    expect(await screen.findByRole('button', { name: 'Sign In' })).toBeInTheDocument();
    const afterStart = reads();
    backToForegroundAfterAMinute();
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(reads()).toBe(afterStart);
  });
});
