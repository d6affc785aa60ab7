import { screen, within } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';
import { makeUser } from '@/test/fixtures';
import { dashboardData, expectToast, renderApp, signedInAs } from '@/test/render-app';
import { server } from '@/test/server';
import actionGrid from './components/action-grid.module.css';

const ALL_BUTTONS = [
  'New Case',
  'CPR Logger',
  'Multi-Patient',
  'Incident Reports',
  'First Aid Protocols',
  'Medical Inventory',
  'CPR Logs',
  'Cases Logged',
  'Multi-Patient Logs',
  'Internal SOPs',
  'Help & Guide',
];

async function buttonLabels() {
  const nav = await screen.findByRole('navigation', { name: 'Main actions' });
  return within(nav)
    .getAllByRole('link')
    .map((a) => a.querySelector(`.${String(actionGrid.label)}`)?.textContent);
}

describe('dashboard', () => {
  it('shows the header, quick stats and the primary survey reference', async () => {
    signedInAs(makeUser({ fullName: 'Thandi Nkosi', callSign: 'R7' }));
    dashboardData();
    renderApp('/');
    expect(await screen.findByRole('heading', { level: 1, name: 'RescueLog' })).toBeInTheDocument();
    expect(screen.getByText('Thandi Nkosi')).toBeInTheDocument();
    expect(screen.getByText('R7')).toBeInTheDocument();
    expect(screen.getByText('Member')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Profile' })).toHaveAttribute('href', '/profile');
    const stats = screen.getByRole('region', { name: 'Quick Stats' });
    expect(await within(stats).findByText('12')).toBeInTheDocument();
    expect(within(stats).getByText('This Month')).toBeInTheDocument();
    expect(within(stats).getByText('This Week')).toBeInTheDocument();
    expect(within(stats).getByText('4')).toBeInTheDocument();
    expect(within(stats).getByText('Active')).toBeInTheDocument();
    const survey = screen.getByRole('region', { name: 'Primary Survey Quick Reference' });
    expect(
      within(survey)
        .getAllByRole('listitem')
        .map((li) => li.textContent),
    ).toEqual([
      'Hazard (scene safety)',
      'Hello (responsiveness)',
      'Help (call emergency services)',
      'Hemorrhage (control severe bleeding)',
      'Airway',
      'Breathing',
      'Circulation',
    ]);
  });

  it('shows the email when there is no full name', async () => {
    signedInAs(makeUser({ fullName: '', email: 'nameless@example.org', callSign: null }));
    dashboardData();
    renderApp('/');
    expect(await screen.findByText('nameless@example.org')).toBeInTheDocument();
  });

  it('refetches stats every 30 s and on window focus', async () => {
    signedInAs(makeUser());
    dashboardData();
    const { queryClient } = renderApp('/');
    await screen.findByText('12');
    const query = queryClient.getQueryCache().find({ queryKey: ['/api/stats'] });
    const observer = query?.observers[0];
    expect(observer?.options.refetchInterval).toBe(30000);
    expect(observer?.options.refetchOnWindowFocus).toBe('always');
  });

  it('caps the unread badge at 99+', async () => {
    signedInAs(makeUser());
    dashboardData({ unread: 150 });
    renderApp('/');
    const bell = await screen.findByRole('button', { name: 'Notifications, 99+ unread' });
    expect(within(bell).getByText('99+')).toBeInTheDocument();
  });

  it('shows the exact count up to 99', async () => {
    signedInAs(makeUser());
    dashboardData({ unread: 99 });
    renderApp('/');
    expect(
      await screen.findByRole('button', { name: 'Notifications, 99 unread' }),
    ).toHaveTextContent('99');
  });

  it('gives an administrator every button and the Administrator Tools card', async () => {
    signedInAs(makeUser({ role: 'administrator' }));
    dashboardData();
    renderApp('/');
    expect(await buttonLabels()).toEqual(ALL_BUTTONS);
    expect(screen.getByText('Administrator')).toBeInTheDocument();
    // The card loads after the home screen is painted (its code is a chunk of its own).
    const tools = await screen.findByRole('region', { name: 'Administrator Tools' });
    expect(within(tools).getByRole('link', { name: 'User Management' })).toHaveAttribute(
      'href',
      '/admin/users',
    );
    expect(within(tools).getByRole('link', { name: 'Notifications' })).toHaveAttribute(
      'href',
      '/admin/notifications',
    );
    expect(within(tools).getByRole('link', { name: 'System Settings' })).toHaveAttribute(
      'href',
      '/system-settings',
    );
  });

  it('hides create buttons from a member without create permission (spec §6 default) and the admin card', async () => {
    signedInAs(makeUser({ role: 'member', permissions: {} }));
    dashboardData();
    renderApp('/');
    expect(await buttonLabels()).toEqual([
      'First Aid Protocols',
      'Medical Inventory',
      'CPR Logs',
      'Cases Logged',
      'Multi-Patient Logs',
      'Internal SOPs',
      'Help & Guide',
    ]);
    expect(screen.queryByRole('region', { name: 'Administrator Tools' })).not.toBeInTheDocument();
  });

  it('follows explicit flags: create granted, view withdrawn, ungated buttons always shown', async () => {
    signedInAs(
      makeUser({
        permissions: {
          newCase: { create: true },
          cprLogger: true,
          cprLogs: { view: false },
          firstAidProtocols: false,
          medicalInventory: false,
        },
      }),
    );
    dashboardData();
    renderApp('/');
    expect(await buttonLabels()).toEqual([
      'New Case',
      'CPR Logger',
      'Medical Inventory',
      'Cases Logged',
      'Multi-Patient Logs',
      'Internal SOPs',
      'Help & Guide',
    ]);
    expect(screen.getByRole('link', { name: /New Case/ })).toHaveAttribute(
      'href',
      '/patient-details',
    );
    expect(screen.getByRole('link', { name: /Cases Logged/ })).toHaveAttribute(
      'href',
      '/case-search',
    );
  });

  it('lists the first three recent cases with links, fallbacks, times and pills', async () => {
    const now = Date.now();
    const hoursAgo = (h: number) => new Date(now - h * 3_600_000 - 60_000).toISOString();
    signedInAs(makeUser());
    dashboardData({
      cases: [
        {
          id: 'a',
          caseId: 'RL-001',
          patientName: null,
          incidentType: 'Motor vehicle accident',
          status: 'in_progress',
          createdAt: new Date(now - 60_000).toISOString(),
          completedAt: null,
          userId: 7,
        },
        {
          id: 'b',
          caseId: 'RL-002',
          patientName: null,
          incidentType: null,
          status: 'completed',
          createdAt: hoursAgo(1),
          completedAt: null,
          userId: 7,
        },
        {
          id: 'c',
          caseId: 'RL-003',
          patientName: null,
          incidentType: 'Fall',
          status: 'completed',
          createdAt: hoursAgo(5),
          completedAt: null,
          userId: 7,
        },
        {
          id: 'd',
          caseId: 'RL-004',
          patientName: null,
          incidentType: 'Burn',
          status: 'completed',
          createdAt: null,
          completedAt: null,
          userId: 7,
        },
      ],
    });
    renderApp('/');
    const card = await screen.findByRole('region', { name: 'Recent Cases' });
    const rows = await within(card).findAllByRole('link', { name: /RL-/ });
    expect(rows).toHaveLength(3);
    expect(rows[0]).toHaveAttribute('href', '/primary-survey/RL-001');
    expect(rows[0]).toHaveTextContent('Motor vehicle accident');
    expect(rows[0]).toHaveTextContent('Just now');
    expect(rows[0]).toHaveTextContent('In Progress');
    expect(rows[1]).toHaveAttribute('href', '/case-completed/RL-002');
    expect(rows[1]).toHaveTextContent('Unknown Incident');
    expect(rows[1]).toHaveTextContent('1 hour ago');
    expect(rows[1]).toHaveTextContent('Completed');
    expect(rows[2]).toHaveTextContent('5 hours ago');
    expect(within(card).queryByText('RL-004')).not.toBeInTheDocument();
    expect(within(card).getByRole('link', { name: 'View All' })).toHaveAttribute(
      'href',
      '/case-search',
    );
  });

  it("says 'No cases yet' when there are none", async () => {
    signedInAs(makeUser());
    dashboardData({ cases: [] });
    renderApp('/');
    expect(await screen.findByText('No cases yet')).toBeInTheDocument();
  });

  it('logs out: user gone, cache_ entries cleared, other local data kept', async () => {
    signedInAs(makeUser());
    dashboardData();
    server.use(http.post('/api/logout', () => HttpResponse.json({ message: 'Logged out' })));
    localStorage.setItem('cache_cases', JSON.stringify({ savedAt: Date.now(), value: [] }));
    localStorage.setItem('device-id', 'abc');
    const { user, location } = renderApp('/');
    await user.click(await screen.findByRole('button', { name: 'Log out' }));
    expect(await screen.findByRole('tab', { name: 'Sign In' })).toBeInTheDocument();
    expect(location.pathname).toBe('/auth');
    expect(localStorage.getItem('cache_cases')).toBeNull();
    expect(localStorage.getItem('device-id')).toBe('abc');
    await expectToast('Logged out', 'You have been logged out successfully');
  });

  it("keeps the user signed in and says 'Logout failed' when the server refuses", async () => {
    signedInAs(makeUser());
    dashboardData();
    server.use(
      http.post('/api/logout', () =>
        HttpResponse.json({ error: 'Internal Server Error', code: 'INTERNAL' }, { status: 500 }),
      ),
    );
    const { user } = renderApp('/');
    await user.click(await screen.findByRole('button', { name: 'Log out' }));
    await expectToast('Logout failed', 'Internal Server Error');
    expect(screen.getByRole('heading', { name: 'Quick Stats' })).toBeInTheDocument();
  });
});
