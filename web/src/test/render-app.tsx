import { render, screen, waitFor, within } from '@testing-library/react';
import { expect } from 'vitest';
import { useLayoutEffect } from 'react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { MemoryRouter, useLocation } from 'react-router-dom';
import type { User } from '@rescuelog/sync-protocol/accounts/users';
import { AppProvider } from '@/app/provider';
import { AppRoutes } from '@/app/router';
import { createQueryClient } from '@/lib/query-client';
import { server } from './server';

/** Keeps `into.pathname` equal to the router's current path, for assertions. A layout effect
 * runs within the commit that renders the new page, so a test that found the page's content
 * never reads the previous path (a passive effect may run after the DOM is observed). */
function LocationProbe({ onPath }: { onPath: (pathname: string) => void }) {
  const { pathname } = useLocation();
  useLayoutEffect(() => {
    onPath(pathname);
  }, [onPath, pathname]);
  return null;
}

/** Renders the whole app (real router, guard, providers) at `path`. */
export function renderApp(path: string) {
  const queryClient = createQueryClient();
  const location = { pathname: path };
  const user = userEvent.setup();
  const view = render(
    <AppProvider queryClient={queryClient}>
      <MemoryRouter initialEntries={[path]}>
        <AppRoutes />
        <LocationProbe
          onPath={(p) => {
            location.pathname = p;
          }}
        />
      </MemoryRouter>
    </AppProvider>,
  );
  return { ...view, location, queryClient, user };
}

/** GET /api/session answers with this user, or `{ user: null }` (signed out). */
export function signedInAs(user: User | null) {
  server.use(http.get('/api/session', () => HttpResponse.json({ user })));
}

/** The dashboard's background calls, answered quietly. */
export function dashboardData({ unread = 0, cases = [] as unknown[] } = {}) {
  server.use(
    http.get('/api/stats', () =>
      HttpResponse.json({ thisMonthIncidents: 12, thisWeekIncidents: 4, activeIncidents: 1 }),
    ),
    http.get('/api/cases', () => HttpResponse.json(cases)),
    http.get('/api/user/notifications/unread-count', () => HttpResponse.json({ count: unread })),
  );
}

/** The toast viewport (Radix region named after its hotkey label). */
export async function findToastRegion() {
  return screen.findByRole('region', { name: /Messages/ });
}

/** Waits until the visible toast has this title (and description, when given). */
export async function expectToast(title: string, description?: string | RegExp) {
  const region = await findToastRegion();
  await waitFor(() => {
    const items = within(region).queryAllByRole('listitem');
    const open = items.find((li) => li.getAttribute('data-state') === 'open');
    if (!open) throw new Error(`no open toast; expected '${title}'`);
    expect(within(open).getByText(title)).toBeInTheDocument();
    if (description !== undefined) expect(within(open).getByText(description)).toBeInTheDocument();
  });
}
