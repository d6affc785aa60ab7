// axe (structural rules, as a11y.test.tsx) over the case capture screens. They read and write
// the signed-in user's local database, so this file runs with fake IndexedDB and the sync
// server unreachable (changes stay queued); other screens are scanned in a11y.test.tsx.
import 'fake-indexeddb/auto';
import { screen, within } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { afterEach, describe, expect, it } from 'vitest';
import {
  deviceOf,
  seedCase,
  seedCompletableCase,
  seedCompletedCase,
  wipeDevice,
} from '@/features/cases/completed/case-test-kit';
import { recordVitalSign, voidVitalSign } from '@/features/cases/data/case-writes';
import { axeViolations } from '@/test/axe';
import { makeUser } from '@/test/fixtures';
import { renderApp } from '@/test/render-app';
import { server } from '@/test/server';

const RESPONDER = makeUser({ id: 7, permissions: { newCase: true } });

afterEach(async () => {
  await wipeDevice(RESPONDER);
});

// A scan of a long form takes a few seconds on a busy machine.
const SCAN_TIMEOUT_MS = 30_000;

describe('accessibility of the case screens (axe, structural rules)', () => {
  it(
    'New Case → Patient Details, with the multi-patient fields and a GPS error shown',
    async () => {
      deviceOf(RESPONDER);
      const { user } = renderApp('/patient-details');
      await screen.findByRole('heading', { name: 'Patient Details', level: 1 });
      expect(await axeViolations()).toEqual([]);
      await user.click(screen.getByRole('checkbox', { name: /More than one patient/ }));
      await user.click(screen.getByRole('button', { name: 'Use my location' }));
      await screen.findByText(/cannot give the device's position/);
      await screen.findByLabelText('Total patients');
      expect(await axeViolations()).toEqual([]);
    },
    SCAN_TIMEOUT_MS,
  );

  it(
    'Response Details: transport refused, times out of order',
    async () => {
      deviceOf(RESPONDER);
      const { caseId } = await seedCase({
        patientRefusedTransport: true,
        callReceivedTime: '2026-11-20T10:30:00.000Z',
        responderArrivalTime: '2026-11-20T10:10:00.000Z',
      });
      renderApp(`/response-details/${caseId}`);
      await screen.findAllByText(/Responder arrival time is before the call received time/);
      expect(await axeViolations()).toEqual([]);
    },
    SCAN_TIMEOUT_MS,
  );

  it(
    'Response Details with the transport fields, and New Case refused without permission',
    async () => {
      deviceOf(RESPONDER);
      const { caseId } = await seedCase({});
      const step = renderApp(`/response-details/${caseId}`);
      await screen.findByRole('group', { name: /^Transport priority/ });
      expect(await axeViolations()).toEqual([]);
      step.unmount();

      deviceOf(makeUser({ id: 7 }));
      renderApp('/patient-details');
      await screen.findByRole('heading', { name: 'You cannot create cases' });
      expect(await axeViolations()).toEqual([]);
    },
    SCAN_TIMEOUT_MS,
  );
  it(
    'Treatment Provided with scope warnings (First Aid Level 3) and a filter that matches nothing',
    async () => {
      deviceOf(makeUser({ id: 7, qualifications: 'First Aid Level 3' }));
      const { caseId } = await seedCase({ oxygenAdministered: true });
      const { user } = renderApp(`/treatment-provided/${caseId}`);
      await screen.findByRole('checkbox', { name: 'Endotracheal intubation' });
      expect(await axeViolations()).toEqual([]);
      await user.type(screen.getByLabelText('Find an intervention'), 'zzz');
      await screen.findByText(/No intervention matches/);
      expect(await axeViolations()).toEqual([]);
    },
    SCAN_TIMEOUT_MS,
  );

  it(
    'Case Completed: problems listed, then a completable case with the confirmation open',
    async () => {
      deviceOf(RESPONDER);
      const draft = await seedCase({ patientName: 'Sam', hemorrhagingActive: true });
      const first = renderApp(`/case-completed/${draft.caseId}`);
      await screen.findByRole('heading', { name: /things to finish before completing/ });
      expect(await axeViolations()).toEqual([]);
      first.unmount();

      const ready = await seedCompletableCase();
      const { user } = renderApp(`/case-completed/${ready.caseId}`);
      await screen.findByText('Everything needed to complete this case is recorded.');
      await user.click(screen.getByRole('button', { name: 'Complete case' }));
      await screen.findByRole('alertdialog');
      expect(await axeViolations()).toEqual([]);
    },
    SCAN_TIMEOUT_MS,
  );

  it(
    'Case Completed, locked: addendum form with several kinds of field, unlock form and access history (administrator)',
    async () => {
      deviceOf(makeUser({ id: 7, role: 'administrator' }));
      const { caseId } = await seedCompletedCase();
      server.use(
        http.get(`/api/cases/${caseId}/access-history`, () =>
          HttpResponse.json({
            caseId,
            entries: [
              {
                id: '1',
                action: 'case.print',
                label: 'Printed',
                outcome: 'success',
                at: '2026-11-20T12:00:00.000Z',
                occurredAt: '2026-11-20T11:58:00.000Z',
                actor: { id: 7, fullName: 'Thandi Nkosi', callSign: 'R7' },
                source: 'device',
                detail: 'handover',
                fields: [],
                reason: null,
                ip: '10.0.0.1',
                userAgent: null,
              },
            ],
            nextCursor: '1',
          }),
        ),
      );
      const { user } = renderApp(`/case-completed/${caseId}`);
      await user.click(await screen.findByRole('button', { name: 'Add addendum' }));
      const form = screen.getByRole('form', { name: 'New addendum' });
      for (const field of [
        'Hospital arrival time',
        'Patient refused transport',
        'AVPU',
        'Approximate age',
        'Allergies',
        'Signs and symptoms',
      ]) {
        await user.selectOptions(within(form).getByLabelText('Field to correct'), field);
        await user.click(within(form).getByRole('button', { name: 'Add field' }));
      }
      await user.click(within(form).getByRole('button', { name: 'Save addendum' }));
      await within(form).findByText('A reason is required');
      await user.click(screen.getByRole('button', { name: 'Unlock case' }));
      await user.click(screen.getByRole('button', { name: 'Access history' }));
      await screen.findByRole('cell', { name: 'Thandi Nkosi (R7)' });
      expect(await axeViolations()).toEqual([]);
    },
    SCAN_TIMEOUT_MS,
  );

  it(
    'Primary Survey: scene not safe, bleeding with Other and a tourniquet, a child GCS with VT, SATS triage',
    async () => {
      deviceOf(RESPONDER);
      const { caseId } = await seedCase({
        approximateAge: 3,
        sceneSafe: false,
        hemorrhagingActive: true,
        hemorrhagingLocation: 'Other',
        hemorrhagingInterventions: ['Tourniquet', 'Other'],
        gcsEyeOpening: 4,
        gcsVerbalIntubated: true,
        gcsMotorResponse: 6,
        gcsTotal: 11,
        respiratoryRate: 40,
        triageStatus: 'RED',
      });
      renderApp(`/primary-survey/${caseId}`);
      await screen.findByLabelText('Tourniquet applied at');
      expect(await axeViolations()).toEqual([]);
    },
    SCAN_TIMEOUT_MS,
  );

  it(
    'Secondary Survey: stroke banner, abnormal region, vital signs with a voided reading, charts and the void dialog',
    async () => {
      deviceOf(RESPONDER);
      const { id, caseId } = await seedCase({
        approximateAge: 40,
        fastArmWeakness: true,
        chestAbnormal: true,
        chestExamined: true,
        gcsTotal: 15,
      });
      const wrong = await recordVitalSign(id, {
        type: 'heartRate',
        value: '128',
        numericValue: 128,
        status: 'high',
        timestamp: new Date('2026-11-20T10:00:00Z'),
      });
      await recordVitalSign(id, {
        type: 'heartRate',
        value: '110',
        numericValue: 110,
        status: 'high',
        timestamp: new Date('2026-11-20T10:05:00Z'),
      });
      await recordVitalSign(id, {
        type: 'bloodPressure',
        value: '150/95',
        numericValue: 150,
        status: 'high',
        timestamp: new Date('2026-11-20T10:05:00Z'),
      });
      await voidVitalSign(wrong, id, 'Typing error');
      const { user } = renderApp(`/secondary-survey/${caseId}`);
      await screen.findByText('Possible stroke');
      await screen.findByRole('img', { name: /^Heart rate/ });
      expect(await axeViolations()).toEqual([]);
      const table = screen.getByRole('table', { name: /Readings over time/ });
      await user.click(within(table).getByRole('button', { name: /^Void Heart rate 110/ }));
      await screen.findByRole('dialog', { name: 'Void this reading?' });
      expect(await axeViolations()).toEqual([]);
    },
    SCAN_TIMEOUT_MS,
  );
});
