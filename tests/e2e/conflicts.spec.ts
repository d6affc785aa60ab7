// Conflicts a person sees (issue 10, decision 015), in Chromium: two devices — the case
// responder's and the administrator's — change the patient's name of the same case while
// both are offline. The administrator's device syncs last, so its value is kept; the
// responder's device shows the replaced value on the case screen and in its sync inbox; the
// administrator keeps the responder's value on /admin/conflicts, and both devices show it.
import type { Page } from '@playwright/test';
import { generateHumanId } from '@rescuelog/sync-protocol/platform/human-id';
import { signInAsAdmin } from './support/accounts';
import { expect, test } from './support/fixtures';
import {
  apiPush,
  caseSyncMark,
  field,
  signInAsCaseResponder,
  typeField,
  type CaseMember,
} from './support/cases';

// Both devices go offline on purpose: a sync push then fails at the network level, and
// Chromium logs it. Only that is allowed; anything else on either page fails the test.
test.use({
  allowedConsoleErrors: [
    { text: /Failed to load resource: net::ERR_INTERNET_DISCONNECTED/, url: /\/api\/sync\// },
  ],
});

const conflictPanel = (page: Page) =>
  page.getByRole('region', { name: 'Changed on two devices at once' });

test('a conflict shows on the replaced device, in its inbox and for review, and its settlement reaches both devices', async ({
  openAs,
}) => {
  test.slow();
  // Two devices, each a page in its own context with the console guard (openAs).
  const admin = await openAs('administrator');
  const adminContext = admin.context();
  await signInAsAdmin(admin);
  const responder = await openAs('responder');
  const responderContext = responder.context();
  const member: CaseMember = await signInAsCaseResponder(responderContext, admin);

  const id = crypto.randomUUID();
  const caseId = generateHumanId('C');
  await apiPush(responderContext.request, member.id, [
    {
      name: 'case.upsert',
      args: { id, humanId: caseId, fields: { patientName: 'Unknown male' } },
      entityIds: [id],
    },
  ]);

  // Both devices hold the case.
  for (const page of [responder, admin]) {
    await page.goto(`/patient-details/${caseId}`);
    await expect(field(page, 'patientName')).toHaveValue('Unknown male');
  }

  // Offline, both change the name from the same version.
  await responderContext.setOffline(true);
  await adminContext.setOffline(true);
  await typeField(responder, 'patientName', 'Themba Mokoena');
  await typeField(admin, 'patientName', 'Tembo Mokwena');

  // The responder's device syncs first, the administrator's later: the later value is kept.
  await responderContext.setOffline(false);
  await expect(caseSyncMark(responder)).toHaveText('Synced', { timeout: 30_000 });
  await adminContext.setOffline(false);
  await expect(caseSyncMark(admin)).toHaveText('Synced', { timeout: 30_000 });

  // The responder's device pulls the kept value and the conflict: the case screen says so.
  await responder.reload();
  await expect(field(responder, 'patientName')).toHaveValue('Tembo Mokwena', { timeout: 30_000 });
  const panel = conflictPanel(responder);
  await expect(panel).toBeVisible({ timeout: 30_000 });
  await expect(panel.getByText('Patient name', { exact: true })).toBeVisible();
  await expect(panel.getByText('Replaced, entered by you')).toBeVisible();
  await expect(panel.getByText('Themba Mokoena')).toBeVisible();
  await expect(panel.getByText(/Kept now, entered by Thandi Administrator/)).toBeVisible();

  // ... and so does its sync inbox.
  await responder.goto('/sync-inbox');
  const inbox = conflictPanel(responder);
  await expect(inbox.getByText('You entered')).toBeVisible();
  await expect(inbox.getByText('Themba Mokoena')).toBeVisible();

  // The administrator reviews it and keeps the responder's value.
  await admin.goto('/');
  await expect(admin.getByRole('link', { name: /Conflicts to review/ })).toContainText('open');
  await admin.goto('/admin/conflicts');
  const card = admin.getByRole('listitem', { name: `Case ${caseId}: Patient name` });
  await expect(card).toBeVisible();
  await card.getByRole('button', { name: `Keep ${member.fullName}'s value` }).click();
  await expect(admin.getByText(/No open conflicts/)).toBeVisible();

  // Both devices get the kept value, and the conflict is closed on the responder's.
  for (const page of [responder, admin]) {
    await page.goto(`/patient-details/${caseId}`);
    await expect(field(page, 'patientName')).toHaveValue('Themba Mokoena', { timeout: 30_000 });
  }
  await expect(conflictPanel(responder)).toHaveCount(0);
});
