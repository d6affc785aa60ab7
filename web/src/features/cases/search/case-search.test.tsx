// Cases Logged with a real local database (fake-indexeddb) and the API stubbed at the HTTP
// level (MSW): server results merged with cases only this device has, keyset "Load more",
// filters in the URL, offline search over the device, empty, error and bad-URL states.
import 'fake-indexeddb/auto';
import { generateHumanId } from '@rescuelog/sync-protocol/platform/human-id';
import type { CaseSummary } from '@rescuelog/sync-protocol/cases/api';
import { cleanup, screen, waitFor, within } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { getSyncSession } from '@/lib/sync/sync-session';
import { axeViolations } from '@/test/axe';
import { makeUser } from '@/test/fixtures';
import { renderRoute, type RenderedRoute } from '@/test/render-route';
import { server } from '@/test/server';
import { deviceOf, seedCase, wipeDevice } from '../completed/case-test-kit';
import { CaseSearchPage } from './case-search-page';

const USER = makeUser({ id: 7, fullName: 'Thandi Nkosi', callSign: 'R7' });

function setOnline(online: boolean): void {
  Object.defineProperty(navigator, 'onLine', { configurable: true, get: () => online });
  window.dispatchEvent(new Event(online ? 'online' : 'offline'));
}

function summary(
  overrides: Partial<CaseSummary> & { caseId: string; createdAt: string },
): CaseSummary {
  return {
    id: crypto.randomUUID(),
    patientName: null,
    incidentType: null,
    status: 'completed',
    completedAt: null,
    userId: 9,
    responderName: null,
    responderCallSign: null,
    ...overrides,
  };
}

/** A case as a pull leaves it on the device: the row and its server copy. */
async function pulledCase(c: CaseSummary): Promise<void> {
  const session = getSyncSession();
  if (!session) throw new Error('no session');
  const row = { ...c, deletedAt: null, version: '5', updatedAt: c.createdAt };
  await session.db.store('cases').put(row);
  await session.db.serverCopies.put({ id: c.id, table: 'cases', data: row });
}

function renderSearch(path = '/case-search'): RenderedRoute {
  return renderRoute('/case-search', <CaseSearchPage />, path);
}

/** GET /api/cases answered from `pages` (keyed by cursor, '' for the first); records queries. */
function serverCases(
  pages: Record<string, { cases: CaseSummary[]; next?: string }>,
): URLSearchParams[] {
  const seen: URLSearchParams[] = [];
  server.use(
    http.get('/api/cases', ({ request }) => {
      const params = new URL(request.url).searchParams;
      seen.push(params);
      const page = pages[params.get('cursor') ?? ''];
      if (!page)
        return HttpResponse.json(
          { error: 'Invalid input', code: 'VALIDATION_FAILED' },
          { status: 400 },
        );
      return HttpResponse.json(page.cases, {
        headers: page.next ? { 'X-Next-Cursor': page.next } : {},
      });
    }),
  );
  return seen;
}

async function resultCards(): Promise<HTMLElement[]> {
  const results = await screen.findByRole('region', { name: 'Results' });
  await waitFor(() => expect(within(results).getAllByRole('link').length).toBeGreaterThan(0));
  return within(results).getAllByRole('link');
}

beforeEach(() => {
  setOnline(true);
});

afterEach(async () => {
  // Unmount first: coming back online would make a mounted screen ask the server.
  cleanup();
  setOnline(true);
  await wipeDevice(USER);
});

// Under a loaded CI machine the first test also waits for the screen's code to be transformed.
describe('Cases Logged', { timeout: 20_000 }, () => {
  it('online: shows the server’s cases merged with a case only this device has, and loads more by cursor', async () => {
    deviceOf(USER);
    const mine = await seedCase({
      patientName: 'Sipho Dlamini',
      incidentType: 'Fall',
      responderName: 'Thandi Nkosi',
      responderCallSign: 'R7',
    });
    const older = summary({
      caseId: 'C-2611-AAAA-0001',
      createdAt: '2020-03-05T08:15:00.000Z',
      patientName: 'Johan Botha',
      incidentType: 'Burns',
      status: 'completed',
      responderName: 'Anele Mokoena',
      responderCallSign: 'ALPHA-2',
    });
    // An hour before the case just made here (whatever today is).
    const inProgressElsewhere = summary({
      caseId: 'C-2611-AAAA-0002',
      createdAt: new Date(Date.now() - 3_600_000).toISOString(),
      status: 'in_progress',
    });
    const oldest = summary({
      caseId: 'C-2611-AAAA-0000',
      createdAt: '2019-11-01T06:00:00.000Z',
      patientName: 'Lerato Mokoena',
    });
    const seen = serverCases({
      '': { cases: [inProgressElsewhere, older], next: 'page-2' },
      'page-2': { cases: [oldest] },
    });
    const { user } = renderSearch();

    expect(
      await screen.findByRole('heading', { level: 1, name: 'Cases Logged' }),
    ).toBeInTheDocument();
    await waitFor(async () => expect(await resultCards()).toHaveLength(3));
    const cards = await resultCards();
    // Newest first: the case just made on this device, then the server's.
    expect(cards[0]).toHaveTextContent(mine.caseId);
    expect(cards[0]).toHaveTextContent('Sipho Dlamini');
    expect(cards[0]).toHaveTextContent('In Progress');
    expect(cards[0]).toHaveTextContent('Not yet synced');
    expect(cards[0]).toHaveAttribute('href', `/primary-survey/${mine.caseId}`);
    expect(cards[1]).toHaveTextContent('C-2611-AAAA-0002');
    expect(cards[1]).toHaveTextContent('Unknown patient');
    expect(cards[1]).toHaveTextContent('Unknown Incident');
    // Not on this device: opens the server's view of the case, whatever its status.
    expect(cards[1]).toHaveAttribute('href', '/case-completed/C-2611-AAAA-0002');
    expect(cards[1]).not.toHaveTextContent('Not yet synced');
    expect(cards[2]).toHaveTextContent('Johan Botha');
    expect(cards[2]).toHaveTextContent('Burns');
    expect(cards[2]).toHaveTextContent('5 Mar 2020, 10:15');
    expect(cards[2]).toHaveTextContent('Anele Mokoena (ALPHA-2)');
    expect(cards[2]).toHaveTextContent('Completed');
    expect(screen.getByText('Showing 3 cases; more on the server')).toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: 'Load more' }));
    await waitFor(async () => expect(await resultCards()).toHaveLength(4));
    expect((await resultCards())[3]).toHaveTextContent('Lerato Mokoena');
    expect(screen.queryByRole('button', { name: 'Load more' })).not.toBeInTheDocument();
    expect(screen.getByText('4 cases')).toBeInTheDocument();
    expect(seen.map((p) => [p.get('limit'), p.get('cursor')])).toEqual([
      ['50', null],
      ['50', 'page-2'],
    ]);
    expect(await axeViolations()).toEqual([]);
  });

  it('the device’s copy of a listed case wins (a change not yet synced shows at once)', async () => {
    deviceOf(USER);
    const c = summary({
      caseId: 'C-2611-BBBB-0001',
      createdAt: '2026-11-21T09:00:00.000Z',
      status: 'in_progress',
      userId: USER.id,
    });
    await pulledCase(c);
    const session = getSyncSession();
    await session?.db.store('cases').update(c.id, {
      status: 'completed',
      patientName: 'Named on the device',
    });
    serverCases({ '': { cases: [c] } });
    renderSearch();
    const [card] = await resultCards();
    await waitFor(() => expect(card).toHaveTextContent('Named on the device'));
    expect(card).toHaveTextContent('Completed');
    expect(card).toHaveAttribute('href', '/case-completed/C-2611-BBBB-0001');
  });

  it('keeps the filters in the URL, fills the form from it and sends them to the server', async () => {
    deviceOf(USER);
    const seen = serverCases({ '': { cases: [] } });
    const { user, location } = renderSearch(
      '/case-search?status=completed&patientName=thandi&from=2026-11-01',
    );

    expect(await screen.findByText('No cases found')).toBeInTheDocument();
    expect(screen.getByLabelText('Patient name')).toHaveValue('thandi');
    expect(screen.getByLabelText('Status')).toHaveValue('completed');
    // A filter behind "More filters" that is set opens them.
    expect(screen.getByRole('button', { name: 'More filters' })).toHaveAttribute(
      'aria-expanded',
      'true',
    );
    expect(screen.getByLabelText('Date from')).toHaveValue('1 Nov 2026');
    expect(Object.fromEntries(seen[0] ?? [])).toEqual({
      status: 'completed',
      patientName: 'thandi',
      from: '2026-11-01',
      limit: '50',
    });

    await user.type(screen.getByLabelText('Case number'), 'c-2611');
    await user.selectOptions(screen.getByLabelText('Incident type'), 'Fall');
    await user.type(screen.getByLabelText('Responder name or call sign'), 'R7');
    await user.click(screen.getByRole('checkbox', { name: 'Only my cases' }));
    await user.click(screen.getByRole('button', { name: 'Search' }));
    await waitFor(() => expect(seen).toHaveLength(2));
    expect(Object.fromEntries(new URLSearchParams(location.search))).toEqual({
      caseId: 'c-2611',
      patientName: 'thandi',
      incidentType: 'Fall',
      from: '2026-11-01',
      status: 'completed',
      responder: 'R7',
      mine: 'true',
    });
    expect(Object.fromEntries(seen[1] ?? [])).toMatchObject({
      caseId: 'c-2611',
      incidentType: 'Fall',
      responder: 'R7',
      mine: 'true',
    });

    await user.click(screen.getByRole('button', { name: 'Clear filters' }));
    await waitFor(() => expect(location.search).toBe(''));
    expect(screen.getByLabelText('Patient name')).toHaveValue('');
  });

  it('refuses a To date before the From date at the field, without searching', async () => {
    deviceOf(USER);
    const seen = serverCases({ '': { cases: [] } });
    const { user, location } = renderSearch();
    await screen.findByText('No cases found');
    await user.click(screen.getByRole('button', { name: 'More filters' }));
    await user.type(screen.getByLabelText('Date from'), '2026-11-21');
    await user.type(screen.getByLabelText('Date to'), '2026-11-20');
    await user.click(screen.getByRole('button', { name: 'Search' }));
    expect(await screen.findByRole('alert')).toHaveTextContent(
      "The 'To' date is before the 'From' date",
    );
    expect(screen.getByLabelText('Date to')).toHaveAttribute('aria-invalid', 'true');
    expect(location.search).toBe('');
    expect(seen).toHaveLength(1);
  });

  it('names a bad value in the URL at its field and searches without it', async () => {
    deviceOf(USER);
    const seen = serverCases({ '': { cases: [] } });
    renderSearch('/case-search?to=2026-02-30&status=open&patientName=Sam');
    expect(await screen.findByText('No cases found')).toBeInTheDocument();
    expect(screen.getByText('There is no 30 February 2026')).toBeInTheDocument();
    expect(screen.getByText('Invalid enum value')).toBeInTheDocument();
    expect(Object.fromEntries(seen[0] ?? [])).toEqual({ patientName: 'Sam', limit: '50' });
  });

  it('offline: searches the cases on this device with the same filters, and says so', async () => {
    deviceOf(USER);
    setOnline(false);
    // No GET /api/cases handler: a request would fail the test (MSW onUnhandledRequest).
    await pulledCase(
      summary({
        caseId: 'C-2611-CCCC-0001',
        createdAt: '2026-11-20T21:30:00.000Z',
        patientName: 'Zanele Khumalo',
        incidentType: 'Fall',
        status: 'completed',
      }),
    );
    // 00:30 on the 21st in Johannesburg (still the 20th in UTC).
    await pulledCase(
      summary({
        caseId: 'C-2611-CCCC-0002',
        createdAt: '2026-11-20T22:30:00.000Z',
        patientName: 'Pieter Naudé',
        incidentType: 'fall',
        status: 'in_progress',
        userId: USER.id,
      }),
    );
    await pulledCase(
      summary({
        caseId: 'C-2611-CCCC-0003',
        createdAt: '2026-11-22T10:00:00.000Z',
        patientName: 'Ayesha Patel',
        incidentType: 'Cardiac',
        status: 'completed',
      }),
    );
    renderSearch('/case-search?incidentType=FALL');

    expect(await screen.findByText('Offline — showing cases on this device')).toBeInTheDocument();
    let cards = await resultCards();
    expect(cards.map((c) => within(c).getByText(/^C-/).textContent)).toEqual([
      'C-2611-CCCC-0002',
      'C-2611-CCCC-0001',
    ]);
    expect(screen.getByText('2 cases on this device')).toBeInTheDocument();
    // On the device and in progress: resumes the capture.
    expect(cards[0]).toHaveAttribute('href', '/primary-survey/C-2611-CCCC-0002');

    cleanupAndRender('/case-search?from=2026-11-21&to=2026-11-21');
    cards = await resultCards();
    expect(cards.map((c) => within(c).getByText(/^C-/).textContent)).toEqual(['C-2611-CCCC-0002']);

    cleanupAndRender('/case-search?patientName=naud%C3%89&mine=true');
    cards = await resultCards();
    expect(cards.map((c) => within(c).getByText(/^C-/).textContent)).toEqual(['C-2611-CCCC-0002']);

    cleanupAndRender('/case-search?status=completed&incidentType=Cardiac&patientName=nobody');
    expect(await screen.findByText('No cases found')).toBeInTheDocument();
    expect(screen.getByText('Try fewer filters, or clear them.')).toBeInTheDocument();
    expect(await axeViolations()).toEqual([]);
  });

  it('when the server fails, says so, shows the device’s cases and can try again', async () => {
    deviceOf(USER);
    await pulledCase(
      summary({
        caseId: 'C-2611-DDDD-0001',
        createdAt: '2026-11-20T08:00:00.000Z',
        patientName: 'On the device',
      }),
    );
    let fail = true;
    server.use(
      http.get('/api/cases', () =>
        fail
          ? HttpResponse.json({ error: 'Internal Server Error', code: 'INTERNAL' }, { status: 500 })
          : HttpResponse.json([
              summary({
                caseId: 'C-2611-DDDD-0009',
                createdAt: '2026-11-21T08:00:00.000Z',
                patientName: 'From the server',
              }),
            ]),
      ),
    );
    const { user } = renderSearch();
    const alert = await screen.findByRole('alert');
    await waitFor(() =>
      expect(alert).toHaveTextContent(
        'Cases could not be loaded from the server (Internal Server Error). Showing cases on this device.',
      ),
    );
    expect(await resultCards()).toHaveLength(1);
    expect(screen.getByText('On the device')).toBeInTheDocument();

    fail = false;
    await user.click(within(alert).getByRole('button', { name: 'Try again' }));
    expect(await screen.findByText('From the server')).toBeInTheDocument();
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
  });

  it('shows device results 50 at a time offline', async () => {
    deviceOf(USER);
    setOnline(false);
    const session = getSyncSession();
    const rows = Array.from({ length: 60 }, (_, i) => {
      const id = crypto.randomUUID();
      return {
        id,
        caseId: generateHumanId('C'),
        createdAt: new Date(Date.UTC(2026, 10, 1, 0, i)).toISOString(),
        status: 'completed',
        userId: 9,
        deletedAt: null,
      };
    });
    await session?.db.store('cases').bulkPut(rows);
    const { user } = renderSearch();
    await waitFor(async () => expect(await resultCards()).toHaveLength(50));
    expect(screen.getByText('Showing 50 of 60 cases on this device')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Show more' }));
    await waitFor(async () => expect(await resultCards()).toHaveLength(60));
    expect(screen.queryByRole('button', { name: 'Show more' })).not.toBeInTheDocument();
  });
});

function cleanupAndRender(path: string): void {
  cleanup();
  renderSearch(path);
}
