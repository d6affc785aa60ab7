// The incident report form over a real device database (fake-indexeddb): the type's own
// fields save into typeSpecificData through the kit (two quick taps keep both), a value the
// type's schema refuses is answered on its field and not stored, and the completion panel
// links each missing field, the type's ones included.
import 'fake-indexeddb/auto';
import { readOutbox } from '@rescuelog/sync-protocol/client/outbox';
import type { SyncDatabase } from '@rescuelog/sync-protocol/client/local-db';
import { cleanup, screen, waitFor, within } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { afterEach, describe, expect, it } from 'vitest';
import { startSyncSession, stopSyncSession } from '@/lib/sync/sync-session';
import { makeUser } from '@/test/fixtures';
import { signedInAs } from '@/test/render-app';
import { renderRoute } from '@/test/render-route';
import { server } from '@/test/server';
import { createIncidentReport } from './report-writes';
import { IncidentReportView } from './report-view';
import { NewIncidentReport } from './report-screens';
import { IncidentReportList } from './report-list';
import { createRecord } from '@/lib/records/record-writes';

const USER = makeUser({ id: 5150, fullName: 'Thandi Nkosi', callSign: 'R7' });
let db: SyncDatabase | undefined;

function device() {
  server.use(
    http.post('/api/sync/push', () => HttpResponse.error()),
    http.post('/api/sync/pull', () => HttpResponse.error()),
    // The list's server source unreachable: the device's reports, filtered on the device.
    http.get('/api/incident-reports', () => HttpResponse.error()),
  );
  signedInAs(USER);
  const session = startSyncSession(USER.id);
  if (!session) throw new Error('no IndexedDB in the test environment');
  db = session.db;
}

afterEach(async () => {
  stopSyncSession();
  await db?.delete();
  db = undefined;
});

async function typeData(id: string): Promise<unknown[]> {
  if (!db) return [];
  return (await readOutbox(db))
    .map((e) => e.mutation)
    .filter((m) => m.name === 'incidentReport.upsert')
    .map((m) => m.args as { id: string; fields: { typeSpecificData?: unknown } })
    .filter((a) => a.id === id && a.fields.typeSpecificData !== undefined)
    .map((a) => a.fields.typeSpecificData);
}

describe('incident report form', () => {
  it('saves the type’s own fields into typeSpecificData; quick taps keep each other', async () => {
    device();
    const id = await createIncidentReport('water-rescue', USER);
    const { user } = renderRoute(
      '/incident-reports/report/:id',
      <IncidentReportView />,
      `/incident-reports/report/${id}`,
    );
    const waterType = await screen.findByRole('group', { name: /Water type/ });
    await user.click(within(waterType).getByText('Flood'));
    await user.click(
      within(screen.getByRole('group', { name: /Rescue technique/ })).getByText('Boat'),
    );
    await waitFor(async () =>
      expect((await typeData(id)).at(-1)).toEqual({ waterType: 'Flood', rescueTechnique: 'Boat' }),
    );
    const victims = screen.getByRole('textbox', { name: /^Victims/ });
    expect(victims).toHaveAttribute('id', 'field-typeSpecificData-victims');
    await user.type(victims, '3');
    await user.tab();
    await waitFor(async () =>
      expect((await typeData(id)).at(-1)).toEqual({
        waterType: 'Flood',
        rescueTechnique: 'Boat',
        victims: 3,
      }),
    );
  });

  it('a value the type refuses is shown on its field and nothing is stored', async () => {
    device();
    const id = await createIncidentReport('hazmat', USER);
    const { user } = renderRoute(
      '/incident-reports/report/:id',
      <IncidentReportView />,
      `/incident-reports/report/${id}`,
    );
    const un = await screen.findByLabelText(/^UN number/);
    await user.type(un, '12');
    await user.tab();
    expect(await screen.findByText('A UN number is four digits, e.g. 1203')).toBeVisible();
    expect(await typeData(id)).toEqual([]);
  });

  it('the completion panel links each missing field, the type’s own included', async () => {
    device();
    const id = await createIncidentReport('search-and-rescue', USER);
    renderRoute(
      '/incident-reports/report/:id',
      <IncidentReportView />,
      `/incident-reports/report/${id}`,
    );
    const link = await screen.findByRole('link', { name: 'Record missing persons' });
    expect(link).toHaveAttribute(
      'href',
      expect.stringContaining('#field-typeSpecificData-missingPersons'),
    );
    expect(screen.getByRole('link', { name: 'Give the report a title' })).toBeVisible();
    // The responder and the start time were filled in when the report was made.
    expect(screen.queryByRole('link', { name: 'Name the responder' })).toBeNull();
    expect(screen.queryByRole('link', { name: 'Record when the incident started' })).toBeNull();
  });

  it('an unknown type names the types instead of a blank form', async () => {
    device();
    renderRoute(
      '/incident-reports/new/:type',
      <NewIncidentReport />,
      '/incident-reports/new/kite-rescue',
    );
    expect(await screen.findByRole('heading', { name: 'Unknown report type' })).toBeVisible();
    const types = within(screen.getByRole('list', { name: 'Report types' })).getAllByRole('link');
    expect(types).toHaveLength(11);
    expect(types.map((t) => t.textContent)).toContain('Water rescue');
  });

  it('the list finds reports by words, type, responder and date', async () => {
    device();
    await createRecord('incidentReport', {
      incidentType: 'water-rescue',
      title: 'Car in the Liesbeek',
      responderName: 'Thandi Nkosi',
    });
    await createRecord('incidentReport', {
      incidentType: 'hazmat',
      title: 'Tanker leak on the N1',
      responderName: 'Sipho Dlamini',
      responderCallSign: 'R9',
    });
    const today = new Date().toLocaleDateString('en-CA', { timeZone: 'Africa/Johannesburg' });
    const cases: [string, string][] = [
      ['?q=liesbeek', 'Car in the Liesbeek'],
      ['?incidentType=hazmat', 'Tanker leak on the N1'],
      ['?responder=r9', 'Tanker leak on the N1'],
      ['?responder=nkosi', 'Car in the Liesbeek'],
    ];
    for (const [query, title] of cases) {
      renderRoute(
        '/incident-reports/list',
        <IncidentReportList />,
        `/incident-reports/list${query}`,
      );
      expect(await screen.findByText(title)).toBeVisible();
      expect(screen.getAllByRole('link', { name: /Car in the|Tanker leak/ })).toHaveLength(1);
      cleanup();
    }
    renderRoute(
      '/incident-reports/list',
      <IncidentReportList />,
      `/incident-reports/list?from=${today}&to=${today}`,
    );
    await waitFor(() =>
      expect(screen.getAllByRole('link', { name: /Car in the|Tanker leak/ })).toHaveLength(2),
    );
    cleanup();
    renderRoute(
      '/incident-reports/list',
      <IncidentReportList />,
      '/incident-reports/list?to=2020-01-01',
    );
    expect(await screen.findByText('No incident reports found')).toBeVisible();
  });
});
