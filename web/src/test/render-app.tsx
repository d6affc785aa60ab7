import { render } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { createMemoryRouter, RouterProvider } from 'react-router-dom';
import type { User } from '@rescuelog/sync-protocol/users';
import { AppProvider } from '@/app/provider';
import { routes } from '@/app/router';
import { createQueryClient } from '@/lib/query-client';
import { server } from './server';

/** Renders the whole app (real router, guard, providers) at `path`. */
export function renderApp(path: string) {
  const queryClient = createQueryClient();
  const router = createMemoryRouter(routes, { initialEntries: [path] });
  const user = userEvent.setup();
  const view = render(
    <AppProvider queryClient={queryClient}>
      <RouterProvider router={router} />
    </AppProvider>,
  );
  return { ...view, router, queryClient, user };
}

/** GET /api/user answers with this user, or 401 for null. */
export function signedInAs(user: User | null) {
  server.use(
    http.get('/api/user', () =>
      user ? HttpResponse.json({ user }) : HttpResponse.json({ error: 'Not signed in', code: 'UNAUTHENTICATED' }, { status: 401 }),
    ),
  );
}

/** The dashboard's background calls, answered quietly. */
export function dashboardData({ unread = 0, cases = [] as unknown[] } = {}) {
  server.use(
    http.get('/api/stats', () => HttpResponse.json({ thisMonthIncidents: 12, thisWeekIncidents: 4, activeIncidents: 1 })),
    http.get('/api/cases', () => HttpResponse.json(cases)),
    http.get('/api/user/notifications/unread-count', () => HttpResponse.json({ count: unread })),
  );
}
