// Opening the app without signal: the account this device last signed in with opens it
// (a crew that restarts the app in a dead zone still reaches its cases); with no account
// known, or after the server said the session is gone, it does not.
import { screen } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';
import { KNOWN_USER_KEY } from '@/lib/auth';
import { makeUser } from '@/test/fixtures';
import { dashboardData, renderApp, signedInAs } from '@/test/render-app';
import { server } from '@/test/server';

function noSignal() {
  server.use(http.get('/api/session', () => HttpResponse.error()));
}

describe('starting the app without signal', () => {
  it('opens the dashboard for the account last signed in on this device', async () => {
    const member = makeUser({ fullName: 'Thandi Mokoena', callSign: 'Rescue 7' });
    signedInAs(member);
    dashboardData();
    const first = renderApp('/');
    expect(await screen.findByText('Thandi Mokoena')).toBeInTheDocument();
    first.unmount();

    noSignal();
    const { location } = renderApp('/');
    expect(await screen.findByText('Thandi Mokoena')).toBeInTheDocument();
    expect(screen.getByRole('heading', { name: 'Quick Stats' })).toBeInTheDocument();
    expect(screen.queryByText('Could not load your account')).not.toBeInTheDocument();
    expect(location.pathname).toBe('/');
  });

  it('uses the device copy when the answer is not ours (captive portal page)', async () => {
    signedInAs(makeUser({ fullName: 'Sipho Dlamini' }));
    dashboardData();
    const first = renderApp('/');
    expect(await screen.findByText('Sipho Dlamini')).toBeInTheDocument();
    first.unmount();
    server.use(
      http.get(
        '/api/session',
        () =>
          new HttpResponse('<html>Sign in to the hotspot</html>', {
            status: 200,
            headers: { 'Content-Type': 'text/html' },
          }),
      ),
    );
    renderApp('/');
    expect(await screen.findByText('Sipho Dlamini')).toBeInTheDocument();
  });

  it('shows the load error when no account is known on this device', async () => {
    noSignal();
    renderApp('/');
    expect(
      await screen.findByRole('heading', { name: 'Could not load your account' }),
    ).toBeInTheDocument();
    expect(localStorage.getItem(KNOWN_USER_KEY)).toBeNull();
  });

  it('forgets the account when the server says the session is gone, so it cannot open offline later', async () => {
    signedInAs(makeUser({ fullName: 'Naledi Khumalo' }));
    dashboardData();
    const first = renderApp('/');
    expect(await screen.findByText('Naledi Khumalo')).toBeInTheDocument();
    first.unmount();
    expect(localStorage.getItem(KNOWN_USER_KEY)).toContain('Naledi Khumalo');

    signedInAs(null);
    const second = renderApp('/');
    expect(await screen.findByRole('tab', { name: 'Sign In' })).toBeInTheDocument();
    second.unmount();
    expect(localStorage.getItem(KNOWN_USER_KEY)).toBeNull();

    noSignal();
    renderApp('/');
    expect(
      await screen.findByRole('heading', { name: 'Could not load your account' }),
    ).toBeInTheDocument();
  });
});
