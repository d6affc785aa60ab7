import { screen, waitFor, within } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';
import type { SessionInfo } from '@rescuelog/sync-protocol/accounts/users';
import { makeUser } from '@/test/fixtures';
import { expectToast, renderApp, signedInAs } from '@/test/render-app';
import { server } from '@/test/server';
import { describeDevice } from './components/sessions-section';

const me = makeUser({ id: 7, fullName: 'Thandi Nkosi', email: 'thandi@example.org' });
const here: SessionInfo = {
  id: 'a'.repeat(32),
  current: true,
  createdAt: '2026-11-20T08:00:00.000Z',
  lastSeenAt: '2026-11-20T09:00:00.000Z',
  userAgent: 'Mozilla/5.0 (Linux; Android 14) AppleWebKit/537.36 Chrome/131.0 Mobile Safari/537.36',
  ip: '10.0.0.5',
};
const laptop: SessionInfo = {
  ...here,
  id: 'b'.repeat(32),
  current: false,
  userAgent: 'Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:133.0) Gecko/20100101 Firefox/133.0',
};

function sessionsApi(sessions: SessionInfo[]) {
  server.use(http.get('/api/user/sessions', () => HttpResponse.json({ sessions })));
}

describe('/profile', () => {
  it('names devices from their browser', () => {
    expect(describeDevice(here.userAgent)).toBe('Chrome on Android');
    expect(describeDevice(laptop.userAgent)).toBe('Firefox on Windows');
    expect(describeDevice(null)).toBe('Unknown device');
  });

  it('saves own details, refusing a one-letter name before sending', async () => {
    signedInAs(me);
    sessionsApi([here]);
    let sent: unknown;
    server.use(
      http.patch('/api/user/profile', async ({ request }) => {
        sent = await request.json();
        return HttpResponse.json({ user: { ...me, callSign: 'RESCUE 4' } });
      }),
    );
    const { user } = renderApp('/profile');
    const name = await screen.findByLabelText(/^Full name/);
    await user.clear(name);
    await user.type(name, 'T');
    await user.click(screen.getByRole('button', { name: 'Save details' }));
    expect(await screen.findByText('Full name is required')).toBeInTheDocument();
    expect(sent).toBeUndefined();

    await user.type(name, 'handi Nkosi');
    await user.clear(screen.getByLabelText('Call sign'));
    await user.type(screen.getByLabelText('Call sign'), 'RESCUE 4');
    await user.click(screen.getByRole('button', { name: 'Save details' }));
    await expectToast('Profile saved');
    expect(sent).toMatchObject({ fullName: 'Thandi Nkosi', callSign: 'RESCUE 4' });
  });

  it('asks for the current password to change the email, and shows a wrong one at the field', async () => {
    signedInAs(me);
    sessionsApi([here]);
    server.use(
      http.patch('/api/user/profile', () =>
        HttpResponse.json(
          {
            error: 'Your current password is not correct',
            code: 'CURRENT_PASSWORD_INVALID',
            fieldErrors: { currentPassword: ['Your current password is not correct'] },
          },
          { status: 400 },
        ),
      ),
    );
    const { user } = renderApp('/profile');
    const form = await screen.findByRole('form', { name: 'Email address' });
    await user.clear(within(form).getByLabelText('Email'));
    await user.type(within(form).getByLabelText('Email'), 'new@example.org');
    await user.click(within(form).getByRole('button', { name: 'Change email' }));
    expect(
      within(form).getByText('Enter your current password to change your email address'),
    ).toBeInTheDocument();
    await user.type(within(form).getByLabelText('Current password'), 'not it');
    await user.click(within(form).getByRole('button', { name: 'Change email' }));
    expect(
      await within(form).findByText('Your current password is not correct'),
    ).toBeInTheDocument();
  });

  it('changes the password after checking the repeat, and says other devices were signed out', async () => {
    signedInAs(me);
    sessionsApi([here, laptop]);
    let sent: unknown;
    server.use(
      http.post('/api/user/password', async ({ request }) => {
        sent = await request.json();
        return HttpResponse.json({ message: 'Your password has been changed', endedSessions: 1 });
      }),
    );
    const { user } = renderApp('/profile');
    const form = await screen.findByRole('form', { name: 'Password' });
    await user.type(within(form).getByLabelText('Current password'), 'old secret');
    await user.type(within(form).getByLabelText('New password'), '12345');
    await user.type(within(form).getByLabelText('Repeat new password'), '12345');
    await user.click(within(form).getByRole('button', { name: 'Change password' }));
    expect(within(form).getByText('Password must be at least 6 characters')).toBeInTheDocument();
    await user.type(within(form).getByLabelText('New password'), '6');
    await user.click(within(form).getByRole('button', { name: 'Change password' }));
    expect(within(form).getByText('The passwords do not match')).toBeInTheDocument();
    await user.type(within(form).getByLabelText('Repeat new password'), '6');
    await user.click(within(form).getByRole('button', { name: 'Change password' }));
    await expectToast('Password changed', 'Signed out on 1 other device.');
    expect(sent).toEqual({ currentPassword: 'old secret', newPassword: '123456' });
  });

  it('lists where the user is signed in and signs out another device', async () => {
    signedInAs(me);
    let sessions = [here, laptop];
    server.use(
      http.get('/api/user/sessions', () => HttpResponse.json({ sessions })),
      http.delete(`/api/user/sessions/${laptop.id}`, () => {
        sessions = [here];
        return HttpResponse.json({ message: 'Signed out', endedSessions: 1 });
      }),
    );
    const { user } = renderApp('/profile');
    const section = (await screen.findByRole('heading', { name: 'Where you are signed in' }))
      .parentElement as HTMLElement;
    expect(await within(section).findByText('Chrome on Android')).toBeInTheDocument();
    expect(within(section).getByText('This device')).toBeInTheDocument();
    await user.click(within(section).getByRole('button', { name: 'Sign out Firefox on Windows' }));
    await expectToast('Signed out', 'Firefox on Windows');
    await waitFor(() =>
      expect(within(section).queryByText('Firefox on Windows')).not.toBeInTheDocument(),
    );
    expect(
      within(section).queryByRole('button', { name: 'Sign out all other devices' }),
    ).not.toBeInTheDocument();
  });
});
