// Issue 37: approving with the dialog's defaults gives the role an approval gives by default
// (GET /api/admin/roles approvalRoleId), which the dialog names with one line on what it
// allows; each user's badge shows their role's display name.
import { screen, within } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';
import { makeRoles, makeUser } from '@/test/fixtures';
import { expectToast, renderApp, signedInAs } from '@/test/render-app';
import { server } from '@/test/server';

const admin = makeUser({ id: 1, role: 'administrator', fullName: 'Admin One' });
const roles = makeRoles();
const responder = roles.find((r) => r.name === 'responder');
const applicant = makeUser({ id: 2, fullName: 'Sipho Dlamini', status: 'pending' });
const crew = makeUser({ id: 3, fullName: 'Lerato Mokoena', roleId: 3, roleName: 'Responder' });

describe('approving with the defaults', () => {
  it('names the default role and what it allows, and gives it', async () => {
    signedInAs(admin);
    let body: unknown;
    server.use(
      http.get('/api/admin/roles', () =>
        HttpResponse.json({ roles, approvalRoleId: responder?.id ?? null }),
      ),
      http.get('/api/admin/users', () => HttpResponse.json({ users: [applicant, crew] })),
      http.post('/api/admin/users/2/approve', async ({ request }) => {
        body = await request.json();
        return HttpResponse.json({ user: { ...applicant, status: 'approved' } });
      }),
    );
    const { user } = renderApp('/admin/users');
    const crewCard = (await screen.findByRole('heading', { name: 'Lerato Mokoena' })).closest(
      'li',
    ) as HTMLElement;
    expect(within(crewCard).getByText('Responder')).toBeInTheDocument();
    const card = screen
      .getByRole('heading', { name: 'Sipho Dlamini' })
      .closest('li') as HTMLElement;
    await user.click(within(card).getByRole('button', { name: 'Approve' }));
    const confirm = await screen.findByRole('alertdialog', { name: 'Approve Sipho Dlamini?' });
    const roleSelect = within(confirm).getByRole('combobox', { name: 'Role' });
    await within(confirm).findByText(/use RescueLog as Responder/);
    expect(roleSelect).toHaveDisplayValue('Responder (default)');
    expect(
      within(confirm).getByText(
        'Documents New Case, CPR Logger, Multi-Patient and Incident Reports; sees their own cases only.',
      ),
    ).toBeInTheDocument();
    await user.click(within(confirm).getByRole('button', { name: 'Approve' }));
    await expectToast('User approved', 'Sipho Dlamini');
    expect(body).toEqual({ roleId: responder?.id });
  });
});
