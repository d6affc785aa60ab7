// Conflicts a person sees (decision 015), on the device whose value was replaced: the case
// screen and the sync inbox show the conflict its device pulled (both values, who, when).
import { cleanup, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { makeUser } from '@/test/fixtures';
import { renderApp } from '@/test/render-app';
import { deviceOf, seedCase, wipeDevice } from '../completed/case-test-kit';

const thandi = makeUser({ id: 7, fullName: 'Thandi Nkosi' });

afterEach(async () => {
  await wipeDevice(thandi);
});

async function pulledConflict(caseUuid: string, resolvedAt: string | null = null) {
  const { getSyncSession } = await import('@/lib/sync/sync-session');
  await getSyncSession()?.db.records('syncConflict').put({
    id: '41',
    recordKind: 'case',
    entityId: caseUuid,
    field: 'patientName',
    serverValue: 'Themba Mokoena',
    serverAuthor: thandi.id,
    serverAuthorName: 'Thandi Nkosi',
    clientValue: 'Tembo Mokwena',
    clientAuthor: 8,
    clientAuthorName: 'Sipho Dlamini',
    createdAt: '2026-11-24T08:15:00.000Z',
    resolvedAt,
    resolvedBy: null,
    resolution: null,
    version: '90',
    updatedAt: '2026-11-24T08:15:00.000Z',
    deletedAt: null,
  });
}

describe('a conflict on the device whose value was replaced', () => {
  it('shows on the case screen with both values, who and when, and in the sync inbox', async () => {
    deviceOf(thandi);
    const { id, caseId } = await seedCase({ patientName: 'Tembo Mokwena' });
    await pulledConflict(id);
    renderApp(`/patient-details/${caseId}`);
    const panel = await screen.findByRole('region', { name: 'Changed on two devices at once' });
    expect(within(panel).getByText('Patient name')).toBeInTheDocument();
    expect(within(panel).getByText('Kept now, entered by Sipho Dlamini')).toBeInTheDocument();
    expect(within(panel).getByText('Tembo Mokwena')).toBeInTheDocument();
    expect(within(panel).getByText('Replaced, entered by you')).toBeInTheDocument();
    expect(within(panel).getByText('Themba Mokoena')).toBeInTheDocument();
    expect(within(panel).getByText(/Noticed 24 Nov 2026, 10:15/)).toBeInTheDocument();

    cleanup();
    renderApp('/sync-inbox');
    const inbox = await screen.findByRole('region', { name: 'Changed on two devices at once' });
    expect(within(inbox).getByText('You entered').nextElementSibling).toHaveTextContent(
      'Themba Mokoena',
    );
    expect(within(inbox).getByText('Sipho Dlamini entered').nextElementSibling).toHaveTextContent(
      'Tembo Mokwena',
    );
  });

  it('is gone from the case screen once settled', async () => {
    deviceOf(thandi);
    const { id, caseId } = await seedCase({ patientName: 'Themba Mokoena' });
    await pulledConflict(id, '2026-11-24T09:00:00.000Z');
    renderApp(`/patient-details/${caseId}`);
    await screen.findByRole('heading', { name: 'Patient Details' });
    expect(
      screen.queryByRole('region', { name: 'Changed on two devices at once' }),
    ).not.toBeInTheDocument();
  });
});
