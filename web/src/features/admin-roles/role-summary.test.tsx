// Issue 37: each role's card says what it allows without opening Edit, by the rules the API
// guards with; the page's title sits after the way back, as on every screen (PageHeader).
import { screen, within } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';
import { makeRoles, makeUser } from '@/test/fixtures';
import { renderApp, signedInAs } from '@/test/render-app';
import { server } from '@/test/server';

describe('/admin/roles', () => {
  it("summarises each role's permissions on its card", async () => {
    signedInAs(makeUser({ id: 1, role: 'administrator' }));
    const roles = makeRoles([
      {
        name: 'duty-officer',
        displayName: 'Duty Officer',
        permissions: { casesLogged: { view: true }, userManagement: true },
      },
    ]);
    server.use(http.get('/api/admin/roles', () => HttpResponse.json({ roles })));
    renderApp('/admin/roles');
    const title = await screen.findByRole('heading', { level: 1, name: 'Role Management' });
    expect(title).toHaveClass('page-header__title');
    const card = (name: string) =>
      screen.getByRole('heading', { name }).closest('li') as HTMLElement;
    await screen.findByRole('heading', { name: 'Responder' });
    expect(
      within(card('Responder')).getByText(
        'creates New Case, CPR Logger, Multi-Patient and Incident Reports',
      ),
    ).toBeInTheDocument();
    expect(within(card('Responder')).getByText(/Cases Logged \(own cases\)/)).toBeInTheDocument();
    expect(
      within(card('Member')).getByText(
        'reads New Case, CPR Logger, Multi-Patient and Incident Reports',
      ),
    ).toBeInTheDocument();
    expect(
      within(card('Duty Officer')).getByText(/Cases Logged \(every case\)/),
    ).toBeInTheDocument();
    expect(within(card('Duty Officer')).getByText('User Management')).toBeInTheDocument();
  });
});
