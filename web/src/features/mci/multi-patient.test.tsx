// Incident command on a real device database (fake-indexeddb), written through the one write
// path with the sync API unreachable (everything waits to sync): declare in one tap, tag in
// one tap with the suggested number, the START assistant's proposal confirmed, a duplicate
// tag refused on the device, re-triage kept as history, read aloud without speech synthesis.
import 'fake-indexeddb/auto';
import { openAppDatabase } from '@rescuelog/sync-protocol/records/device';
import { cleanup, screen, waitFor, within } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startSyncSession, stopSyncSession } from '@/lib/sync/sync-session';
import { useToastStore } from '@/lib/toast-store';
import { axeViolations } from '@/test/axe';
import { makeUser } from '@/test/fixtures';
import { signedInAs } from '@/test/render-app';
import { renderRoute } from '@/test/render-route';
import { server } from '@/test/server';
import { IncidentLogsPage } from './incident-logs-page';
import { declareIncident } from './mci-writes';
import { MultiPatientPage } from './multi-patient-page';

const USER = makeUser({
  id: 41,
  fullName: 'Naledi Mokoena',
  callSign: 'Q3',
  permissions: {
    multiPatient: { read: true, create: true },
    multiPatientLogs: { view: true },
  },
});

beforeEach(() => {
  server.use(
    http.post('/api/sync/push', () => HttpResponse.error()),
    http.post('/api/sync/pull', () => HttpResponse.error()),
  );
  signedInAs(USER);
  if (!startSyncSession(USER.id)) throw new Error('no IndexedDB in the test environment');
});

afterEach(async () => {
  cleanup();
  stopSyncSession();
  await openAppDatabase(USER.id).delete();
});

const count = (key: string) => screen.getByTestId(`count-${key}`);

async function declared() {
  const { user } = renderRoute(
    '/multi-patient/:incidentId?',
    <MultiPatientPage />,
    '/multi-patient',
  );
  await user.click(await screen.findByRole('button', { name: 'Declare a mass-casualty incident' }));
  await screen.findByRole('heading', { name: /^Incident I/ });
  return user;
}

describe('incident command', { timeout: 30_000 }, () => {
  it('declares in one tap and tags a casualty in one more, with the suggested tag', async () => {
    const user = await declared();
    const tagging = screen.getByRole('region', { name: 'Tag a casualty' });
    expect(within(tagging).getByLabelText('Tag number')).toHaveValue('Q3-1');
    await user.click(within(tagging).getByRole('button', { name: /^GREEN\b/ }));
    await waitFor(() => expect(count('GREEN')).toHaveTextContent('1'));
    expect(count('total')).toHaveTextContent('1');
    expect(count('unassigned')).toHaveTextContent('1');
    expect(within(screen.getByTestId('casualty-list')).getByText('Q3-1')).toBeInTheDocument();
    // The next suggestion follows on.
    await waitFor(() => expect(within(tagging).getByLabelText('Tag number')).toHaveValue('Q3-2'));
    expect(await axeViolations()).toEqual([]);
  });

  it('proposes a colour with START, which the responder confirms; a duplicate tag is refused', async () => {
    const user = await declared();
    const tagging = screen.getByRole('region', { name: 'Tag a casualty' });
    await user.click(
      within(tagging).getByRole('button', { name: 'Triage with START / JumpSTART' }),
    );
    await user.click(within(tagging).getByRole('button', { name: 'Adult (START)' }));
    await user.click(within(tagging).getByRole('button', { name: 'No' })); // walking
    await user.click(within(tagging).getByRole('button', { name: 'Yes' })); // breathing
    await user.click(within(tagging).getByRole('button', { name: 'No' })); // RR over 30
    await user.click(within(tagging).getByRole('button', { name: 'Yes' })); // poor perfusion
    expect(
      within(tagging).getByRole('heading', { name: 'START proposes RED (Immediate)' }),
    ).toBeInTheDocument();
    await user.click(within(tagging).getByRole('button', { name: 'Confirm RED' }));
    await waitFor(() => expect(count('RED')).toHaveTextContent('1'));
    expect(await within(tagging).findByText('Casualty Q3-1 tagged RED.')).toBeInTheDocument();

    const tagInput = within(tagging).getByLabelText('Tag number');
    await user.clear(tagInput);
    await user.type(tagInput, 'q3-1');
    await user.click(within(tagging).getByRole('button', { name: /^YELLOW\b/ }));
    expect(await within(tagging).findByRole('alert', {}, { timeout: 15_000 })).toHaveTextContent(
      'Tag q3-1 is already used in this incident.',
    );
    expect(count('total')).toHaveTextContent('1');
  });

  it('keeps a re-triage as history and counts the new colour', async () => {
    const user = await declared();
    const tagging = screen.getByRole('region', { name: 'Tag a casualty' });
    await user.click(within(tagging).getByRole('button', { name: /^YELLOW\b/ }));
    await waitFor(() => expect(count('YELLOW')).toHaveTextContent('1'));
    await user.click(
      within(screen.getByTestId('casualty-list')).getByRole('button', { name: /Q3-1/ }),
    );
    const panel = screen.getByRole('region', { name: 'Casualty Q3-1' });
    await user.click(within(panel).getByRole('button', { name: /^RED\b/ }));
    await waitFor(() => expect(count('RED')).toHaveTextContent('1'));
    expect(count('YELLOW')).toHaveTextContent('0');
    const history = screen.getByRole('list', { name: 'Triage history of Q3-1' });
    await waitFor(() => expect(within(history).getAllByRole('listitem')).toHaveLength(2));
  });

  it('says so when the browser cannot read the METHANE report aloud', async () => {
    const user = await declared();
    expect(screen.getByLabelText('METHANE report')).toHaveTextContent(
      'M, major incident: declared',
    );
    await user.click(screen.getByRole('button', { name: 'Read aloud' }));
    expect(useToastStore.getState().toasts.map((t) => t.title)).toContain(
      'Speech synthesis not supported',
    );
  });

  it('lists the device’s incidents in the log, and is axe clean', async () => {
    const { incidentId } = await declareIncident({ incidentType: 'Bus crash' });
    renderRoute('/multi-patient-logs', <IncidentLogsPage />);
    const results = await screen.findByRole('region', { name: 'Results' });
    await waitFor(() => expect(within(results).getByRole('link')).toHaveTextContent(incidentId));
    expect(within(results).getByRole('link')).toHaveTextContent('Bus crash');
    expect(await axeViolations()).toEqual([]);
  });

  it('shows no log without multiPatientLogs view', async () => {
    signedInAs({
      ...USER,
      permissions: {
        multiPatient: { read: true, create: true },
        multiPatientLogs: { view: false },
      },
    });
    renderRoute('/multi-patient-logs', <IncidentLogsPage />);
    expect(await screen.findByText(/permission to see multi-patient logs/)).toBeInTheDocument();
    expect(screen.queryByRole('region', { name: 'Results' })).toBeNull();
  });
});
