// Starts the app: the user request, the current page's code and React's first render. main.tsx
// loads this once index.html's painted shell is on screen.
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { currentUserQuery } from '@/lib/auth';
import { queryClient } from '@/lib/query-client';
import { App } from './app';

export function boot(): void {
  // The guard waits for GET /api/user before it renders a lazy page; fetch the user and the
  // current page's code together rather than one after the other.
  void queryClient.prefetchQuery(currentUserQuery);
  if (window.location.pathname === '/auth') void import('./routes/auth');
  else if (window.location.pathname === '/') void import('./routes/dashboard');

  const container = document.getElementById('root');
  if (!container) throw new Error('index.html has no #root element');

  createRoot(container).render(
    <StrictMode>
      <App />
    </StrictMode>,
  );
}
