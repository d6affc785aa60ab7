import { screen, waitFor, within } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';
import type { User } from '@rescuelog/sync-protocol/accounts/users';
import { makeRoles, makeUser } from '@/test/fixtures';
import { expectToast, renderApp, signedInAs } from '@/test/render-app';
import { server } from '@/test/server';

const admin = makeUser({
  id: 1,
  role: 'administrator',
  fullName: 'Admin One',
  email: 'admin@example.org',
});
const applicant = makeUser({
  id: 2,
  fullName: 'Sipho Dlamini',
  email: 'sipho@example.org',
  status: 'pending',
  qualifications: 'Other',
  qualificationsOther: 'Wilderness first responder',
  idDocumentUrl: '/api/objects/abcdefghijklmnop.pdf',
  certificationsUrl: '["/api/objects/qrstuvwxyzabcdef.png"]',
});

const roles = makeRoles();
const responderId = roles.find((r) => r.name === 'responder')?.id ?? 0;

function usersApi(users: User[]) {
  const requested: (string | null)[] = [];
  server.use(
    http.get('/api/admin/roles', () => HttpResponse.json({ roles })),
    http.get('/api/admin/users', ({ request }) => {
      const status = new URL(request.url).searchParams.get('status');
      requested.push(status);
      return HttpResponse.json({
        users: status ? users.filter((u) => u.status === status) : users,
      });
    }),
  );
  return requested;
}

describe('/admin/users', () => {
  it('lists pending users first and approves after confirmation', async () => {
    signedInAs(admin);
    const requested = usersApi([admin, applicant]);
    let approved = false;
    let body: unknown;
    server.use(
      http.post('/api/admin/users/2/approve', async ({ request }) => {
        approved = request.headers.get('X-Requested-With') === 'rescuelog';
        body = await request.json();
        return HttpResponse.json({ user: { ...applicant, status: 'approved' } });
      }),
    );
    const { user } = renderApp('/admin/users');
    expect(
      await screen.findByRole('heading', { level: 1, name: 'User Management' }),
    ).toBeInTheDocument();
    const card = (await screen.findByRole('heading', { name: 'Sipho Dlamini' })).closest(
      'li',
    ) as HTMLElement;
    expect(requested[0]).toBe('pending');
    expect(screen.getByRole('radio', { name: 'Pending' })).toBeChecked();
    expect(within(card).getByText('Other: Wilderness first responder')).toBeInTheDocument();
    await user.click(within(card).getByRole('button', { name: 'Approve' }));
    const confirm = await screen.findByRole('alertdialog', { name: 'Approve Sipho Dlamini?' });
    // The role defaults to the one System Settings name; the administrator picks Responder.
    const roleSelect = within(confirm).getByRole('combobox', { name: 'Role' });
    expect(roleSelect).toHaveDisplayValue('Default role for new members');
    await within(confirm).findByRole('option', { name: 'Responder' });
    await user.selectOptions(roleSelect, 'Responder');
    await user.click(within(confirm).getByRole('button', { name: 'Approve' }));
    await expectToast('User approved', 'Sipho Dlamini');
    expect(approved).toBe(true);
    expect(body).toEqual({ roleId: responderId });
  });

  it('does nothing when a suspension is cancelled', async () => {
    signedInAs(admin);
    usersApi([admin, applicant]);
    const { user } = renderApp('/admin/users');
    const card = (await screen.findByRole('heading', { name: 'Sipho Dlamini' })).closest(
      'li',
    ) as HTMLElement;
    await user.click(within(card).getByRole('button', { name: 'Suspend' }));
    const confirm = await screen.findByRole('alertdialog', { name: 'Suspend Sipho Dlamini?' });
    // No suspend handler: a request would be unhandled and fail the test.
    await user.click(within(confirm).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('alertdialog')).not.toBeInTheDocument());
  });

  it('shows all users with the All filter, and no actions on your own account', async () => {
    signedInAs(admin);
    const requested = usersApi([admin, applicant]);
    const { user } = renderApp('/admin/users');
    await screen.findByRole('heading', { name: 'Sipho Dlamini' });
    await user.click(screen.getByRole('radio', { name: 'All' }));
    const mine = (await screen.findByRole('heading', { name: 'Admin One' })).closest(
      'li',
    ) as HTMLElement;
    expect(requested).toContain(null);
    expect(within(mine).getByText('This is your own account.')).toBeInTheDocument();
    expect(within(mine).queryByRole('button', { name: 'Suspend' })).not.toBeInTheDocument();
  });

  it("edits role and module permissions, saying where each module's permissions come from", async () => {
    signedInAs(admin);
    usersApi([admin, { ...applicant, roleId: null }]);
    let patch: unknown;
    server.use(
      http.patch('/api/admin/users/2', async ({ request }) => {
        patch = await request.json();
        return HttpResponse.json({ user: applicant });
      }),
    );
    const { user } = renderApp('/admin/users');
    const card = (await screen.findByRole('heading', { name: 'Sipho Dlamini' })).closest(
      'li',
    ) as HTMLElement;
    await user.click(within(card).getByRole('button', { name: 'Edit access' }));
    const dialog = await screen.findByRole('dialog', { name: 'Access for Sipho Dlamini' });
    const role = await within(dialog).findByRole('combobox', { name: 'Role' });
    expect(role).toHaveDisplayValue('No role');
    await user.selectOptions(role, 'Responder');
    // The Responder role gives create on New Case; the member keeps it.
    const newCase = within(dialog).getByRole('group', { name: 'New Case permissions' });
    expect(within(newCase).getByRole('checkbox', { name: 'Create' })).toBeChecked();
    const newCaseRow = newCase.closest('tr') as HTMLElement;
    expect(within(newCaseRow).getByText('From the role')).toBeInTheDocument();
    // Taking Cases Logged view away from this member is their own setting.
    const logs = within(dialog).getByRole('group', { name: 'Cases Logged permissions' });
    await user.click(within(logs).getByRole('checkbox', { name: 'View' }));
    expect(
      within(logs.closest('tr') as HTMLElement).getByText('Set for this member'),
    ).toBeInTheDocument();
    const cprLogs = within(dialog).getByRole('group', { name: 'CPR Logs permissions' });
    expect(
      within(cprLogs)
        .getAllByRole('checkbox')
        .map((c) => c.parentElement?.textContent),
    ).toEqual(['View', 'Edit', 'Delete']);
    await user.click(within(dialog).getByRole('button', { name: 'Save access' }));
    await expectToast('User updated');
    expect(patch).toEqual({
      roleId: responderId,
      permissions: { casesLogged: { view: false, edit: false, delete: false } },
    });
  });

  it('opens the uploaded documents', async () => {
    signedInAs(admin);
    usersApi([admin, applicant]);
    server.use(
      http.get('/api/admin/users/2/documents', () =>
        HttpResponse.json({
          documents: [
            {
              kind: 'idDocument',
              url: '/api/objects/abcdefghijklmnop.pdf',
              contentType: 'application/pdf',
              sizeBytes: 2048,
              uploadedAt: '2026-11-20T10:00:00.000Z',
            },
            {
              kind: 'certification',
              url: '/api/objects/qrstuvwxyzabcdef.png',
              contentType: 'image/png',
              sizeBytes: 4096,
              uploadedAt: null,
            },
          ],
        }),
      ),
    );
    const { user } = renderApp('/admin/users');
    const card = (await screen.findByRole('heading', { name: 'Sipho Dlamini' })).closest(
      'li',
    ) as HTMLElement;
    await user.click(within(card).getByRole('button', { name: 'View documents (2)' }));
    expect(await within(card).findByRole('link', { name: /ID document/ })).toHaveAttribute(
      'href',
      '/api/objects/abcdefghijklmnop.pdf',
    );
    expect(within(card).getByRole('link', { name: /Certification 1/ })).toHaveAttribute(
      'href',
      '/api/objects/qrstuvwxyzabcdef.png',
    );
  });
});
