// When the browser says it is offline (an `offline` event, often just before or after the
// server ended the session in a moving vehicle), the screens still open: what the device
// knows shows at once, and what needs the server fails with its message instead of waiting
// for the signal behind a spinner.
import 'fake-indexeddb/auto';
import { holdUser, releaseHeldUser } from '@rescuelog/sync-protocol/client/active-user';
import { onlineManager } from '@tanstack/react-query';
import { screen } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { NO_CONNECTION_MESSAGE } from '@/lib/api-client';
import { stopSyncSession } from '@/lib/sync/sync-session';
import { makeUser } from '@/test/fixtures';
import { dashboardData, expectToast, renderApp, signedInAs } from '@/test/render-app';
import { server } from '@/test/server';

function noSignal() {
  server.use(
    http.get('/api/session', () => HttpResponse.error()),
    http.post('/api/login', () => HttpResponse.error()),
  );
}

/** The signed-in device's sync engine gets no answer either. */
function syncUnreachable() {
  server.use(
    http.post('/api/sync/push', () => HttpResponse.error()),
    http.post('/api/sync/pull', () => HttpResponse.error()),
  );
}

describe('the browser reports no signal', () => {
  beforeEach(() => onlineManager.setOnline(false));
  afterEach(async () => {
    onlineManager.setOnline(true);
    stopSyncSession();
    await releaseHeldUser(41);
  });

  it('shows the sign-in screen to a signed-out device', async () => {
    signedInAs(null);
    renderApp('/');
    expect(await screen.findByRole('tab', { name: 'Sign In' })).toBeInTheDocument();
    expect(screen.queryByText('Checking this device')).not.toBeInTheDocument();
  });

  it('shows the lock screen for changes held after the session ended', async () => {
    await holdUser({
      userId: 41,
      name: 'Lerato Dube',
      pending: 2,
      since: '2026-11-27T06:00:00.000Z',
    });
    signedInAs(null);
    renderApp('/');
    expect(
      await screen.findByRole('heading', { name: 'Unsynced changes are locked on this device' }),
    ).toBeInTheDocument();
    expect(screen.getByText(/has 2 unsynced changes here\./)).toBeInTheDocument();
  });

  it('opens the app for the account last signed in on this device', async () => {
    onlineManager.setOnline(true);
    signedInAs(makeUser({ fullName: 'Thandi Mokoena' }));
    dashboardData();
    syncUnreachable();
    const first = renderApp('/');
    expect(await screen.findByText('Thandi Mokoena')).toBeInTheDocument();
    first.unmount();

    onlineManager.setOnline(false);
    noSignal();
    renderApp('/');
    expect(await screen.findByText('Thandi Mokoena')).toBeInTheDocument();
  });

  it('answers a sign-in without signal with an error, not an endless "Signing in..."', async () => {
    signedInAs(null);
    const { user } = renderApp('/');
    await user.type(await screen.findByLabelText(/^Email/), 'crew@example.org');
    await user.type(screen.getByLabelText(/^Password/), 'a long passphrase');
    noSignal();
    await user.click(screen.getByRole('button', { name: 'Sign In' }));
    await expectToast('Login failed', NO_CONNECTION_MESSAGE);
    expect(screen.getByRole('button', { name: 'Sign In' })).toBeEnabled();
  });
});
