// Issue 5, the main job of the product: a responder documents a patient from first contact
// to handover with NO signal. The responder opens the app online once (the app shell is
// cached by the service worker), then the server is stopped; the whole case is captured
// through every step of the real screens (patient details with typed coordinates, primary
// survey with hemorrhage, GCS, AVPU, secondary survey with a set of vital signs, treatment
// with interventions, response details), completed (the problems are listed first and fixed
// through their links), and everything says "Not yet synced". Then the server comes back,
// the app syncs, and the server holds the case field for field as the device does.
//
// Runs in the `offline` project (after the online specs): it stops the run's server and
// starts it again on the same port and data folder.
import { CASE_FIELDS, type CaseField } from '@rescuelog/sync-protocol/cases/case-schema';
import { signInAsAdmin } from './support/accounts';
import {
  apiGetCase,
  caseIdFromUrl,
  caseHeader,
  caseSyncMark,
  choose,
  field,
  localTime,
  readDeviceCase,
  setTime,
  signInAsCaseResponder,
  syncBar,
  tap,
  tapNow,
  tick,
  typeField,
  waitForServiceWorkerControl,
} from './support/cases';
import { expect, test } from './support/fixtures';
import { readServerState, restartServer, stopServer } from './support/server';
import type { Page } from '@playwright/test';

// With the server down, the app's own API calls fail at the network level.
test.use({
  allowedConsoleErrors: [
    {
      text: /Failed to load resource: net::ERR_(CONNECTION_REFUSED|FAILED|CONNECTION_RESET|EMPTY_RESPONSE)/,
      url: /\/api\//,
    },
  ],
});

const TIME_FIELDS = new Set<string>(
  CASE_FIELDS.filter((f) => /Time$|TimeNoted$/.test(f) && f !== 'lastMealTime'),
);

/** The footer's link to the next step (its title), in the app, without a page load. */
async function nextStep(page: Page, title: string | RegExp): Promise<void> {
  await page
    .getByRole('navigation', { name: 'Previous and next step' })
    .getByRole('link', { name: title })
    .click();
}

/** The case's step navigation (1 Patient … 6 Complete). */
async function stepLink(page: Page, label: string): Promise<void> {
  await page
    .getByRole('navigation', { name: 'Case steps' })
    .getByRole('link', { name: label })
    .click();
}

async function expectStep(page: Page, heading: string, caseId: string): Promise<void> {
  await expect(page.getByRole('heading', { level: 1, name: heading })).toBeVisible();
  await expect(caseHeader(page)).toContainText(`Case ${caseId}`);
  // Everything entered offline is marked as waiting for the server.
  await expect(caseSyncMark(page)).toHaveText(/Not yet synced/);
}

function normalise(name: string, value: unknown): unknown {
  if (value === undefined) return null;
  if (TIME_FIELDS.has(name) && typeof value === 'string') return new Date(value).toISOString();
  if (
    (name === 'incidentLatitude' ||
      name === 'incidentLongitude' ||
      name === 'capillaryRefillTime') &&
    typeof value === 'string'
  )
    return Number(value);
  return value;
}

test('a case captured fully offline through every step reaches the server field for field', async ({
  page,
  openAs,
}) => {
  test.setTimeout(240_000);
  const run = Math.random().toString(36).slice(2, 7).toUpperCase();
  const patientName = `Nomvula Offline ${run}`;
  const admin = await openAs('administrator');
  await signInAsAdmin(admin);
  const member = await signInAsCaseResponder(page.context(), admin);

  // Online once: the app shell and every screen's code are cached by the service worker.
  await page.goto('/');
  await expect(page.getByText(member.fullName)).toBeVisible();
  await waitForServiceWorkerControl(page);
  await expect(syncBar(page)).toContainText('All changes synced');

  const state = readServerState();
  await stopServer(state);
  let serverUp = false;
  try {
    const health = await fetch(`${state.origin}/api/health`).then(
      () => 'up',
      () => 'down',
    );
    expect(health, 'the server is really stopped').toBe('down');

    // ---- New Case: created on the device, no network ------------------------------------
    await page.getByRole('link', { name: /New Case/ }).click();
    await expect(page).toHaveURL(/\/patient-details\/C-[0-9A-Z-]+$/);
    const caseId = caseIdFromUrl(page);

    // ---- 1. Patient details --------------------------------------------------------------
    await expectStep(page, 'Patient Details', caseId);
    // The responder defaults to the signed-in member.
    await expect(field(page, 'responderName')).toHaveValue(member.fullName);
    await expect(field(page, 'responderCallSign')).toHaveValue(member.callSign ?? '');
    await typeField(page, 'patientName', patientName);
    await typeField(page, 'approximateAge', '67');
    await choose(page, 'patientGender', 'Female');
    await tap(page, 'field-incidentType-Fall');
    await choose(page, 'hasMedicalAid', true);
    await typeField(page, 'medicalAidProvider', 'Discovery Health 123456789');
    await typeField(page, 'callerName', 'Thabo Dlamini');
    await typeField(page, 'callerPhone', '082 555 0147');
    await typeField(page, 'incidentLocation', '14 Long Street, Cape Town');
    await typeField(page, 'incidentLatitude', '-33.92487');
    await typeField(page, 'incidentLongitude', '18.42406');
    await typeField(
      page,
      'incidentDescription',
      'Fell down five stairs at home, found on the landing by her son.',
    );
    await expect(page.getByText('This latitude is north of the equator')).toHaveCount(0);

    // ---- 2. Primary survey ---------------------------------------------------------------
    await nextStep(page, /Primary Survey/);
    await expectStep(page, 'Primary Survey', caseId);
    await choose(page, 'sceneSafe', true);
    await tap(page, 'field-avpu-V');
    await choose(page, 'helpCalled', true);
    await choose(page, 'hemorrhagingActive', true);
    await tap(page, 'field-hemorrhagingLocation-Left-leg');
    await tap(page, 'field-hemorrhagingType-Arterial');
    await tap(page, 'field-hemorrhagingSeverity-Severe');
    await tap(page, 'field-hemorrhagingControlStatus-Controlled');
    await tap(page, 'field-hemorrhagingInterventions-Direct-pressure');
    await tap(page, 'field-hemorrhagingInterventions-Tourniquet');
    await tapNow(page, 'tourniquetApplicationTime');
    await tap(page, 'field-airwayStatus-Clear');
    await tap(page, 'field-breathingStatus-Laboured');
    await typeField(page, 'respiratoryRate', '24');
    await tap(page, 'field-circulationStatus-Pale-cool-clammy');
    await typeField(page, 'capillaryRefillTime', '3');
    await tap(page, 'gcs-eye-3');
    await tap(page, 'gcs-verbal-4');
    await tap(page, 'gcs-motor-5');
    await expect(field(page, 'gcsTotal')).toHaveText('E3 V4 M5 = 12');
    await tap(page, 'field-pupilResponsesiveness-PEARL');
    // Triage is left out on purpose: completion must ask for it.

    // ---- 3. Secondary survey with a set of vital signs -----------------------------------
    await nextStep(page, /Secondary Survey/);
    await expectStep(page, 'Secondary Survey', caseId);
    await tap(page, 'field-symptoms-Limb-pain-or-deformity');
    await tap(page, 'field-symptoms-Dizziness');
    await typeField(page, 'subjectiveSymptoms', 'My left hip hurts when I move');
    await typeField(page, 'objectiveSymptoms', 'Left leg shortened and externally rotated');
    await typeField(page, 'allergies', 'Penicillin (rash)');
    await typeField(page, 'medications', 'Amlodipine 5 mg daily');
    await typeField(page, 'pastHistory', 'Hypertension');
    await typeField(page, 'lastMealTime', 'about 12:00');
    await typeField(page, 'lastMealContent', 'Tea and toast');
    await typeField(page, 'eventsLeadingUp', 'Slipped on wet stairs carrying laundry');
    await typeField(page, 'onset', 'Sudden, at the fall');
    await typeField(page, 'provocation', 'Worse on any movement');
    await typeField(page, 'quality', 'Sharp');
    await typeField(page, 'region', 'Left hip, no radiation');
    await typeField(page, 'severity', 'Severe');
    await typeField(page, 'timing', 'Constant since the fall');
    await tap(page, 'field-painScore-8');
    await choose(page, 'fastBalanceLoss', true);
    await expect(page.getByText('Possible stroke')).toBeVisible();
    const lastKnownWell = localTime(70);
    await setTime(page, 'fastTimeNoted', lastKnownWell.local);
    for (const sign of [
      'fastVisionLoss',
      'fastFaceDropping',
      'fastArmWeakness',
      'fastSpeechDifficulty',
    ])
      await choose(page, sign, false);
    await tap(page, 'field-headAbnormal-false');
    await expect(field(page, 'headExamined')).toBeChecked();
    await tap(page, 'field-extremitiesAbnormal-true');
    await typeField(
      page,
      'extremitiesNotes',
      'Left leg shortened, externally rotated; distal pulses present',
    );
    await tapNow(page, 'neuroReassessmentTime');
    await tap(page, 'field-neuroAvpu-A');
    await typeField(page, 'neuroGcsTotal', '14');
    await tap(page, 'field-neuroPupils-PEARL');
    await tap(page, 'field-neuroMotorFunction-Moves-all-limbs-normally');
    await tap(page, 'field-neuroSensoryFunction-Normal');
    await typeField(page, 'neuroNotes', 'Alert and orientated after 10 minutes');
    await typeField(page, 'additionalFindings', 'Bruising over the left hip');

    const vitals = page.getByRole('form', { name: 'Add a set of readings' });
    await vitals.getByLabel('Heart rate (/min)').fill('118');
    await vitals.getByLabel('Respiratory rate (/min)').fill('24');
    await vitals.getByLabel('Systolic').fill('100');
    await vitals.getByLabel('Diastolic').fill('60');
    await vitals.getByLabel('SpO2 (%)').fill('93');
    await vitals.getByLabel('Temperature (°C)').fill('36.4');
    await vitals.getByLabel('Blood glucose (mmol/L)').fill('5.2');
    // GCS starts as the primary survey's total.
    await expect(vitals.getByLabel('GCS', { exact: true })).toHaveValue('12');
    await vitals.getByLabel('Pain score (/10)').fill('8');
    await vitals.getByLabel('Capillary refill (s)').fill('3');
    await vitals.getByRole('button', { name: 'Save readings' }).click();
    await expect(vitals.getByText(/^Saved 9 readings taken at /)).toBeVisible();
    const vitalsTable = page.locator('#field-vitalSigns table');
    await expect(vitalsTable).toContainText('118');
    await expect(vitalsTable).toContainText('100/60');

    // ---- 4. Treatment provided -------------------------------------------------------------
    await nextStep(page, /Treatment Provided/);
    await expectStep(page, 'Treatment Provided', caseId);
    for (const intervention of [
      'oxygenAdministered',
      'pulseOximetry',
      'tourniquetApplication',
      'vacuumMattress',
      'splintingTechniques',
      'endotrachealIntubation',
    ]) {
      await tick(page, intervention);
    }
    // A Basic Ambulance Assistant gets a scope warning beside intubation; it never blocks.
    await expect(page.locator('#field-endotrachealIntubation-warning')).toBeVisible();
    await expect(page.getByText(/6\s*of \d+ ticked/)).toBeVisible();
    await typeField(page, 'medicationsGiven', 'Oxygen 15 L/min via non-rebreather mask 10:20');
    await typeField(
      page,
      'proceduresPerformed',
      'Intubation by the ALS paramedic on scene (RESCUE 3)',
    );
    await typeField(
      page,
      'treatmentProvided',
      'Bleeding controlled with a tourniquet, leg splinted, vacuum mattress',
    );
    await typeField(page, 'additionalNotes', 'Son accompanied the patient');

    // ---- 5. Response details ---------------------------------------------------------------
    await nextStep(page, /Response Details/);
    await expectStep(page, 'Response Details', caseId);
    const times = {
      callReceivedTime: localTime(50),
      responderArrivalTime: localTime(42),
      arrivalTime: localTime(38),
      departureTime: localTime(20),
      hospitalArrivalTime: localTime(5),
    };
    for (const [name, time] of Object.entries(times)) await setTime(page, name, time.local);
    await typeField(page, 'ambulanceId', 'AMB 7');
    await typeField(page, 'receivingHospital', 'Groote Schuur Hospital');
    // Transport priority is left out on purpose as well.

    // ---- 6. Complete: the problems first, fixed through their links ------------------------
    await nextStep(page, /Review and complete/);
    await expect(page.getByRole('heading', { level: 1, name: 'Case Completed' })).toBeVisible();
    await expect(caseSyncMark(page)).toHaveText(/Not yet synced/);
    await expect(page.getByText('In progress', { exact: true })).toBeVisible();
    // Complete case first lists what is missing, each a link to its field.
    await page.getByRole('button', { name: 'Complete case' }).click();
    await expect(page.getByRole('alertdialog')).toHaveCount(0);
    await expect(
      page.getByRole('heading', { name: '2 things to finish before completing' }),
    ).toBeVisible();
    const triageLink = page.locator(`a[href$="/primary-survey/${caseId}#field-triageStatus"]`);
    const priorityLink = page.locator(
      `a[href$="/response-details/${caseId}#field-transportPriority"]`,
    );
    await expect(triageLink).toBeVisible();
    await expect(priorityLink).toBeVisible();

    await triageLink.click();
    await expect(page).toHaveURL(new RegExp(`/primary-survey/${caseId}#field-triageStatus$`));
    await expect(page.locator('#field-triageStatus-RED')).toBeFocused();
    await tap(page, 'field-triageStatus-ORANGE');
    await stepLink(page, 'Complete');
    await expect(
      page.getByRole('heading', { name: '1 thing to finish before completing' }),
    ).toBeVisible();
    await expect(triageLink).toHaveCount(0);
    await priorityLink.click();
    await expect(page).toHaveURL(
      new RegExp(`/response-details/${caseId}#field-transportPriority$`),
    );
    await tap(page, 'field-transportPriority-Priority-2-yellow');
    await nextStep(page, /Review and complete/);
    await expect(
      page.getByText('Everything needed to complete this case is recorded.'),
    ).toBeVisible();

    await page.getByRole('button', { name: 'Complete case' }).click();
    await page
      .getByRole('alertdialog', { name: 'Complete and lock this case?' })
      .getByRole('button', { name: 'Complete and lock' })
      .click();
    await expect(page.getByText('Completed and locked')).toBeVisible();
    await expect(caseSyncMark(page)).toHaveText(/Not yet synced/);
    await expect(syncBar(page)).toContainText(/Offline: \d+ changes? kept on this device/);
    // Locked: the steps are read-only now.
    await stepLink(page, 'Patient');
    await expect(page.getByText('This case is completed and locked.')).toBeVisible();
    await expect(field(page, 'patientName')).toHaveAttribute('readonly', '');

    // What the device holds, before the server has seen any of it.
    const device = await readDeviceCase(page, member.id, caseId);
    expect(device.case, 'the case is on the device').not.toBeNull();
    expect(device.case?.status).toBe('completed');
    expect(device.pendingOutbox, 'its changes wait in the outbox').toBeGreaterThan(0);
    const deviceCase = device.case ?? {};
    const deviceVitals = device.vitalSigns;
    expect(deviceVitals).toHaveLength(9);

    // Cases Logged lists it from the device, marked as not yet synced.
    await caseHeader(page).getByRole('link', { name: 'Dashboard' }).click();
    await page.getByRole('link', { name: /Cases Logged/ }).click();
    await expect(page.getByRole('heading', { level: 1, name: 'Cases Logged' })).toBeVisible();
    await expect(
      page.getByRole('alert').filter({ hasText: 'Cases could not be loaded from the server' }),
    ).toContainText('Showing cases on this device.');
    const card = page
      .getByRole('region', { name: 'Results' })
      .getByRole('link')
      .filter({ hasText: caseId });
    await expect(card).toContainText(patientName);
    await expect(card).toContainText('Completed');
    await expect(card).toContainText('Not yet synced');

    // ---- The server comes back; the app syncs ------------------------------------------------
    await restartServer(state);
    serverUp = true;
    await syncBar(page).getByRole('button', { name: 'Sync now' }).click();
    await expect(syncBar(page)).toContainText('All changes synced', { timeout: 30_000 });
    await expect(card).not.toContainText('Not yet synced');
    await card.click();
    await expect(page.getByRole('heading', { level: 1, name: 'Case Completed' })).toBeVisible();
    await expect(caseSyncMark(page)).toHaveText('Synced');
    await expect
      .poll(async () => (await readDeviceCase(page, member.id, caseId)).pendingOutbox)
      .toBe(0);

    // ---- The server holds the case field for field --------------------------------------------
    const server = await apiGetCase(admin.request, caseId);
    const mismatches = CASE_FIELDS.flatMap((name: CaseField) => {
      const onDevice = normalise(name, deviceCase[name]);
      const onServer = normalise(name, server.case[name]);
      return JSON.stringify(onDevice) === JSON.stringify(onServer)
        ? []
        : [`${name}: device ${JSON.stringify(onDevice)} server ${JSON.stringify(onServer)}`];
    });
    expect(mismatches, 'fields that differ between the device and the server').toEqual([]);
    expect(server.case.id).toBe(deviceCase.id);
    expect(server.case.userId).toBe(member.id);
    expect(server.case.status).toBe('completed');
    expect(server.case.completedAt).not.toBeNull();

    // Specific values, as typed and tapped.
    const c = server.case;
    expect(c.patientName).toBe(patientName);
    expect(c.approximateAge).toBe(67);
    expect(c.patientGender).toBe('Female');
    expect(c.incidentType).toBe('Fall');
    expect(c.hasMedicalAid).toBe(true);
    expect(c.medicalAidProvider).toBe('Discovery Health 123456789');
    expect(c.callerPhone).toBe('082 555 0147');
    expect(c.responderName).toBe(member.fullName);
    expect(Number(c.incidentLatitude)).toBeCloseTo(-33.92487, 8);
    expect(Number(c.incidentLongitude)).toBeCloseTo(18.42406, 8);
    expect(c.avpu).toBe('V');
    expect(c.hemorrhagingActive).toBe(true);
    expect(c.hemorrhagingLocation).toBe('Left leg');
    expect(c.hemorrhagingInterventions).toEqual(['Direct pressure', 'Tourniquet']);
    expect(c.tourniquetApplicationTime).not.toBeNull();
    expect(c.respiratoryRate).toBe(24);
    expect(Number(c.capillaryRefillTime)).toBe(3);
    expect([c.gcsEyeOpening, c.gcsVerbalResponse, c.gcsMotorResponse, c.gcsTotal]).toEqual([
      3, 4, 5, 12,
    ]);
    expect(c.gcsVerbalIntubated).toBe(false);
    expect(c.pupilResponsesiveness).toBe('PEARL');
    expect(c.triageStatus).toBe('ORANGE');
    expect(c.symptoms).toEqual(['Limb pain or deformity', 'Dizziness']);
    expect(c.painScore).toBe(8);
    expect(c.fastBalanceLoss).toBe(true);
    expect(c.fastFaceDropping).toBe(false);
    expect(c.fastTimeNoted && new Date(c.fastTimeNoted).toISOString()).toBe(lastKnownWell.iso);
    expect([c.headExamined, c.headAbnormal, c.extremitiesExamined, c.extremitiesAbnormal]).toEqual([
      true,
      false,
      true,
      true,
    ]);
    expect(c.neuroGcsTotal).toBe(14);
    expect(c.neuroReassessmentTime).not.toBeNull();
    expect([
      c.oxygenAdministered,
      c.pulseOximetry,
      c.tourniquetApplication,
      c.vacuumMattress,
      c.splintingTechniques,
      c.endotrachealIntubation,
    ]).toEqual([true, true, true, true, true, true]);
    expect([c.cprPerformed, c.aedUsed, c.ivAccess]).toEqual([false, false, false]);
    expect(c.medicationsGiven).toBe('Oxygen 15 L/min via non-rebreather mask 10:20');
    for (const [name, time] of Object.entries(times)) {
      expect(new Date(String(c[name as CaseField])).toISOString(), name).toBe(time.iso);
    }
    expect(c.receivingHospital).toBe('Groote Schuur Hospital');
    expect(c.transportPriority).toBe('Priority 2 (yellow)');
    expect(c.patientRefusedTransport).toBe(false);

    // The vital signs, reading for reading.
    const key = (v: Record<string, unknown>) =>
      `${String(v.type)}=${String(v.value)}|${String(v.numericValue)}|${String(v.status)}|${new Date(String(v.timestamp)).toISOString()}`;
    expect(server.vitalSigns.map((v) => key(v)).sort()).toEqual(deviceVitals.map(key).sort());
    const byType = Object.fromEntries(server.vitalSigns.map((v) => [v.type, v]));
    expect(byType.heartRate?.value).toBe('118');
    expect(byType.heartRate?.status).toBe('high');
    expect(byType.bloodPressure?.value).toBe('100/60');
    expect(byType.spo2?.status).toBe('low');
    expect(byType.gcs?.value).toBe('12');
    expect(server.vitalSigns.every((v) => v.voidedAt === null && v.userId === member.id)).toBe(
      true,
    );
  } finally {
    if (!serverUp) await restartServer(state);
  }
});
