import { screen, waitFor, within } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';
import type { Role } from '@rescuelog/sync-protocol/accounts/roles';
import { makeRoles, makeUser } from '@/test/fixtures';
import { expectToast, renderApp, signedInAs } from '@/test/render-app';
import { server } from '@/test/server';
import { fromGrid, toGrid } from '@/components/permissions/permission-grid';

const admin = makeUser({ id: 1, role: 'administrator' });

function rolesApi(roles: Role[]) {
  server.use(http.get('/api/admin/roles', () => HttpResponse.json({ roles })));
}

describe('permission grid', () => {
  it('shows the §6 defaults for a role without entries and writes every module back', () => {
    const grid = toGrid('custom', {});
    expect(grid.newCase).toEqual({ read: true, create: false, edit: false, delete: false });
    expect(grid.userManagement).toBe(false);
    expect(toGrid('administrator', {}).userManagement).toBe(true);
    expect(fromGrid(grid)).toMatchObject({
      newCase: { read: true, create: false, edit: false, delete: false },
      firstAidProtocols: { view: true },
      systemAdmin: false,
    });
  });
});

describe('/admin/roles', () => {
  it('lists the roles; system roles say they cannot be deleted', async () => {
    signedInAs(admin);
    rolesApi(makeRoles([{ name: 'driver', displayName: 'Driver', userCount: 3 }]));
    renderApp('/admin/roles');
    expect(
      await screen.findByRole('heading', { level: 1, name: 'Role Management' }),
    ).toBeInTheDocument();
    const responder = (await screen.findByRole('heading', { name: 'Responder' })).closest(
      'li',
    ) as HTMLElement;
    expect(within(responder).getByText('System role')).toBeInTheDocument();
    expect(within(responder).queryByRole('button', { name: /Delete/ })).not.toBeInTheDocument();
    const driver = screen.getByRole('heading', { name: 'Driver' }).closest('li') as HTMLElement;
    expect(within(driver).getByRole('button', { name: 'Delete Driver' })).toBeInTheDocument();
  });

  it('creates a role with the §5 messages first, then the chosen permissions', async () => {
    signedInAs(admin);
    rolesApi(makeRoles());
    let created: unknown;
    server.use(
      http.post('/api/admin/roles', async ({ request }) => {
        created = await request.json();
        return HttpResponse.json(
          { role: makeRoles([{ name: 'medic', displayName: 'Medic' }]).at(-1) },
          { status: 201 },
        );
      }),
    );
    const { user } = renderApp('/admin/roles');
    await user.click(await screen.findByRole('button', { name: 'New role' }));
    const dialog = await screen.findByRole('dialog', { name: 'New role' });
    await user.click(within(dialog).getByRole('button', { name: 'Create role' }));
    expect(within(dialog).getByText('Role name is required')).toBeInTheDocument();
    expect(within(dialog).getByText('Display name is required')).toBeInTheDocument();
    expect(created).toBeUndefined();

    await user.type(within(dialog).getByLabelText(/^Role name/), 'medic');
    await user.type(within(dialog).getByLabelText(/^Display name/), 'Medic');
    const newCase = within(dialog).getByRole('group', { name: 'New Case' });
    await user.click(within(newCase).getByRole('checkbox', { name: 'Create' }));
    await user.click(within(dialog).getByRole('button', { name: 'Create role' }));
    await expectToast('Role created', 'Medic');
    expect(created).toMatchObject({
      name: 'medic',
      displayName: 'Medic',
      permissions: {
        newCase: { read: true, create: true, edit: false, delete: false },
        userManagement: false,
      },
    });
  });

  it('shows a duplicate name at the field', async () => {
    signedInAs(admin);
    rolesApi(makeRoles());
    server.use(
      http.post('/api/admin/roles', () =>
        HttpResponse.json(
          {
            error: 'A role with this name already exists',
            code: 'ROLE_NAME_TAKEN',
            fieldErrors: { name: ['A role with this name already exists'] },
          },
          { status: 409 },
        ),
      ),
    );
    const { user } = renderApp('/admin/roles');
    await user.click(await screen.findByRole('button', { name: 'New role' }));
    const dialog = await screen.findByRole('dialog', { name: 'New role' });
    await user.type(within(dialog).getByLabelText(/^Role name/), 'member');
    await user.type(within(dialog).getByLabelText(/^Display name/), 'Member again');
    await user.click(within(dialog).getByRole('button', { name: 'Create role' }));
    expect(
      await within(dialog).findByText('A role with this name already exists'),
    ).toBeInTheDocument();
    expect(within(dialog).getByLabelText(/^Role name/)).toHaveAttribute('aria-invalid', 'true');
  });

  it('a system role keeps its name: the field is locked and the name is not sent', async () => {
    signedInAs(admin);
    rolesApi(makeRoles());
    let patch: unknown;
    server.use(
      http.patch('/api/admin/roles/3', async ({ request }) => {
        patch = await request.json();
        return HttpResponse.json({ role: makeRoles()[2] });
      }),
    );
    const { user } = renderApp('/admin/roles');
    await user.click(await screen.findByRole('button', { name: 'Edit Responder' }));
    const dialog = await screen.findByRole('dialog', { name: 'Edit Responder' });
    expect(within(dialog).getByLabelText(/^Role name/)).toBeDisabled();
    expect(
      within(dialog).getByText('A system role cannot be renamed or deleted.'),
    ).toBeInTheDocument();
    await user.click(within(dialog).getByRole('button', { name: 'Save role' }));
    await expectToast('Role saved');
    expect(patch).not.toHaveProperty('name');
  });

  it('moves the members of a role it deletes to the role chosen', async () => {
    signedInAs(admin);
    const roles = makeRoles([{ name: 'driver', displayName: 'Driver', userCount: 2 }]);
    rolesApi(roles);
    let url = '';
    server.use(
      http.delete('/api/admin/roles/:id', ({ request }) => {
        url = request.url;
        return HttpResponse.json({ message: 'Role deleted', role: roles.at(-1), reassigned: 2 });
      }),
    );
    const { user } = renderApp('/admin/roles');
    await user.click(await screen.findByRole('button', { name: 'Delete Driver' }));
    const confirm = await screen.findByRole('alertdialog', { name: 'Delete Driver?' });
    expect(within(confirm).getByText(/2 people have this role/)).toBeInTheDocument();
    await user.selectOptions(within(confirm).getByLabelText('Move them to'), 'Observer');
    await user.click(within(confirm).getByRole('button', { name: 'Move and delete' }));
    await expectToast('Role deleted', 'Driver: 2 moved');
    const observer = roles.find((r) => r.name === 'observer');
    await waitFor(() =>
      expect(url).toMatch(
        new RegExp(
          `/api/admin/roles/${String(roles.at(-1)?.id)}\\?reassignTo=${String(observer?.id)}$`,
        ),
      ),
    );
  });
});
