// Renders one screen at a route inside the app's providers, and follows the URL's query
// string as the screen writes it (list filters live there): for tests of URL-driven screens.
import { render } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useEffect, type ReactElement } from 'react';
import { MemoryRouter, Route, Routes, useLocation } from 'react-router-dom';
import { AppProvider } from '@/app/provider';
import { createQueryClient } from '@/lib/query-client';

export interface RenderedRoute {
  user: ReturnType<typeof userEvent.setup>;
  /** The query string now ('' or '?a=b'). */
  location: { search: string };
}

export function renderRoute(route: string, element: ReactElement, path = route): RenderedRoute {
  const location = { search: '' };
  function Probe() {
    const { search } = useLocation();
    useEffect(() => {
      location.search = search;
    }, [search]);
    return null;
  }
  const user = userEvent.setup();
  render(
    <AppProvider queryClient={createQueryClient()}>
      <MemoryRouter initialEntries={[path]}>
        <Routes>
          <Route path={route} element={element} />
        </Routes>
        <Probe />
      </MemoryRouter>
    </AppProvider>,
  );
  return { user, location };
}
