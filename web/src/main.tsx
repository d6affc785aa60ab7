import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './app/app';
import { currentUserQuery } from './lib/auth';
import { captureInstallPrompt } from './lib/install-prompt';
import { queryClient } from './lib/query-client';
import './styles.css';

captureInstallPrompt();

// The guard waits for GET /api/user before it renders a lazy page; fetch the user and the
// current page's code together rather than one after the other.
void queryClient.prefetchQuery(currentUserQuery);
if (window.location.pathname === '/auth') void import('./app/routes/auth');
else if (window.location.pathname === '/') void import('./app/routes/dashboard');

const container = document.getElementById('root');
if (!container) throw new Error('index.html has no #root element');

createRoot(container).render(
  <StrictMode>
    <App />
  </StrictMode>,
);
