import { screen, within } from '@testing-library/react';
import { DEFAULT_SETTINGS } from '@rescuelog/sync-protocol/settings';
import { http, HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';
import { axeViolations } from '@/test/axe';
import { makeRoles, makeUser } from '@/test/fixtures';
import { dashboardData, renderApp, signedInAs } from '@/test/render-app';
import { server } from '@/test/server';

// Case capture screens need the user's local database (fake IndexedDB) and a quiet sync
// server: they are scanned in a11y-cases.test.tsx, so these tests stay without one.
describe('accessibility (axe, structural rules)', () => {
  it('/auth sign in and register tabs', async () => {
    signedInAs(null);
    const { user } = renderApp('/auth');
    await user.click(await screen.findByRole('button', { name: 'Sign In' }));
    await screen.findByText('Password is required');
    expect(await axeViolations()).toEqual([]);
    await user.click(screen.getByRole('tab', { name: 'Register' }));
    await user.selectOptions(await screen.findByLabelText(/^Qualifications/), 'Other');
    expect(await axeViolations()).toEqual([]);
  });

  it('dashboard of an administrator, with cases and the notifications dialog', async () => {
    signedInAs(makeUser({ role: 'administrator' }));
    dashboardData({
      unread: 1,
      cases: [
        {
          id: 'a',
          caseId: 'RL-001',
          patientName: null,
          incidentType: null,
          status: 'in_progress',
          createdAt: null,
          completedAt: null,
          userId: 1,
        },
      ],
    });
    server.use(
      http.get('/api/user/notifications/unread', () =>
        HttpResponse.json([
          {
            id: 1,
            title: 'Flood',
            message: 'Move',
            type: 'emergency',
            priority: 'critical',
            url: null,
            icon: null,
            createdAt: '2026-11-20T10:00:00Z',
            readAt: null,
          },
        ]),
      ),
      http.get('/api/user/notifications/read', () => HttpResponse.json([])),
    );
    const { user } = renderApp('/');
    await screen.findByText('RL-001');
    // The bell and the push offer (here: jsdom has no Push API) load after the first screen.
    await screen.findByRole('region', { name: 'Notifications on this device' });
    const bell = await screen.findByRole('button', { name: /^Notifications/ });
    expect(await axeViolations()).toEqual([]);
    await user.click(bell);
    await screen.findByText('Flood');
    expect(await axeViolations()).toEqual([]);
  });

  it('pending, access denied, not found and not-yet pages', async () => {
    signedInAs(makeUser({ status: 'pending' }));
    const pending = renderApp('/');
    await screen.findByRole('heading', { name: 'Account Pending Approval' });
    expect(await axeViolations()).toEqual([]);
    pending.unmount();

    signedInAs(makeUser());
    const denied = renderApp('/admin/users');
    await screen.findByRole('heading', { name: 'Access Denied' });
    expect(await axeViolations()).toEqual([]);
    denied.unmount();

    const missing = renderApp('/nowhere');
    await screen.findByRole('heading', { name: 'Page Not Found' });
    expect(await axeViolations()).toEqual([]);
    missing.unmount();

    renderApp('/help');
    await screen.findByRole('heading', { level: 1, name: 'Help & Guide' });
    expect(await axeViolations()).toEqual([]);
  });

  it('/admin/users with the access editor open', async () => {
    signedInAs(makeUser({ id: 1, role: 'administrator' }));
    server.use(
      http.get('/api/admin/users', () =>
        HttpResponse.json({ users: [makeUser({ id: 2, fullName: 'Sipho', status: 'pending' })] }),
      ),
      http.get('/api/admin/roles', () => HttpResponse.json({ roles: makeRoles() })),
    );
    const { user } = renderApp('/admin/users');
    await screen.findByRole('heading', { name: 'Sipho' });
    expect(await axeViolations()).toEqual([]);
    await user.click(screen.getByRole('button', { name: 'Edit access' }));
    const dialog = await screen.findByRole('dialog');
    await within(dialog).findByRole('combobox', { name: 'Role' });
    expect(await axeViolations()).toEqual([]);
  });

  it('/admin/roles with the role editor open', async () => {
    signedInAs(makeUser({ id: 1, role: 'administrator' }));
    server.use(http.get('/api/admin/roles', () => HttpResponse.json({ roles: makeRoles() })));
    const { user } = renderApp('/admin/roles');
    await screen.findByRole('heading', { name: 'Responder' });
    expect(await axeViolations()).toEqual([]);
    await user.click(screen.getByRole('button', { name: 'New role' }));
    await screen.findByRole('dialog', { name: 'New role' });
    expect(await axeViolations()).toEqual([]);
  });

  it('/profile and /system-settings', async () => {
    signedInAs(makeUser({ id: 1, role: 'administrator' }));
    server.use(
      http.get('/api/user/sessions', () =>
        HttpResponse.json({
          sessions: [
            {
              id: 'a'.repeat(32),
              current: true,
              createdAt: '2026-11-20T08:00:00.000Z',
              lastSeenAt: '2026-11-20T09:00:00.000Z',
              userAgent: 'Mozilla/5.0 (Linux; Android 14) Chrome/131.0',
              ip: '10.0.0.5',
            },
          ],
        }),
      ),
      http.get('/api/admin/settings', () =>
        HttpResponse.json({ settings: DEFAULT_SETTINGS, updatedAt: null }),
      ),
      http.get('/api/admin/roles', () => HttpResponse.json({ roles: makeRoles() })),
    );
    const profile = renderApp('/profile');
    await screen.findByText('Chrome on Android');
    // jsdom has no Push API: the section says so (its other states: push.test.tsx).
    await screen.findByText('Cannot receive push notifications');
    expect(await axeViolations()).toEqual([]);
    profile.unmount();
    renderApp('/system-settings');
    await screen.findByRole('button', { name: 'Save settings' });
    expect(await axeViolations()).toEqual([]);
    // Two full pages scanned one after the other: slower than one scan on a loaded machine.
  }, 20_000);
});
