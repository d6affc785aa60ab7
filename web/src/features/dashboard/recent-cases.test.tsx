// Recent Cases with a real local database (fake-indexeddb): a case made on this device shows
// at once (before or without the server), merged with GET /api/cases, one entry per case.
import 'fake-indexeddb/auto';
import type { CaseSummary } from '@rescuelog/sync-protocol/cases/api';
import { generateHumanId } from '@rescuelog/sync-protocol/platform/human-id';
import { screen, within } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { afterEach, describe, expect, it } from 'vitest';
import {
  saveLocalChange,
  startSyncSession,
  stopSyncSession,
  wipeLocalData,
} from '@/lib/sync/sync-session';
import { makeUser } from '@/test/fixtures';
import { renderApp, signedInAs } from '@/test/render-app';
import { server } from '@/test/server';

const USER = makeUser({ id: 7 });

function serverCase(
  caseId: string,
  hoursAgo: number,
  overrides: Partial<CaseSummary> = {},
): CaseSummary {
  return {
    id: crypto.randomUUID(),
    caseId,
    patientName: null,
    incidentType: 'Fall',
    status: 'completed',
    createdAt: new Date(Date.now() - hoursAgo * 3_600_000 - 60_000).toISOString(),
    completedAt: null,
    userId: USER.id,
    responderName: null,
    responderCallSign: null,
    ...overrides,
  };
}

/** Signed in, the sync API unreachable (the case stays in the outbox), the dashboard's calls answered. */
function offlineDevice(cases: CaseSummary[] | 'down') {
  signedInAs(USER);
  server.use(
    http.post('/api/sync/push', () => HttpResponse.error()),
    http.post('/api/sync/pull', () => HttpResponse.error()),
    http.get('/api/stats', () =>
      HttpResponse.json({ thisMonthIncidents: 0, thisWeekIncidents: 0, activeIncidents: 0 }),
    ),
    http.get('/api/user/notifications/unread-count', () => HttpResponse.json({ count: 0 })),
    http.get('/api/cases', () =>
      cases === 'down' ? HttpResponse.error() : HttpResponse.json(cases),
    ),
  );
  startSyncSession(USER.id);
}

async function caseMadeHere(incidentType: string): Promise<string> {
  const id = crypto.randomUUID();
  const caseId = generateHumanId('C');
  await saveLocalChange({
    name: 'case.upsert',
    args: { id, humanId: caseId, fields: { incidentType } },
    baseVersion: null,
    actorUserId: USER.id,
  });
  return caseId;
}

afterEach(async () => {
  stopSyncSession();
  await wipeLocalData(USER.id);
});

describe('Recent Cases with the device’s cases', { timeout: 20_000 }, () => {
  it('puts a case made on this device first, with its status, merged with the server’s newest', async () => {
    offlineDevice([
      serverCase('C-2611-SRV1-0001', 1, { status: 'in_progress' }),
      serverCase('C-2611-SRV1-0002', 2),
      serverCase('C-2611-SRV1-0003', 3),
    ]);
    const caseId = await caseMadeHere('Drowning');
    renderApp('/');
    const card = await screen.findByRole('region', { name: 'Recent Cases' });
    // The server's list may show first; the device's case joins it once its code has loaded.
    await within(card).findByText(caseId);
    const rows = within(card).getAllByRole('link', { name: /^C-/ });
    expect(rows).toHaveLength(3);
    expect(rows[0]).toHaveTextContent(caseId);
    expect(rows[0]).toHaveTextContent('Drowning');
    expect(rows[0]).toHaveTextContent('Just now');
    expect(rows[0]).toHaveTextContent('In Progress');
    expect(rows[0]).toHaveAttribute('href', `/primary-survey/${caseId}`);
    expect(rows[1]).toHaveTextContent('C-2611-SRV1-0001');
    expect(rows[1]).toHaveTextContent('1 hour ago');
    expect(rows[2]).toHaveTextContent('C-2611-SRV1-0002');
    expect(within(card).queryByText('C-2611-SRV1-0003')).not.toBeInTheDocument();
  });

  it('lists a case once when both the device and the server have it (the device’s status wins)', async () => {
    offlineDevice([]);
    const caseId = await caseMadeHere('Burns');
    server.use(
      http.get('/api/cases', () =>
        HttpResponse.json([serverCase(caseId, 0, { status: 'completed', incidentType: 'Burns' })]),
      ),
    );
    renderApp('/');
    const card = await screen.findByRole('region', { name: 'Recent Cases' });
    await within(card).findByText('In Progress');
    const rows = within(card).getAllByRole('link', { name: /^C-/ });
    expect(rows).toHaveLength(1);
    expect(rows[0]).toHaveTextContent('In Progress');
  });

  it('without the server, still shows the device’s cases and says where they come from', async () => {
    offlineDevice('down');
    const caseId = await caseMadeHere('Stroke');
    renderApp('/');
    const card = await screen.findByRole('region', { name: 'Recent Cases' });
    expect(await within(card).findByRole('link', { name: new RegExp(caseId) })).toHaveTextContent(
      'Stroke',
    );
    expect(
      await within(card).findByText(
        'Showing cases on this device: the server could not be reached.',
      ),
    ).toBeInTheDocument();
    expect(within(card).queryByText(/could not be loaded/)).not.toBeInTheDocument();
  });
});
