import { screen, waitFor, within } from '@testing-library/react';
import { http, HttpResponse, delay } from 'msw';
import { describe, expect, it } from 'vitest';
import { REGISTRATION_MESSAGE } from '@rescuelog/sync-protocol/accounts/users';
import { makeUser } from '@/test/fixtures';
import { dashboardData, expectToast, renderApp, signedInAs } from '@/test/render-app';
import { server } from '@/test/server';

function pdf(name: string, size = 1024): File {
  return new File([new Uint8Array(size)], name, { type: 'application/pdf' });
}

async function openRegister() {
  const view = renderApp('/auth');
  await view.user.click(await screen.findByRole('tab', { name: 'Register' }));
  await screen.findByRole('button', { name: 'Create Account' });
  return view;
}

describe('Sign In tab', () => {
  it('shows the §5 messages at the fields', async () => {
    signedInAs(null);
    const { user } = renderApp('/auth');
    await user.click(await screen.findByRole('button', { name: 'Sign In' }));
    expect(await screen.findByText('Valid email address is required')).toBeInTheDocument();
    expect(screen.getByText('Password is required')).toBeInTheDocument();
    expect(screen.getByLabelText(/^Email/)).toHaveAttribute('aria-invalid', 'true');
  });

  it("reads 'Signing in...' while pending, then welcomes the user on the dashboard", async () => {
    signedInAs(null);
    dashboardData();
    let body: unknown;
    server.use(
      http.post('/api/login', async ({ request }) => {
        body = await request.json();
        await delay(50);
        return HttpResponse.json({ user: makeUser() });
      }),
    );
    const { user, location } = renderApp('/auth');
    await user.type(await screen.findByLabelText(/^Email/), 'thandi@example.org');
    await user.type(screen.getByLabelText(/^Password/), 'secret');
    await user.click(screen.getByRole('button', { name: 'Sign In' }));
    expect(await screen.findByRole('button', { name: 'Signing in...' })).toBeDisabled();
    expect(await screen.findByRole('heading', { name: 'Quick Stats' })).toBeInTheDocument();
    expect(location.pathname).toBe('/');
    expect(body).toEqual({ email: 'thandi@example.org', password: 'secret' });
    await expectToast('Login successful', 'Welcome back!');
  });

  it("shows 'Login failed' with the server's message", async () => {
    signedInAs(null);
    server.use(
      http.post('/api/login', () =>
        HttpResponse.json(
          { error: 'Invalid email or password', code: 'INVALID_CREDENTIALS' },
          { status: 401 },
        ),
      ),
    );
    const { user } = renderApp('/auth');
    await user.type(await screen.findByLabelText(/^Email/), 'thandi@example.org');
    await user.type(screen.getByLabelText(/^Password/), 'wrong');
    await user.click(screen.getByRole('button', { name: 'Sign In' }));
    await expectToast('Login failed', 'Invalid email or password');
    expect(screen.getByRole('button', { name: 'Sign In' })).toBeEnabled();
  });
});

describe('Sign In tab after too many failed attempts', () => {
  function rateLimited(retryAfterSeconds: number) {
    server.use(
      http.post('/api/login', () =>
        HttpResponse.json(
          {
            error: 'Too many attempts. Please wait before trying again.',
            code: 'RATE_LIMITED',
            retryAfterSeconds,
          },
          { status: 429, headers: { 'retry-after': String(retryAfterSeconds) } },
        ),
      ),
    );
  }

  async function submit() {
    const view = renderApp('/auth');
    await view.user.type(await screen.findByLabelText(/^Email/), 'thandi@example.org');
    await view.user.type(screen.getByLabelText(/^Password/), 'secret');
    await view.user.click(screen.getByRole('button', { name: 'Sign In' }));
    return view;
  }

  it('says how long to wait and keeps the button off until then', async () => {
    signedInAs(null);
    rateLimited(65);
    await submit();
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'Too many failed sign-in attempts. You can try again in 1 minute 5 seconds.',
    );
    expect(screen.getByRole('button', { name: 'Sign In' })).toBeDisabled();
    await expectToast('Login failed', 'Too many attempts. Please wait before trying again.');
  });

  it('counts down and lets the user try again once the wait is over', async () => {
    signedInAs(null);
    rateLimited(1);
    await submit();
    expect(await screen.findByRole('alert')).toHaveTextContent('You can try again in 1 second.');
    expect(screen.getByRole('button', { name: 'Sign In' })).toBeDisabled();
    await waitFor(() => expect(screen.queryByRole('alert')).toBeNull(), { timeout: 3000 });
    expect(screen.getByRole('button', { name: 'Sign In' })).toBeEnabled();
  });
});

describe('Register tab', () => {
  it('shows the required-field messages', async () => {
    signedInAs(null);
    const { user } = await openRegister();
    await user.click(screen.getByRole('button', { name: 'Create Account' }));
    expect(await screen.findByText('Valid email address is required')).toBeInTheDocument();
    expect(screen.getByText('Password must be at least 6 characters')).toBeInTheDocument();
    expect(screen.getByText('Full name is required')).toBeInTheDocument();
    expect(screen.getByText('Qualifications are required')).toBeInTheDocument();
  });

  it('offers every §3 field and the 10 qualification options', async () => {
    signedInAs(null);
    await openRegister();
    for (const label of [
      /^Email/,
      /^Password/,
      /^Full name/,
      /^Call sign/,
      /^Contact number/,
      /^ID number/,
      /^Qualifications/,
      /^Next of kin name/,
      /^Relationship/,
      /^Next of kin contact number/,
    ]) {
      expect(screen.getByLabelText(label)).toBeInTheDocument();
    }
    const options = within(screen.getByLabelText(/^Qualifications/))
      .getAllByRole('option')
      .filter((o) => !(o as HTMLOptionElement).disabled);
    expect(options.map((o) => o.textContent)).toEqual([
      'First Aid Level 3',
      'Basic Ambulance Assistant',
      'Ambulance Emergency Assistant',
      'Emergency Care Assistant',
      'Emergency Care Technician',
      'Emergency Care Practitioner',
      'Nurse',
      'Nursing Sister',
      'Medical Doctor',
      'Other',
    ]);
  });

  it("reveals Other qualifications only when 'Other' is chosen", async () => {
    signedInAs(null);
    const { user } = await openRegister();
    expect(screen.queryByLabelText(/^Other qualifications/)).not.toBeInTheDocument();
    await user.selectOptions(screen.getByLabelText(/^Qualifications/), 'Other');
    expect(screen.getByLabelText(/^Other qualifications/)).toBeInTheDocument();
    await user.selectOptions(screen.getByLabelText(/^Qualifications/), 'Nurse');
    expect(screen.queryByLabelText(/^Other qualifications/)).not.toBeInTheDocument();
  });

  it('asks for a description when Other is chosen and left empty', async () => {
    signedInAs(null);
    const { user } = await openRegister();
    await user.type(screen.getByLabelText(/^Email/), 'sipho@example.org');
    await user.type(screen.getByLabelText(/^Password/), 'station secret 7');
    await user.type(screen.getByLabelText(/^Full name/), 'Sipho Dlamini');
    await user.selectOptions(screen.getByLabelText(/^Qualifications/), 'Other');
    await user.click(screen.getByRole('button', { name: 'Create Account' }));
    expect(await screen.findByText('Please describe your qualifications')).toBeInTheDocument();
  });

  it('refuses files over 10 MiB, a second ID document and a sixth certification', async () => {
    signedInAs(null);
    const { user } = await openRegister();
    const idInput = screen.getByLabelText('ID document');
    await user.upload(idInput, pdf('too-big.pdf', 10_485_761));
    expect(await screen.findByText('too-big.pdf: File is larger than 10 MiB')).toBeInTheDocument();
    await user.upload(idInput, pdf('exactly-10-mib.pdf', 10_485_760));
    expect(screen.getByText('exactly-10-mib.pdf')).toBeInTheDocument();
    expect(idInput).toBeDisabled();

    const certInput = screen.getByLabelText('Certifications');
    await user.upload(
      certInput,
      [1, 2, 3, 4, 5, 6].map((n) => pdf(`cert-${n}.pdf`)),
    );
    expect(await screen.findByText('At most 5 certifications can be uploaded')).toBeInTheDocument();
    expect(
      within(screen.getByRole('list', { name: 'Certifications files' })).getAllByRole('listitem'),
    ).toHaveLength(5);
    expect(screen.queryByText('cert-6.pdf')).not.toBeInTheDocument();
  });

  async function fillValidForm(user: ReturnType<typeof renderApp>['user']) {
    await user.type(screen.getByLabelText(/^Email/), 'sipho@example.org');
    await user.type(screen.getByLabelText(/^Password/), 'station secret 7');
    await user.type(screen.getByLabelText(/^Full name/), 'Sipho Dlamini');
    await user.selectOptions(screen.getByLabelText(/^Qualifications/), 'Nurse');
  }

  it('registers, then uploads the picked document and shows the pending screen', async () => {
    signedInAs(null);
    const pending = makeUser({
      id: 9,
      email: 'sipho@example.org',
      fullName: 'Sipho Dlamini',
      status: 'pending',
    });
    const calls: string[] = [];
    let documentsBody: unknown;
    server.use(
      http.post('/api/register', async ({ request }) => {
        calls.push('register');
        const body = (await request.json()) as Record<string, unknown>;
        expect(body).toMatchObject({
          email: 'sipho@example.org',
          fullName: 'Sipho Dlamini',
          qualifications: 'Nurse',
          callSign: null,
        });
        return HttpResponse.json({ message: REGISTRATION_MESSAGE }, { status: 201 });
      }),
      http.post('/api/login', async ({ request }) => {
        calls.push('login');
        expect(await request.json()).toEqual({
          email: 'sipho@example.org',
          password: 'station secret 7',
        });
        return HttpResponse.json({ user: pending });
      }),
      http.post('/api/objects/upload', ({ request }) => {
        calls.push(`upload-url:${request.headers.get('X-Requested-With')}`);
        return HttpResponse.json({
          uploadURL: '/api/objects/upload/tok123',
          expiresAt: '2026-11-21T06:00:00Z',
        });
      }),
      http.put('/api/objects/upload/tok123', async ({ request }) => {
        calls.push(`put:${(await request.arrayBuffer()).byteLength}`);
        return HttpResponse.json({ url: '/api/objects/abcdefghijklmnop.pdf' });
      }),
      http.put('/api/user/documents', async ({ request }) => {
        documentsBody = await request.json();
        calls.push('documents');
        return HttpResponse.json({
          user: { ...pending, idDocumentUrl: '/api/objects/abcdefghijklmnop.pdf' },
        });
      }),
    );
    const { user } = await openRegister();
    await fillValidForm(user);
    await user.upload(screen.getByLabelText('ID document'), pdf('id.pdf', 2048));
    expect(calls).toEqual([]); // nothing leaves the device before the account exists
    await user.click(screen.getByRole('button', { name: 'Create Account' }));
    expect(
      await screen.findByRole('heading', { name: 'Account Pending Approval' }),
    ).toBeInTheDocument();
    expect(calls).toEqual(['register', 'login', 'upload-url:rescuelog', 'put:2048', 'documents']);
    expect(documentsBody).toEqual({ idDocumentUrl: '/api/objects/abcdefghijklmnop.pdf' });
    await expectToast('Documents uploaded');
    expect(screen.getByText(/ID document: received/)).toBeInTheDocument();
  });

  it('keeps the registration when an upload fails and retries from the pending screen', async () => {
    signedInAs(null);
    const pending = makeUser({ id: 9, status: 'pending' });
    let putAttempts = 0;
    server.use(
      http.post('/api/register', () =>
        HttpResponse.json({ message: REGISTRATION_MESSAGE }, { status: 201 }),
      ),
      http.post('/api/login', () => HttpResponse.json({ user: pending })),
      http.post('/api/objects/upload', () =>
        HttpResponse.json({
          uploadURL: '/api/objects/upload/tok',
          expiresAt: '2026-11-21T06:00:00Z',
        }),
      ),
      http.put('/api/objects/upload/tok', () => {
        putAttempts += 1;
        return putAttempts === 1
          ? HttpResponse.json({ error: 'Internal Server Error', code: 'INTERNAL' }, { status: 500 })
          : HttpResponse.json({ url: '/api/objects/abcdefghijklmnop.pdf' });
      }),
      http.put('/api/user/documents', () =>
        HttpResponse.json({
          user: { ...pending, certificationsUrl: '["/api/objects/abcdefghijklmnop.pdf"]' },
        }),
      ),
    );
    const { user } = await openRegister();
    await fillValidForm(user);
    await user.upload(screen.getByLabelText('Certifications'), pdf('cert.pdf'));
    await user.click(screen.getByRole('button', { name: 'Create Account' }));
    expect(
      await screen.findByRole('heading', { name: 'Account Pending Approval' }),
    ).toBeInTheDocument();
    await expectToast('Upload failed', /Internal Server Error/);
    await user.click(screen.getByRole('button', { name: 'Retry upload' }));
    await expectToast('Documents uploaded');
    expect(await screen.findByText(/Certifications: 1 received/)).toBeInTheDocument();
  });

  it("shows 'Registration failed' with the server's message and marks the field", async () => {
    signedInAs(null);
    const tooCommon = 'This password is too common; choose one that is harder to guess';
    server.use(
      http.post('/api/register', () =>
        HttpResponse.json(
          { error: tooCommon, code: 'VALIDATION_FAILED', fieldErrors: { password: [tooCommon] } },
          { status: 400 },
        ),
      ),
    );
    const { user } = await openRegister();
    await fillValidForm(user);
    await user.click(screen.getByRole('button', { name: 'Create Account' }));
    await expectToast('Registration failed', tooCommon);
    expect(screen.getByLabelText(/^Password/)).toHaveAttribute('aria-invalid', 'true');
  });

  it('when signing in after registering fails (the email may hold an account), says what is true either way and points to Sign In', async () => {
    signedInAs(null);
    server.use(
      http.post('/api/register', () =>
        HttpResponse.json({ message: REGISTRATION_MESSAGE }, { status: 201 }),
      ),
      http.post('/api/login', () =>
        HttpResponse.json(
          { error: 'Invalid email or password', code: 'INVALID_CREDENTIALS' },
          { status: 401 },
        ),
      ),
    );
    const { user } = await openRegister();
    await fillValidForm(user);
    await user.click(screen.getByRole('button', { name: 'Create Account' }));
    await expectToast('Registration successful', REGISTRATION_MESSAGE);
    const received = await screen.findByRole('status');
    expect(within(received).getByRole('heading', { name: 'Registration received' })).toBeVisible();
    expect(received).toHaveTextContent(
      'If this email address is new to us, your account has been created and is pending approval: sign in with it to continue.',
    );
    expect(received).toHaveTextContent(
      'If the address already has an account, we have let its owner know.',
    );
    await user.click(within(received).getByRole('button', { name: 'Go to Sign In' }));
    expect(await screen.findByRole('button', { name: 'Sign In' })).toBeVisible();
  });

  it("toasts 'Registration successful' with the server's message when no documents were picked", async () => {
    signedInAs(null);
    server.use(
      http.post('/api/register', () =>
        HttpResponse.json({ message: REGISTRATION_MESSAGE }, { status: 201 }),
      ),
      http.post('/api/login', () => HttpResponse.json({ user: makeUser({ status: 'pending' }) })),
    );
    const { user } = await openRegister();
    await fillValidForm(user);
    await user.click(screen.getByRole('button', { name: 'Create Account' }));
    await expectToast('Registration successful', REGISTRATION_MESSAGE);
    expect(
      await screen.findByRole('heading', { name: 'Account Pending Approval' }),
    ).toBeInTheDocument();
  });
});
