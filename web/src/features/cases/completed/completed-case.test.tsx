import { CASE_ACCESS_HISTORY_DEFAULT_LIMIT } from '@rescuelog/sync-protocol/cases/api';
import {
  CASE_FIELDS,
  CASE_FIELD_DEFAULTS,
  type CaseRecord,
} from '@rescuelog/sync-protocol/cases/case-schema';
import { generateHumanId } from '@rescuelog/sync-protocol/platform/human-id';
import { screen, waitFor, within } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { makeUser } from '@/test/fixtures';
import { renderApp } from '@/test/render-app';
import { server } from '@/test/server';
import { pdfPages, reportFonts } from '@/lib/pdf/report-test-kit';
import {
  COMPLETE_FIELDS,
  deviceOf,
  deviceSyncing,
  outbox,
  seedCase,
  seedCompletableCase,
  seedCompletedCase,
  storedCase,
  wipeDevice,
} from './case-test-kit';
import { caseFieldKinds } from './case-addenda';

const { kindOf: fieldKind, parse: parseDraft } = caseFieldKinds;

const MEMBER = makeUser({ id: 7, role: 'member', fullName: 'Thandi Nkosi', callSign: 'R7' });
const ADMIN = makeUser({ id: 7, role: 'administrator', fullName: 'Thandi Nkosi', callSign: 'R7' });

// The lazily loaded route (and what it imports) is transformed once, before the first test
// starts waiting on the screen.
beforeAll(async () => {
  await import('@/app/routes/cases/case-completed');
  await import('@/app/routes/cases/treatment-provided');
}, 60_000);

// jsdom has no layout: the step layout scrolls a linked field into view.
Element.prototype.scrollIntoView ??= function scrollIntoView() {};

afterEach(async () => {
  await wipeDevice(MEMBER);
});

const accessEvents = async () =>
  (await outbox()).flatMap((e) =>
    e.mutation.name === 'case.access'
      ? [e.mutation.args as { caseId: string; action: string; detail?: string }]
      : [],
  );

describe('Completed case: completion', { timeout: 30_000 }, () => {
  it('lists each completion problem as a link to its step and field', async () => {
    deviceOf(MEMBER);
    const { caseId } = await seedCase({
      patientName: 'Sam',
      approximateAge: 40,
      hasMedicalAid: true,
    });
    renderApp(`/case-completed/${caseId}`);

    const problems = await screen.findByRole('heading', {
      name: /things to finish before completing/,
    });
    const panel = problems.closest('section') as HTMLElement;
    const link = (name: string) => within(panel).getByRole('link', { name });
    expect(link('Enter the incident type')).toHaveAttribute(
      'href',
      `/patient-details/${caseId}#field-incidentType`,
    );
    expect(link('Enter the medical aid provider')).toHaveAttribute(
      'href',
      `/patient-details/${caseId}#field-medicalAidProvider`,
    );
    expect(link('Record the level of consciousness (AVPU or a full GCS)')).toHaveAttribute(
      'href',
      `/primary-survey/${caseId}#field-avpu`,
    );
    expect(link('Record at least one set of vital signs')).toHaveAttribute(
      'href',
      `/secondary-survey/${caseId}#field-vitalSigns`,
    );
    expect(link('Enter the time the call was received')).toHaveAttribute(
      'href',
      `/response-details/${caseId}#field-callReceivedTime`,
    );
    // Grouped under their steps, in step order.
    const stepHeadings = within(panel)
      .getAllByRole('heading', { level: 4 })
      .map((h) => h.textContent);
    expect(stepHeadings).toEqual([
      'Patient Details',
      'Primary Survey',
      'Secondary Survey',
      'Response Details',
    ]);
    // Age is recorded, so it is not a problem.
    expect(
      within(panel).queryByRole('link', { name: "Enter the patient's approximate age" }),
    ).not.toBeInTheDocument();
  });

  it('follows a problem link to the step (the draft stays in progress)', async () => {
    deviceOf(MEMBER);
    const { id, caseId } = await seedCase({ patientName: 'Sam' });
    const { user, location } = renderApp(`/case-completed/${caseId}`);
    await user.click(await screen.findByRole('link', { name: 'Enter the incident type' }));
    await waitFor(() => expect(location.pathname).toBe(`/patient-details/${caseId}`));
    expect((await storedCase(id))?.status).not.toBe('completed');
  });

  it('completes a valid case after confirmation: locked, queued as case.complete, fields read-only', async () => {
    deviceOf(MEMBER);
    const { id, caseId } = await seedCompletableCase();
    const { user } = renderApp(`/case-completed/${caseId}`);

    expect(
      await screen.findByText('Everything needed to complete this case is recorded.'),
    ).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Complete case' }));
    const dialog = await screen.findByRole('alertdialog', { name: 'Complete and lock this case?' });
    await user.click(within(dialog).getByRole('button', { name: 'Complete and lock' }));

    expect(await screen.findByText('Completed and locked')).toBeInTheDocument();
    expect((await storedCase(id))?.status).toBe('completed');
    expect((await outbox()).map((e) => e.mutation.name)).toContain('case.complete');
    expect(screen.queryByRole('button', { name: 'Complete case' })).not.toBeInTheDocument();
    expect(screen.queryByRole('link', { name: /^Edit / })).not.toBeInTheDocument();

    await user.click(screen.getByRole('link', { name: /Treatment/ }));
    const box = await screen.findByRole('checkbox', { name: 'Oxygen administered' });
    expect(box).toBeDisabled();
    expect(screen.getByLabelText('Medications given')).toHaveAttribute('readonly');
  });

  it('does not complete when cancelled', async () => {
    deviceOf(MEMBER);
    const { id, caseId } = await seedCompletableCase();
    const { user } = renderApp(`/case-completed/${caseId}`);
    await screen.findByText('Everything needed to complete this case is recorded.');
    await user.click(screen.getByRole('button', { name: 'Complete case' }));
    await user.click(
      within(await screen.findByRole('alertdialog')).getByRole('button', { name: 'Cancel' }),
    );
    expect((await storedCase(id))?.status).toBe('in_progress');
    expect((await outbox()).map((e) => e.mutation.name)).not.toContain('case.complete');
  });
});

describe('Completed case: record, addenda, handover', { timeout: 30_000 }, () => {
  it('shows the whole record by step, hiding empty fields unless asked', async () => {
    deviceOf(MEMBER);
    const { caseId } = await seedCompletedCase({ oxygenAdministered: true });
    const { user } = renderApp(`/case-completed/${caseId}`);
    const record = await screen.findByRole('region', { name: 'Case record' });
    const treatment = within(record).getByRole('region', { name: 'Treatment Provided' });
    expect(within(treatment).getByText('Oxygen administered')).toBeInTheDocument();
    expect(within(treatment).queryByText('CPR performed')).not.toBeInTheDocument();
    expect(within(record).getByText('Allergies').nextSibling).toHaveTextContent('Penicillin');

    await user.click(within(record).getByRole('checkbox', { name: 'Show empty fields' }));
    expect(within(treatment).getByText('CPR performed').nextSibling).toHaveTextContent('No');
    expect(within(record).getByText('Caller name').nextSibling).toHaveTextContent('Not recorded');
  });

  it('adds an addendum with a reason and before/after; the record shows the new value', async () => {
    deviceOf(MEMBER);
    const { id, caseId } = await seedCompletedCase();
    const { user } = renderApp(`/case-completed/${caseId}`);

    await user.click(await screen.findByRole('button', { name: 'Add addendum' }));
    await user.selectOptions(screen.getByLabelText('Field to correct'), 'Receiving hospital');
    await user.click(screen.getByRole('button', { name: 'Add field' }));
    const input = screen.getByLabelText('New receiving hospital');
    expect(input).toHaveValue('Helderberg Hospital');
    await user.clear(input);
    await user.type(input, 'Tygerberg Hospital');
    expect(screen.getByText('Before:').closest('p')).toHaveTextContent(
      'Before: Helderberg HospitalAfter: Tygerberg Hospital',
    );

    // The reason is required.
    await user.click(screen.getByRole('button', { name: 'Save addendum' }));
    expect(await screen.findByText('A reason is required')).toBeInTheDocument();
    expect((await outbox()).map((e) => e.mutation.name)).not.toContain('case.addendum');

    await user.type(screen.getByLabelText(/^Reason/), 'Diverted: Helderberg casualty full');
    await user.click(screen.getByRole('button', { name: 'Save addendum' }));

    await waitFor(async () =>
      expect((await storedCase(id))?.receivingHospital).toBe('Tygerberg Hospital'),
    );
    const addendum = (await outbox()).find((e) => e.mutation.name === 'case.addendum')?.mutation
      .args;
    expect(addendum).toMatchObject({
      caseId: id,
      reason: 'Diverted: Helderberg casualty full',
      changes: [
        { field: 'receivingHospital', before: 'Helderberg Hospital', after: 'Tygerberg Hospital' },
      ],
    });

    const addenda = screen.getByRole('region', { name: 'Addenda' });
    const item = await within(addenda).findByRole('listitem');
    expect(within(item).getByText('By Thandi Nkosi (R7)')).toBeInTheDocument();
    // Signed on the device (offline: the push fails) with the signed-in user's name and call sign.
    const addendumId = (addendum as { id: string } | undefined)?.id ?? '';
    // (Imported here: the session module must load after case-test-kit installs fake-indexeddb.)
    const { getSyncSession } = await import('@/lib/sync/sync-session');
    expect(await getSyncSession()?.db.store('caseAddenda').get(addendumId)).toMatchObject({
      userId: 7,
      authorName: 'Thandi Nkosi',
      authorCallSign: 'R7',
    });
    expect(within(item).getByText(/Diverted: Helderberg casualty full/)).toBeInTheDocument();
    const row = within(item).getByRole('row', { name: /Receiving hospital/ });
    expect(within(row).getByRole('cell', { name: 'Helderberg Hospital' })).toBeInTheDocument();
    expect(within(row).getByRole('cell', { name: 'Tygerberg Hospital' })).toBeInTheDocument();

    const record = screen.getByRole('region', { name: 'Case record' });
    await waitFor(() =>
      expect(within(record).getByText('Receiving hospital').nextSibling).toHaveTextContent(
        'Tygerberg Hospital',
      ),
    );
  });

  it('refuses an addendum value the field does not accept, and one equal to the current value', async () => {
    deviceOf(MEMBER);
    const { caseId } = await seedCompletedCase();
    const { user } = renderApp(`/case-completed/${caseId}`);
    await user.click(await screen.findByRole('button', { name: 'Add addendum' }));
    await user.selectOptions(screen.getByLabelText('Field to correct'), 'Approximate age');
    await user.click(screen.getByRole('button', { name: 'Add field' }));
    await user.clear(screen.getByLabelText('New approximate age'));
    await user.type(screen.getByLabelText('New approximate age'), '200');
    await user.selectOptions(screen.getByLabelText('Field to correct'), 'Triage status');
    await user.click(screen.getByRole('button', { name: 'Add field' }));
    await user.type(screen.getByLabelText(/^Reason/), 'Typo');
    await user.click(screen.getByRole('button', { name: 'Save addendum' }));
    // The spec's message for a number over the field's maximum. Matched whole: a pattern of
    // the bare number also matched the random case number whenever it held "150".
    expect(await screen.findByText('Number must be less than or equal to 150')).toBeInTheDocument();
    expect(
      screen.getByText('This is the current value: change it, or remove the field.'),
    ).toBeInTheDocument();
    expect((await outbox()).map((e) => e.mutation.name)).not.toContain('case.addendum');
  });

  it('renders the handover in ISBAR order and records printing in the outbox', async () => {
    const print = vi.spyOn(window, 'print').mockImplementation(() => undefined);
    deviceOf(MEMBER);
    const { id, caseId } = await seedCompletedCase({ oxygenAdministered: true });
    const { user } = renderApp(`/case-completed/${caseId}`);

    const handover = await screen.findByRole('article', { name: `Patient handover — ${caseId}` });
    const titles = within(handover)
      .getAllByRole('heading', { level: 4 })
      .map((h) => h.textContent?.slice(1));
    expect(titles).toEqual(['Identify', 'Situation', 'Background', 'Assessment', 'Recommendation']);
    const recommendation = within(handover).getByRole('region', { name: 'Recommendation' });
    expect(within(recommendation).getByText('Oxygen administered')).toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: 'Print handover' }));
    expect(print).toHaveBeenCalledTimes(1);
    await waitFor(async () =>
      expect(await accessEvents()).toContainEqual({
        id: expect.any(String),
        caseId: id,
        action: 'print',
        detail: 'handover',
      }),
    );
  });

  it('saves the handover as a PDF file made on the device and records it', async () => {
    // jsdom has no object URLs or downloads: catch the file where the browser would save it.
    const created: Blob[] = [];
    Object.defineProperty(URL, 'createObjectURL', {
      configurable: true,
      writable: true,
      value: (b: Blob) => (created.push(b), 'blob:handover'),
    });
    Object.defineProperty(URL, 'revokeObjectURL', {
      configurable: true,
      writable: true,
      value: () => undefined,
    });
    const clicks: string[] = [];
    vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (
      this: HTMLAnchorElement,
    ) {
      clicks.push(this.download);
    });
    // The report fonts, served as the app serves its assets (precached by the service worker).
    server.use(
      http.get(/\/noto-sans-(regular|bold)\.ttf$/, ({ request }) =>
        HttpResponse.arrayBuffer(
          reportFonts[request.url.includes('bold') ? 'bold' : 'regular'].slice().buffer,
          { headers: { 'Content-Type': 'font/ttf' } },
        ),
      ),
    );
    deviceOf(MEMBER);
    const { id, caseId } = await seedCompletedCase();
    const { user } = renderApp(`/case-completed/${caseId}`);
    await user.click(await screen.findByRole('button', { name: 'Save as PDF' }));

    expect(await screen.findByText(`Saved handover-${caseId}.pdf.`)).toBeInTheDocument();
    expect(clicks).toEqual([`handover-${caseId}.pdf`]);
    expect(created[0]?.type).toBe('application/pdf');
    const bytes = await new Promise<ArrayBuffer>((resolve, reject) => {
      const reader = new FileReader();
      reader.onload = () => resolve(reader.result as ArrayBuffer);
      reader.onerror = () => reject(reader.error ?? new Error('unreadable'));
      reader.readAsArrayBuffer(created[0] as Blob);
    });
    const [page, ...more] = await pdfPages(new Uint8Array(bytes));
    expect(more).toHaveLength(0);
    expect(page).toContain(`Patient handover — ${caseId}`);
    expect(await accessEvents()).toContainEqual(
      expect.objectContaining({ caseId: id, action: 'pdf', detail: 'handover' }),
    );
  });
});

/** A full server record (GET /api/cases/:caseId) for a case this device does not hold. */
function serverCase(overrides: Partial<CaseRecord> = {}): CaseRecord {
  const fields = Object.fromEntries(CASE_FIELDS.map((f) => [f, CASE_FIELD_DEFAULTS[f] ?? null]));
  return {
    ...fields,
    ...COMPLETE_FIELDS,
    id: crypto.randomUUID(),
    caseId: generateHumanId('C'),
    status: 'completed',
    createdAt: '2026-11-20T10:00:00.000Z',
    completedAt: '2026-11-20T11:00:00.000Z',
    userId: 3,
    updatedBy: 3,
    version: '12',
    updatedAt: '2026-11-20T11:00:00.000Z',
    deletedAt: null,
    ...overrides,
  } as CaseRecord;
}

describe('Completed case: administrators and server copies', { timeout: 30_000 }, () => {
  it('hides Unlock and Access history from members', async () => {
    deviceOf(MEMBER);
    const { caseId } = await seedCompletedCase();
    renderApp(`/case-completed/${caseId}`);
    await screen.findByText('Completed and locked');
    expect(screen.queryByRole('button', { name: 'Unlock case' })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Access history' })).not.toBeInTheDocument();
    expect(screen.queryByRole('heading', { name: 'Administrator' })).not.toBeInTheDocument();
  });

  it('lets an administrator unlock with a reason and read the access history page by page', async () => {
    deviceOf(ADMIN);
    const { id, caseId } = await seedCompletedCase();
    let unlockBody: unknown = null;
    const cursors: (string | null)[] = [];
    const entry = (n: number) => ({
      id: String(n),
      action: 'case.view',
      label: 'Viewed',
      outcome: 'success',
      at: '2026-11-20T12:00:00.000Z',
      occurredAt: null,
      actor: { id: 9, fullName: `Viewer ${String(n)}`, callSign: null },
      source: 'server',
      detail: 'case-completed',
      fields: [],
      reason: null,
      ip: '10.0.0.1',
      userAgent: null,
    });
    server.use(
      http.post(`/api/cases/${caseId}/unlock`, async ({ request }) => {
        unlockBody = await request.json();
        return HttpResponse.json({
          case: serverCase({ id, caseId, status: 'in_progress', completedAt: null }),
        });
      }),
      http.get(`/api/cases/${caseId}/access-history`, ({ request }) => {
        const url = new URL(request.url);
        cursors.push(url.searchParams.get('cursor'));
        expect(url.searchParams.get('limit')).toBe(String(CASE_ACCESS_HISTORY_DEFAULT_LIMIT));
        return url.searchParams.get('cursor') === null
          ? HttpResponse.json({ caseId, entries: [entry(2)], nextCursor: '1' })
          : HttpResponse.json({ caseId, entries: [entry(1)], nextCursor: null });
      }),
    );
    const { user } = renderApp(`/case-completed/${caseId}`);

    await user.click(await screen.findByRole('button', { name: 'Access history' }));
    expect(await screen.findByRole('cell', { name: 'Viewer 2' })).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Show older entries' }));
    expect(await screen.findByRole('cell', { name: 'Viewer 1' })).toBeInTheDocument();
    expect(cursors).toEqual([null, '1']);
    expect(screen.getByText('That is the whole history.')).toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: 'Unlock case' }));
    await user.click(screen.getByRole('button', { name: 'Unlock' }));
    expect(await screen.findByText('A reason is required')).toBeInTheDocument();
    expect(unlockBody).toBeNull();
    await user.type(screen.getByLabelText(/Reason for unlocking/), 'Wrong patient linked');
    await user.click(screen.getByRole('button', { name: 'Unlock' }));
    expect(await screen.findByText(/is unlocked on the server/)).toBeInTheDocument();
    expect(unlockBody).toEqual({ reason: 'Wrong patient linked' });
  });

  it("shows the server's refusal to unlock", async () => {
    deviceOf(ADMIN);
    const { caseId } = await seedCompletedCase();
    server.use(
      http.post(`/api/cases/${caseId}/unlock`, () =>
        HttpResponse.json(
          {
            error: 'Only a completed case can be unlocked; this case is already in progress.',
            code: 'CONFLICT',
          },
          { status: 409 },
        ),
      ),
    );
    const { user } = renderApp(`/case-completed/${caseId}`);
    await user.click(await screen.findByRole('button', { name: 'Unlock case' }));
    await user.type(screen.getByLabelText(/Reason for unlocking/), 'Check');
    await user.click(screen.getByRole('button', { name: 'Unlock' }));
    expect(
      await screen.findByText(
        'Could not unlock: Only a completed case can be unlocked; this case is already in progress.',
      ),
    ).toBeInTheDocument();
  });

  it('opens a case this device does not hold from the server, read-only', async () => {
    deviceOf(MEMBER);
    const record = serverCase({ receivingHospital: 'Groote Schuur' });
    server.use(
      http.get(`/api/cases/${record.caseId}`, () =>
        HttpResponse.json({
          case: record,
          vitalSigns: [],
          addenda: [
            {
              id: crypto.randomUUID(),
              caseId: record.id,
              reason: 'Hospital changed',
              changes: [
                {
                  field: 'receivingHospital',
                  before: 'Helderberg Hospital',
                  after: 'Groote Schuur',
                },
              ],
              userId: 3,
              createdAt: '2026-11-20T12:00:00.000Z',
              version: '13',
              updatedAt: '2026-11-20T12:00:00.000Z',
              deletedAt: null,
            },
            {
              id: crypto.randomUUID(),
              caseId: record.id,
              reason: 'Time corrected',
              changes: [],
              userId: 4,
              authorName: 'Sipho Dlamini',
              authorCallSign: null,
              createdAt: '2026-11-20T12:05:00.000Z',
              version: '14',
              updatedAt: '2026-11-20T12:05:00.000Z',
              deletedAt: null,
            },
          ],
        }),
      ),
    );
    renderApp(`/case-completed/${record.caseId}`);
    expect(await screen.findByText(/Opened from the server/)).toBeInTheDocument();
    expect(screen.getByText('Completed and locked')).toBeInTheDocument();
    expect(screen.getByText('By User 3')).toBeInTheDocument();
    expect(screen.getByText('By Sipho Dlamini')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Add addendum' })).not.toBeInTheDocument();
    expect(
      within(screen.getByRole('region', { name: 'Case record' })).getByText('Receiving hospital')
        .nextSibling,
    ).toHaveTextContent('Groote Schuur');
  });

  it("waits for the first pull after sign-in, then opens the device's copy instead of the server's", async () => {
    const record = serverCase({ receivingHospital: 'Groote Schuur' });
    let releasePull: () => void = () => undefined;
    const pullHeld = new Promise<void>((resolve) => (releasePull = resolve));
    let serverCopyRequested = false;
    // The handlers are in place before the session starts: its first sync is the held pull.
    server.use(
      http.post('/api/sync/push', () => HttpResponse.json({ lastAppliedSeq: 0, results: [] })),
      http.post('/api/sync/pull', async () => {
        await pullHeld;
        return HttpResponse.json({
          cursor: '12',
          hasMore: false,
          changes: [{ entity: 'case', id: record.id, version: '12', deleted: false, data: record }],
        });
      }),
      http.get(`/api/cases/${record.caseId}`, () => {
        serverCopyRequested = true;
        return HttpResponse.json({ case: record, vitalSigns: [], addenda: [] });
      }),
    );
    deviceSyncing(MEMBER);
    renderApp(`/case-completed/${record.caseId}`);

    expect(await screen.findByText('Getting your cases from the server')).toBeInTheDocument();
    releasePull();
    expect(await screen.findByText('Completed and locked')).toBeInTheDocument();
    expect(screen.queryByText(/Opened from the server/)).not.toBeInTheDocument();
    // The device's live copy: addenda can be written.
    expect(screen.getByRole('button', { name: 'Add addendum' })).toBeInTheDocument();
    expect(serverCopyRequested).toBe(false);
  });

  it("names the author of another user's addendum with their call sign from the device's copy, in the list and the handover", async () => {
    const record = serverCase({ receivingHospital: 'Groote Schuur' });
    const addendum = (
      n: number,
      userId: number,
      authorName: string | null,
      authorCallSign: string | null,
      reason: string,
    ) => ({
      entity: 'caseAddendum',
      id: `00000000-0000-4000-8000-00000000000${String(n)}`,
      version: String(12 + n),
      deleted: false,
      data: {
        id: `00000000-0000-4000-8000-00000000000${String(n)}`,
        caseId: record.id,
        reason,
        changes: [],
        userId,
        authorName,
        authorCallSign,
        createdAt: `2026-11-20T12:0${String(n)}:00.000Z`,
        version: String(12 + n),
        updatedAt: '2026-11-20T12:00:00.000Z',
        deletedAt: null,
      },
    });
    server.use(
      http.post('/api/sync/push', () => HttpResponse.json({ lastAppliedSeq: 0, results: [] })),
      http.post('/api/sync/pull', () =>
        HttpResponse.json({
          cursor: '15',
          hasMore: false,
          changes: [
            { entity: 'case', id: record.id, version: '12', deleted: false, data: record },
            addendum(1, 4, 'Sipho Dlamini', 'Rescue 3', 'Hospital changed'),
            // Written before the server stamped names: its author is known by number only.
            addendum(2, 3, null, null, 'Older note'),
          ],
        }),
      ),
    );
    deviceSyncing(MEMBER);
    renderApp(`/case-completed/${record.caseId}`);
    const addenda = await screen.findByRole('region', { name: 'Addenda' });
    expect(await within(addenda).findByText('By Sipho Dlamini (Rescue 3)')).toBeInTheDocument();
    expect(within(addenda).getByText('By User 3')).toBeInTheDocument();
    // The device's copy (what it shows without signal), not the server's.
    expect(screen.queryByText(/Opened from the server/)).not.toBeInTheDocument();
    const handover = screen.getByRole('article', { name: `Patient handover — ${record.caseId}` });
    expect(within(handover).getByText(/by Sipho Dlamini \(Rescue 3\)/)).toBeInTheDocument();
  });

  it('says so when a case is neither on the device nor reachable offline', async () => {
    deviceOf(MEMBER);
    vi.spyOn(navigator, 'onLine', 'get').mockReturnValue(false);
    renderApp(`/case-completed/${generateHumanId('C')}`);
    expect(
      await screen.findByRole('heading', { name: 'Case not on this device' }),
    ).toBeInTheDocument();
    expect(
      screen.getByText(/Connect to the internet to open it from the server/),
    ).toBeInTheDocument();
  });

  it('says so when the server does not have the case', async () => {
    deviceOf(MEMBER);
    const caseId = generateHumanId('C');
    server.use(
      http.get(`/api/cases/${caseId}`, () =>
        HttpResponse.json({ error: 'Case not found', code: 'NOT_FOUND' }, { status: 404 }),
      ),
    );
    renderApp(`/case-completed/${caseId}`);
    expect(await screen.findByRole('heading', { name: 'Case not found' })).toBeInTheDocument();
  });
});

describe('addendum inputs follow the field schema', () => {
  it('picks an input per field kind and parses drafts with the synced schema', () => {
    expect(fieldKind('callReceivedTime').kind).toBe('time');
    expect(fieldKind('hasMedicalAid')).toEqual({ kind: 'boolean', nullable: true });
    expect(fieldKind('oxygenAdministered')).toEqual({ kind: 'boolean', nullable: false });
    expect(fieldKind('avpu')).toEqual({
      kind: 'choice',
      options: ['A', 'V', 'P', 'U'],
      nullable: true,
    });
    expect(fieldKind('approximateAge')).toEqual({ kind: 'number', integer: true, nullable: true });
    expect(fieldKind('incidentLatitude')).toEqual({
      kind: 'number',
      integer: false,
      nullable: true,
    });
    expect(fieldKind('receivingHospital')).toEqual({
      kind: 'text',
      multiline: false,
      nullable: true,
    });
    expect(fieldKind('allergies')).toEqual({ kind: 'text', multiline: true, nullable: true });
    expect(fieldKind('symptoms').kind).toBe('list');
    expect(fieldKind('triageCounts').kind).toBe('json');

    expect(parseDraft('approximateAge', fieldKind('approximateAge'), '41')).toEqual({
      ok: true,
      value: 41,
    });
    expect(parseDraft('approximateAge', fieldKind('approximateAge'), '4.5').ok).toBe(false);
    expect(parseDraft('oxygenAdministered', fieldKind('oxygenAdministered'), '')).toEqual({
      ok: false,
      message: 'Choose Yes or No',
    });
    expect(parseDraft('symptoms', fieldKind('symptoms'), 'Chest pain\n\n Nausea ')).toEqual({
      ok: true,
      value: ['Chest pain', 'Nausea'],
    });
    expect(parseDraft('triageCounts', fieldKind('triageCounts'), '{"RED": 2}')).toEqual({
      ok: true,
      value: { RED: 2 },
    });
    expect(
      parseDraft('callReceivedTime', fieldKind('callReceivedTime'), '2026-11-20T10:00:00+02:00'),
    ).toEqual({ ok: true, value: '2026-11-20T08:00:00.000Z' });
  });
});
