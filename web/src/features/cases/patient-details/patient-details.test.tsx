import 'fake-indexeddb/auto';
import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { StrictMode } from 'react';
import { MemoryRouter } from 'react-router-dom';
import { afterEach, describe, expect, it } from 'vitest';
import { AppProvider } from '@/app/provider';
import { AppRoutes } from '@/app/router';
import { createQueryClient } from '@/lib/query-client';
import { getSyncSession } from '@/lib/sync/sync-session';
import { makeUser } from '@/test/fixtures';
import { dashboardData, renderApp } from '@/test/render-app';
import { deviceOf, outbox, seedCase, storedCase, wipeDevice } from '../completed/case-test-kit';
import { readIncidentType } from './options';

const RESPONDER = makeUser({
  id: 7,
  fullName: 'Thandi Nkosi',
  callSign: 'R7',
  permissions: { newCase: { read: true, create: true, edit: true } },
});
const NO_CREATE = makeUser({ id: 7, permissions: { newCase: { read: true, create: false } } });

afterEach(async () => {
  await wipeDevice(RESPONDER);
});

/** The signed-in user's local database as the app holds it now (the app may reopen it). */
function localDb() {
  const session = getSyncSession();
  if (!session) throw new Error('no sync session');
  return session.db;
}

/** The fields of every case.upsert the device queued for this case, oldest first. */
async function upsertsOf(id: string): Promise<Record<string, unknown>[]> {
  return (await outbox())
    .filter(
      (e) => e.mutation.name === 'case.upsert' && (e.mutation.args as { id: string }).id === id,
    )
    .map((e) => (e.mutation.args as { fields: Record<string, unknown> }).fields);
}

describe('New Case', () => {
  it('creates exactly one case on the device with the responder filled in, and replaces the URL', async () => {
    deviceOf(RESPONDER);
    const { location } = renderApp('/patient-details');

    expect(
      await screen.findByRole('heading', { name: 'Patient Details', level: 1 }),
    ).toBeInTheDocument();
    await waitFor(() =>
      expect(location.pathname).toMatch(
        /^\/patient-details\/C-[0-9A-Z]{4}-[0-9A-Z]{4}-[0-9A-Z]{4}$/,
      ),
    );

    const cases = await localDb().store('cases').toArray();
    expect(cases).toHaveLength(1);
    const created = cases[0];
    expect(created?.caseId).toBe(location.pathname.split('/')[2]);
    expect(created).toMatchObject({
      responderName: 'Thandi Nkosi',
      responderCallSign: 'R7',
      status: 'in_progress',
    });
    // One create in the outbox, carrying the case number the device generated.
    const creates = (await outbox()).filter((e) => e.mutation.name === 'case.upsert');
    expect(creates).toHaveLength(1);
    expect(creates[0]?.mutation.args).toMatchObject({
      humanId: created?.caseId,
      fields: { responderName: 'Thandi Nkosi', responderCallSign: 'R7' },
    });

    // The screen shows the new case and the prefilled responder.
    expect(screen.getByText(String(created?.caseId))).toBeInTheDocument();
    expect(screen.getByLabelText('Responder name')).toHaveValue('Thandi Nkosi');
    expect(screen.getByLabelText('Responder call sign')).toHaveValue('R7');
  });

  it('discards the new case when it is left untouched, and keeps it once anything is typed (issue 37)', async () => {
    deviceOf(RESPONDER);
    dashboardData();
    const first = renderApp('/patient-details');
    await waitFor(() => expect(first.location.pathname).toMatch(/^\/patient-details\/C-/));
    await first.user.click((await screen.findAllByRole('link', { name: 'Dashboard' }))[0]!);
    await waitFor(async () => {
      const names = (await outbox()).map((e) => e.mutation.name);
      expect(names).toEqual(expect.arrayContaining(['case.upsert', 'case.discard']));
    });
    const [untouched] = await localDb().store('cases').toArray();
    expect(untouched?.deletedAt).toEqual(expect.any(String));
    first.unmount();

    const second = renderApp('/patient-details');
    await waitFor(() => expect(second.location.pathname).toMatch(/^\/patient-details\/C-/));
    const caseId = second.location.pathname.split('/')[2];
    // Typed, then straight home: the words are saved as the screen closes, and kept.
    await second.user.type(await screen.findByLabelText('Patient name'), 'Nomsa');
    await second.user.click((await screen.findAllByRole('link', { name: 'Dashboard' }))[0]!);
    await waitFor(async () => {
      const kept = (await localDb().store('cases').toArray()).find((c) => c.caseId === caseId);
      expect(kept).toMatchObject({ patientName: 'Nomsa', deletedAt: null });
    });
    expect((await outbox()).filter((e) => e.mutation.name === 'case.discard')).toHaveLength(1);
  }, 20_000);

  it('tells a member without create permission, and creates nothing', async () => {
    deviceOf(NO_CREATE);
    dashboardData();
    const { user, location } = renderApp('/patient-details');
    expect(
      await screen.findByRole('heading', { name: 'You cannot create cases' }),
    ).toBeInTheDocument();
    expect(await localDb().store('cases').count()).toBe(0);
    expect(await outbox()).toHaveLength(0);
    await user.click(screen.getByRole('link', { name: 'Back to Home' }));
    await waitFor(() => expect(location.pathname).toBe('/'));
  });

  it('creates one case from the dashboard button although effects run twice', async () => {
    deviceOf(RESPONDER);
    dashboardData();
    render(
      <StrictMode>
        <AppProvider queryClient={createQueryClient()}>
          <MemoryRouter initialEntries={['/']}>
            <AppRoutes />
          </MemoryRouter>
        </AppProvider>
      </StrictMode>,
    );
    const newCase = await screen.findByRole('link', { name: /New Case/ });
    // The user, the session and the screen's code are all ready when the screen mounts.
    await waitFor(() => expect(getSyncSession()).not.toBeNull());
    await import('./new-case');
    await userEvent.setup().click(newCase);
    expect(
      await screen.findByRole('heading', { name: 'Patient Details', level: 1 }),
    ).toBeInTheDocument();
    // Give a second create (if any) time to land.
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(await localDb().store('cases').count()).toBe(1);
    expect((await outbox()).filter((e) => e.mutation.name === 'case.upsert')).toHaveLength(1);
  });
});

describe('Patient Details', () => {
  it('saves the patient group: name after a pause, age with + and typed, gender and incident type on tap', async () => {
    deviceOf(RESPONDER);
    const { id, caseId } = await seedCase({});
    const { user } = renderApp(`/patient-details/${caseId}`);

    // Required-to-complete fields are marked.
    const age = await screen.findByLabelText(/^Approximate age \(years\)/);
    expect(
      screen.getByRole('group', { name: /^Gender \(required to complete\)/ }),
    ).toBeInTheDocument();
    expect(
      screen.getByRole('group', { name: /^Incident type \(required to complete\)/ }),
    ).toBeInTheDocument();
    expect(
      screen.getByLabelText(/^Incident location \(required to complete\)/),
    ).toBeInTheDocument();
    expect(screen.getByLabelText(/^Patient name$/)).toBeInTheDocument();

    await user.type(screen.getByLabelText('Patient name'), 'Sipho Dlamini');
    await waitFor(async () => expect((await storedCase(id))?.patientName).toBe('Sipho Dlamini'), {
      timeout: 3000,
    });

    await user.click(screen.getByRole('button', { name: 'Approximate age: increase' }));
    expect(age).toHaveValue('0');
    await user.clear(age);
    await user.type(age, '42');
    await user.tab();
    await waitFor(async () => expect((await storedCase(id))?.approximateAge).toBe(42));

    await user.click(screen.getByRole('radio', { name: 'Female' }));
    await waitFor(async () => expect((await storedCase(id))?.patientGender).toBe('Female'));

    await user.click(screen.getByRole('radio', { name: /^Road traffic collision/ }));
    await waitFor(async () =>
      expect((await storedCase(id))?.incidentType).toBe('Road traffic collision'),
    );
    await waitFor(() =>
      expect(screen.getByRole('radio', { name: /^Road traffic collision/ })).toBeChecked(),
    );

    // Each change is its own mutation carrying only that field.
    const upserts = await upsertsOf(id);
    expect(upserts).toContainEqual({ patientName: 'Sipho Dlamini' });
    expect(upserts).toContainEqual({ approximateAge: 42 });
    expect(upserts).toContainEqual({ patientGender: 'Female' });
    expect(upserts).toContainEqual({ incidentType: 'Road traffic collision' });
  });

  it("stores 'Other: <description>' for an incident type not on the list", async () => {
    deviceOf(RESPONDER);
    const { id, caseId } = await seedCase({});
    const { user } = renderApp(`/patient-details/${caseId}`);

    await user.click(await screen.findByRole('radio', { name: /^Other Describe it/ }));
    await waitFor(async () => expect((await storedCase(id))?.incidentType).toBe('Other'));
    await user.type(await screen.findByLabelText('Describe the incident type'), 'Snake bite');
    await user.tab();
    await waitFor(async () =>
      expect((await storedCase(id))?.incidentType).toBe('Other: Snake bite'),
    );

    // Back to a listed type: the description box goes, the chip is saved.
    await user.click(screen.getByRole('radio', { name: 'Fall' }));
    await waitFor(async () => expect((await storedCase(id))?.incidentType).toBe('Fall'));
    expect(screen.queryByLabelText('Describe the incident type')).not.toBeInTheDocument();
  });

  it('asks for the medical aid provider only when the patient has medical aid', async () => {
    deviceOf(RESPONDER);
    const { id, caseId } = await seedCase({});
    const { user } = renderApp(`/patient-details/${caseId}`);
    const medicalAid = await screen.findByRole('group', {
      name: 'Does the patient have medical aid?',
    });
    expect(screen.queryByLabelText(/^Medical aid provider/)).not.toBeInTheDocument();

    await user.click(within(medicalAid).getByRole('radio', { name: 'Yes' }));
    await waitFor(async () => expect((await storedCase(id))?.hasMedicalAid).toBe(true));
    const provider = await screen.findByLabelText(/^Medical aid provider \(required to complete\)/);
    await user.type(provider, 'Discovery Health');
    await user.tab();
    await waitFor(async () =>
      expect((await storedCase(id))?.medicalAidProvider).toBe('Discovery Health'),
    );

    await user.click(within(medicalAid).getByRole('radio', { name: 'No' }));
    await waitFor(() =>
      expect(screen.queryByLabelText(/^Medical aid provider/)).not.toBeInTheDocument(),
    );
  });

  it('saves caller, responder and incident text fields', async () => {
    deviceOf(RESPONDER);
    const { id, caseId } = await seedCase({ responderName: 'Thandi Nkosi' });
    const { user } = renderApp(`/patient-details/${caseId}`);

    await user.type(await screen.findByLabelText('Caller name'), 'Mrs Botha');
    const phone = screen.getByLabelText('Caller phone');
    expect(phone).toHaveAttribute('type', 'tel');
    await user.type(phone, '082 555 0101');
    const responder = screen.getByLabelText('Responder name');
    await user.clear(responder);
    await user.type(responder, 'Pieter van Wyk');
    await user.type(screen.getByLabelText(/^Incident location/), 'Main Rd & 3rd Ave, Strand');
    await user.type(screen.getByLabelText('Incident description'), 'Cyclist hit by car');
    await user.tab();

    await waitFor(async () =>
      expect(await storedCase(id)).toMatchObject({
        callerName: 'Mrs Botha',
        callerPhone: '082 555 0101',
        responderName: 'Pieter van Wyk',
        incidentLocation: 'Main Rd & 3rd Ave, Strand',
        incidentDescription: 'Cyclist hit by car',
      }),
    );
    const upserts = await upsertsOf(id);
    expect(upserts).toContainEqual({ callerPhone: '082 555 0101' });
    expect(upserts).toContainEqual({ incidentLocation: 'Main Rd & 3rd Ave, Strand' });
  });

  it('shows the multi-patient fields when switched on, and keeps the command fields it does not edit', async () => {
    deviceOf(RESPONDER);
    const { id, caseId } = await seedCase({
      triageCounts: { RED: 1, GREEN: 3 },
      incidentDuration: 1200,
    });
    const { user } = renderApp(`/patient-details/${caseId}`);

    expect(
      await screen.findByRole('checkbox', { name: /More than one patient/ }),
    ).not.toBeChecked();
    expect(screen.queryByLabelText('Total patients')).not.toBeInTheDocument();
    await user.click(screen.getByRole('checkbox', { name: /More than one patient/ }));
    await waitFor(async () => expect((await storedCase(id))?.isMultiPatientIncident).toBe(true));

    await user.type(
      await screen.findByLabelText('Kind of multi-patient incident'),
      'Taxi rollover',
    );
    await user.type(screen.getByLabelText('Total patients'), '14');
    await user.type(
      screen.getByLabelText('Multi-patient description'),
      'Patients spread along the verge',
    );
    await user.tab();
    await waitFor(async () =>
      expect(await storedCase(id)).toMatchObject({
        isMultiPatientIncident: true,
        multiPatientIncidentType: 'Taxi rollover',
        totalPatients: 14,
        multiPatientDescription: 'Patients spread along the verge',
        triageCounts: { RED: 1, GREEN: 3 },
        incidentDuration: 1200,
      }),
    );
  });

  it('is read-only when the case is completed', async () => {
    deviceOf(RESPONDER);
    const { id, caseId } = await seedCase({ patientName: 'Locked Patient', patientGender: 'Male' });
    await localDb().store('cases').update(id, { status: 'completed' });
    renderApp(`/patient-details/${caseId}`);
    expect(await screen.findByText(/This case is completed and locked/)).toBeInTheDocument();
    expect(screen.getByLabelText('Patient name')).toHaveAttribute('readonly');
    expect(screen.getByRole('radio', { name: 'Male' })).toBeDisabled();
    expect(screen.getByRole('button', { name: 'Use my location' })).toBeDisabled();
  });
});

describe('readIncidentType', () => {
  it('reads list labels, Other with a description, and unlisted text as Other', () => {
    expect(readIncidentType('fall')).toEqual({ choice: 'Fall', otherText: '' });
    expect(readIncidentType('Other: snake bite')).toEqual({
      choice: 'Other',
      otherText: 'snake bite',
    });
    expect(readIncidentType('Other')).toEqual({ choice: 'Other', otherText: '' });
    expect(readIncidentType('Motor vehicle accident')).toEqual({
      choice: 'Other',
      otherText: 'Motor vehicle accident',
    });
    expect(readIncidentType(null)).toEqual({ choice: null, otherText: '' });
  });
});
