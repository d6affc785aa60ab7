import { screen } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';
import { makeUser } from '@/test/fixtures';
import { dashboardData, renderApp, signedInAs } from '@/test/render-app';
import { server } from '@/test/server';

describe('access guard', () => {
  it('shows a spinner while the user loads, then sends a signed-out visitor to /auth', async () => {
    let requests = 0;
    server.use(
      http.get('/api/session', () => {
        requests += 1;
        return HttpResponse.json({ user: null });
      }),
    );
    const { location } = renderApp('/');
    expect(screen.getByRole('status')).toHaveTextContent(/loading/i);
    expect(await screen.findByRole('tab', { name: 'Sign In' })).toBeInTheDocument();
    expect(location.pathname).toBe('/auth');
    expect(requests).toBe(1); // signed out is an answer, not retried
  });

  it('shows the pending screen with its exact text and Back to Login signs out', async () => {
    signedInAs(makeUser({ status: 'pending' }));
    let loggedOut = false;
    server.use(
      http.post('/api/logout', ({ request }) => {
        loggedOut = request.headers.get('X-Requested-With') === 'rescuelog';
        return HttpResponse.json({ message: 'Logged out' });
      }),
    );
    const { user, location } = renderApp('/');
    expect(
      await screen.findByRole('heading', { level: 1, name: 'Account Pending Approval' }),
    ).toBeInTheDocument();
    expect(
      screen.getByText(
        'Your account is currently pending approval from an administrator. You will receive access once your account has been reviewed.',
      ),
    ).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Back to Login' }));
    expect(await screen.findByRole('tab', { name: 'Sign In' })).toBeInTheDocument();
    expect(loggedOut).toBe(true);
    expect(location.pathname).toBe('/auth');
  });

  it('refuses a member on /admin/users with Access Denied and a way home', async () => {
    signedInAs(makeUser({ role: 'member' }));
    dashboardData();
    const { user, location } = renderApp('/admin/users');
    expect(await screen.findByRole('heading', { name: 'Access Denied' })).toBeInTheDocument();
    expect(
      screen.getByText(
        'This page requires administrator privileges. Contact your administrator for access.',
      ),
    ).toBeInTheDocument();
    await user.click(screen.getByRole('link', { name: 'Back to Home' }));
    expect(await screen.findByRole('heading', { name: 'Quick Stats' })).toBeInTheDocument();
    expect(location.pathname).toBe('/');
  });

  it('sends a signed-in user away from /auth to the dashboard', async () => {
    signedInAs(makeUser());
    dashboardData();
    const { location } = renderApp('/auth');
    expect(await screen.findByRole('heading', { name: 'Quick Stats' })).toBeInTheDocument();
    expect(location.pathname).toBe('/');
  });

  it('shows Page Not Found for an unknown path, with a way home', async () => {
    signedInAs(null);
    renderApp('/no/such/page');
    expect(await screen.findByRole('heading', { name: 'Page Not Found' })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Go to Home' })).toHaveAttribute('href', '/');
  });

  it('goes to /auth when the session ends while the dashboard is open', async () => {
    signedInAs(makeUser());
    server.use(
      http.get('/api/stats', () => {
        signedInAs(null);
        return HttpResponse.json(
          { error: 'Session expired', code: 'SESSION_EXPIRED' },
          { status: 401 },
        );
      }),
      http.get('/api/cases', () => HttpResponse.json([])),
      http.get('/api/user/notifications/unread-count', () => HttpResponse.json({ count: 0 })),
    );
    const { location } = renderApp('/');
    expect(await screen.findByRole('tab', { name: 'Sign In' })).toBeInTheDocument();
    expect(location.pathname).toBe('/auth');
  });
});
