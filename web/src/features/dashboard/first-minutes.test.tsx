// Issue 37 on the dashboard: the role badge names the role the member was given; GET
// /api/cases is asked once over the first load (the hand-over from the server's list to the
// one with the device's cases did abort it); without signal Quick Stats show the last counts
// this device received and when, never "!"; the notifications offer comes after the actions.
import 'fake-indexeddb/auto';
import { screen, waitFor, within } from '@testing-library/react';
import { delay, http, HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';
import { makeUser } from '@/test/fixtures';
import { dashboardData, renderApp, signedInAs } from '@/test/render-app';
import { server } from '@/test/server';
import { STATS_CACHE_KEY } from './api/use-stats';
import { setCached } from '@/lib/local-cache';

describe('dashboard, first minutes', () => {
  it("shows the role's display name in the header", async () => {
    signedInAs(makeUser({ roleId: 3, roleName: 'Responder' }));
    dashboardData();
    renderApp('/');
    const header = await screen.findByRole('banner');
    expect(await within(header).findByText('Responder')).toBeInTheDocument();
    expect(within(header).queryByText('Member')).toBeNull();
  });

  it('asks GET /api/cases once, and never aborts it, while the device list joins', async () => {
    signedInAs(makeUser());
    dashboardData();
    let asked = 0;
    let aborted = 0;
    server.use(
      http.post('/api/sync/pull', () => HttpResponse.error()),
      http.post('/api/sync/push', () => HttpResponse.error()),
      http.get('/api/cases', async ({ request }) => {
        asked += 1;
        request.signal.addEventListener('abort', () => (aborted += 1));
        // Still in the air when the page has loaded and the device's list takes over.
        await delay(300);
        return HttpResponse.json([]);
      }),
    );
    renderApp('/');
    const recent = await screen.findByRole('region', { name: 'Recent Cases' });
    expect(await within(recent).findByText('No cases yet', {}, { timeout: 3000 })).toBeVisible();
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(asked).toBe(1);
    expect(aborted).toBe(0);
  });

  it('without signal shows the last known counts with their time, not "!"', async () => {
    setCached(STATS_CACHE_KEY, {
      stats: { thisMonthIncidents: 9, thisWeekIncidents: 3, activeIncidents: 2 },
      at: '2026-11-28T03:13:00.000Z',
    });
    signedInAs(makeUser());
    dashboardData();
    server.use(http.get('/api/stats', () => HttpResponse.error()));
    renderApp('/');
    const stats = await screen.findByRole('region', { name: 'Quick Stats' });
    expect(await within(stats).findByText('Offline, as of 28 Nov 2026, 05:13')).toBeVisible();
    expect(within(stats).getByText('9')).toBeInTheDocument();
    expect(within(stats).getByText('2')).toBeInTheDocument();
    expect(within(stats).queryByText('!')).toBeNull();
  });

  it('puts the notifications offer after the main actions', async () => {
    signedInAs(makeUser());
    dashboardData();
    renderApp('/');
    const offer = await screen.findByRole(
      'region',
      { name: /notifications on this device/i },
      { timeout: 5000 },
    );
    const actions = screen.getByRole('navigation', { name: 'Main actions' });
    await waitFor(() =>
      expect(
        actions.compareDocumentPosition(offer) & Node.DOCUMENT_POSITION_FOLLOWING,
      ).toBeTruthy(),
    );
  });
});
