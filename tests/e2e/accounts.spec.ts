// Accounts end to end: registration with a document, approval by the administrator, the
// access guard for members and the 404 page (spec §2, §4, §5, §8).
import {
  ADMIN,
  ID_DOCUMENT_FIXTURE,
  apiRegister,
  fillRegisterForm,
  newPerson,
  signInAsAdmin,
  signInAsNewMember,
  signInThroughScreen,
} from './support/accounts';
import { expect, test } from './support/fixtures';

const PENDING_TEXT =
  'Your account is currently pending approval from an administrator. You will receive access once your account has been reviewed.';
const DENIED_TEXT =
  'This page requires administrator privileges. Contact your administrator for access.';

test('a new user registers with an ID document, waits for approval, and is let in once approved', async ({
  page,
  openAs,
}) => {
  const person = { ...newPerson('Sipho Responder'), callSign: 'MEDIC 12' };
  await page.goto('/auth');
  await fillRegisterForm(page, person);
  await page.getByLabel('ID document').setInputFiles(ID_DOCUMENT_FIXTURE);
  await expect(page.getByText('id-document.png')).toBeVisible();
  await page.getByRole('button', { name: 'Create Account' }).click();

  await expect(page.getByRole('heading', { name: 'Account Pending Approval' })).toBeVisible();
  await expect(page.getByText(PENDING_TEXT)).toBeVisible();
  await expect(page.getByText('Documents uploaded', { exact: true })).toBeVisible();
  await expect(page.getByText(/ID document: received/)).toBeVisible();

  // The pending user is signed in but reaches nothing else.
  await page.goto('/');
  await expect(page.getByRole('heading', { name: 'Account Pending Approval' })).toBeVisible();

  const admin = await openAs('administrator');
  await signInThroughScreen(admin, ADMIN);
  await expect(admin.getByText('Administrator', { exact: true })).toBeVisible();
  await admin.goto('/admin/users');
  // The list opens on pending accounts; each person is a card headed by their name.
  const card = admin
    .getByRole('listitem')
    .filter({ has: admin.getByRole('heading', { name: person.fullName }) });
  await expect(card.getByText('Pending', { exact: true })).toBeVisible();
  await expect(card.getByText(person.email)).toBeVisible();
  // The administrator can open the uploaded ID document.
  await card.getByRole('button', { name: 'View documents (1)' }).click();
  const idLink = card.getByRole('link', { name: /^ID document/ });
  const href = await idLink.getAttribute('href');
  const document = await admin.request.get(href ?? '');
  expect(document.status()).toBe(200);
  expect(document.headers()['content-type']).toContain('image/png');

  await card.getByRole('button', { name: 'Approve' }).click();
  const confirm = admin.getByRole('alertdialog', { name: `Approve ${person.fullName}?` });
  await confirm.getByRole('button', { name: 'Approve' }).click();
  await expect(confirm).toHaveCount(0);
  await expect(card).toHaveCount(0); // no longer pending
  await admin.getByLabel('All', { exact: true }).check();
  await expect(card.getByText('Approved', { exact: true })).toBeVisible();

  await page.reload();
  await expect(page.getByRole('heading', { name: 'Account Pending Approval' })).toHaveCount(0);
  await expect(page.getByText(person.fullName)).toBeVisible();
  await expect(page.getByText('Responder', { exact: true })).toBeVisible();
  await expect(page.getByText('MEDIC 12')).toBeVisible();
});

test.describe('a taken email', () => {
  // The form signs in after registering; for a taken email with another password that
  // sign-in is refused (401), as it should be.
  test.use({ allowedConsoleErrors: [{ text: /status of 401/, url: /\/api\/login$/ }] });

  test('registering with an email that already has an account creates nothing, tells nothing, and points to Sign In', async ({
    page,
  }) => {
    // The owner registered earlier (signed in on another request context of this page).
    const owner = newPerson('Existing Owner');
    await apiRegister(page.request, owner);
    await page.context().clearCookies();

    await page.goto('/auth');
    await fillRegisterForm(page, { ...newPerson('Someone Else'), email: owner.email });
    await page.getByRole('button', { name: 'Create Account' }).click();
    await expect(page.getByText('Registration successful', { exact: true })).toBeVisible();
    // The form's panel (the toast's live region repeats its words, without the button).
    const received = page
      .getByRole('status')
      .filter({ hasText: 'Registration received' })
      .filter({ has: page.getByRole('button', { name: 'Go to Sign In' }) });
    await expect(received).toBeVisible();
    await expect(
      received.getByText('If the address already has an account, we have let its owner know.', {
        exact: false,
      }),
    ).toBeVisible();
    await received.getByRole('button', { name: 'Go to Sign In' }).click();

    // The owner's own password still signs them in.
    await page.getByLabel('Email').fill(owner.email);
    await page.getByLabel('Password').fill(owner.password);
    await page.getByRole('button', { name: 'Sign In' }).click();
    await expect(page.getByRole('heading', { name: 'Account Pending Approval' })).toBeVisible();
  });
});

test('Back to Login on the pending screen signs the user out', async ({ page }) => {
  const person = newPerson('Lerato Waiting');
  await page.goto('/auth');
  await fillRegisterForm(page, person);
  await page.getByRole('button', { name: 'Create Account' }).click();
  await expect(page.getByRole('heading', { name: 'Account Pending Approval' })).toBeVisible();

  await page.getByRole('button', { name: 'Back to Login' }).click();
  await expect(page).toHaveURL(/\/auth$/);
  await expect(page.getByRole('tab', { name: 'Sign In' })).toBeVisible();
  await page.goto('/');
  await expect(page).toHaveURL(/\/auth$/);
});

test('a member gets Access Denied on /admin/users, with a way back home', async ({
  page,
  openAs,
}) => {
  const person = await signInAsNewMember(page, await openAs('administrator'), 'Johan Member');
  await page.goto('/admin/users');
  await expect(page.getByRole('heading', { name: 'Access Denied' })).toBeVisible();
  await expect(page.getByText(DENIED_TEXT)).toBeVisible();

  await page
    .getByRole('link', { name: 'Back to Home' })
    .or(page.getByRole('button', { name: 'Back to Home' }))
    .click();
  await expect(page).toHaveURL(/\/$/);
  await expect(page.getByText(person.fullName)).toBeVisible();
  await expect(page.getByRole('link', { name: 'User Management' })).toHaveCount(0);
});

test('signed out, a protected page sends the visitor to /auth; signed in, /auth sends them home', async ({
  page,
}) => {
  await page.goto('/admin/users');
  await expect(page).toHaveURL(/\/auth$/);

  await signInAsAdmin(page);
  await page.goto('/auth');
  await expect(page).toHaveURL(/\/$/);
  await expect(page.getByText(ADMIN.fullName)).toBeVisible();
});

test.describe('wrong password', () => {
  // Chromium logs the 401 of the refused login; that is the expected answer here.
  test.use({ allowedConsoleErrors: [{ text: /status of 401/, url: /\/api\/login$/ }] });

  test('the user stays on /auth and sees Login failed', async ({ page }) => {
    await signInThroughScreen(page, { ...ADMIN, password: 'not-the-password' });
    await expect(page.getByText('Login failed', { exact: true })).toBeVisible();
    await expect(page).toHaveURL(/\/auth$/);
  });
});

test('an unknown path shows Page Not Found with a way home', async ({ page }) => {
  await signInAsAdmin(page);
  await page.goto('/this/page/does-not-exist');
  await expect(page.getByRole('heading', { name: 'Page Not Found' })).toBeVisible();
  await page.getByRole('link', { name: 'Go to Home' }).click();
  await expect(page).toHaveURL(/\/$/);
  await expect(page.getByText(ADMIN.fullName)).toBeVisible();
});
