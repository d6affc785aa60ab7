// Conflict review (decision 015): an administrator keeps one value on /admin/conflicts, and
// the dashboard counts what is open.
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';
import type { SyncConflict } from '@rescuelog/sync-protocol/platform/conflicts';
import { makeUser } from '@/test/fixtures';
import { dashboardData, renderApp, signedInAs } from '@/test/render-app';
import { server } from '@/test/server';

const admin = makeUser({ id: 1, role: 'administrator', fullName: 'Admin One' });

describe('/admin/conflicts', () => {
  const open: SyncConflict = {
    id: '41',
    entity: 'case',
    kindLabel: 'case',
    entityId: '7a3e2c10-1f2b-4c3d-9e8f-001122334455',
    humanId: 'C-0ABC-DEFG-HJK1',
    field: 'patientName',
    baseVersion: '80',
    serverValue: 'Themba Mokoena',
    serverAuthor: 7,
    serverAuthorName: 'Thandi Nkosi',
    clientValue: 'Tembo Mokwena',
    clientAuthor: 8,
    clientAuthorName: 'Sipho Dlamini',
    createdAt: '2026-11-24T08:15:00.000Z',
    resolvedAt: null,
    resolvedBy: null,
    resolution: null,
  };

  it('lets an administrator keep one value, which is sent as the resolution', async () => {
    signedInAs(admin);
    let conflicts = [open];
    const resolved: unknown[] = [];
    server.use(
      http.get('/api/admin/conflicts', () => HttpResponse.json({ conflicts })),
      http.post('/api/admin/conflicts/41/resolve', async ({ request }) => {
        resolved.push(await request.json());
        conflicts = [];
        return HttpResponse.json({
          conflict: { ...open, resolvedAt: '2026-11-24T09:00:00.000Z', resolution: 'server' },
        });
      }),
    );
    renderApp('/admin/conflicts');
    const card = await screen.findByRole('listitem', {
      name: 'Case C-0ABC-DEFG-HJK1: Patient name',
    });
    expect(within(card).getByText('Thandi Nkosi entered first')).toBeInTheDocument();
    expect(within(card).getByText('Sipho Dlamini entered later (held now)')).toBeInTheDocument();
    await userEvent.click(within(card).getByRole('button', { name: "Keep Thandi Nkosi's value" }));
    await waitFor(() => expect(resolved).toEqual([{ choice: 'server' }]));
    expect(await screen.findByText(/No open conflicts/)).toBeInTheDocument();
  });

  it('is counted on the administrator dashboard', async () => {
    signedInAs(admin);
    dashboardData();
    server.use(http.get('/api/admin/conflicts', () => HttpResponse.json({ conflicts: [open] })));
    renderApp('/');
    const link = await screen.findByRole('link', { name: /Conflicts to review/ });
    await waitFor(() => expect(link).toHaveTextContent('1 open'));
  });
});
