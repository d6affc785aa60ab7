import { screen, within } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';
import { DEFAULT_SETTINGS } from '@rescuelog/sync-protocol/settings';
import { makeRoles, makeUser } from '@/test/fixtures';
import { expectToast, renderApp, signedInAs } from '@/test/render-app';
import { server } from '@/test/server';

const admin = makeUser({ id: 1, role: 'administrator' });

function settingsApi() {
  const patches: unknown[] = [];
  server.use(
    http.get('/api/admin/settings', () =>
      HttpResponse.json({ settings: DEFAULT_SETTINGS, updatedAt: null }),
    ),
    http.get('/api/admin/roles', () => HttpResponse.json({ roles: makeRoles() })),
    http.patch('/api/admin/settings', async ({ request }) => {
      const patch = (await request.json()) as Record<string, unknown>;
      patches.push(patch);
      return HttpResponse.json({
        settings: { ...DEFAULT_SETTINGS, ...patch },
        updatedAt: '2026-11-24T10:00:00.000Z',
      });
    }),
  );
  return patches;
}

describe('/system-settings', () => {
  it('is for administrators only', async () => {
    signedInAs(makeUser());
    renderApp('/system-settings');
    expect(await screen.findByRole('heading', { name: 'Access Denied' })).toBeInTheDocument();
  });

  it('refuses a value out of range at its field and sends nothing', async () => {
    signedInAs(admin);
    const patches = settingsApi();
    const { user } = renderApp('/system-settings');
    const rate = await screen.findByLabelText('Metronome rate (per minute)');
    await user.clear(rate);
    await user.type(rate, '200');
    await user.click(screen.getByRole('button', { name: 'Save settings' }));
    expect(
      screen.getByText('Metronome rate must be a whole number from 100 to 120 per minute'),
    ).toBeInTheDocument();
    expect(rate).toHaveAttribute('aria-invalid', 'true');
    expect(patches).toEqual([]);
  });

  it('sends only what changed, including the default role and the time zone', async () => {
    signedInAs(admin);
    const patches = settingsApi();
    const { user } = renderApp('/system-settings');
    const name = await screen.findByLabelText(/^Organisation name/);
    await user.clear(name);
    await user.type(name, 'Hillcrest Rescue');
    await user.selectOptions(screen.getByLabelText('Default role for new members'), 'Responder');
    await user.selectOptions(screen.getByLabelText('Service time zone'), 'Europe/London');
    await user.click(screen.getByRole('button', { name: 'Save settings' }));
    await expectToast('Settings saved');
    const responder = makeRoles().find((r) => r.name === 'responder');
    expect(patches).toEqual([
      {
        organisationName: 'Hillcrest Rescue',
        serviceTimeZone: 'Europe/London',
        defaultRoleId: responder?.id,
      },
    ]);
  });

  it("shows the server's refusal at the field it names", async () => {
    signedInAs(admin);
    settingsApi();
    server.use(
      http.patch('/api/admin/settings', () =>
        HttpResponse.json(
          {
            error: 'That role does not exist; choose another default role',
            code: 'SETTING_INVALID',
            fieldErrors: {
              defaultRoleId: ['That role does not exist; choose another default role'],
            },
          },
          { status: 400 },
        ),
      ),
    );
    const { user } = renderApp('/system-settings');
    const select = await screen.findByLabelText('Default role for new members');
    await user.selectOptions(select, 'Observer');
    await user.click(screen.getByRole('button', { name: 'Save settings' }));
    const members = select.closest('fieldset') as HTMLElement;
    expect(
      await within(members).findByText('That role does not exist; choose another default role'),
    ).toBeInTheDocument();
  });
});
