import { lazy, Suspense } from 'react';
import { BrowserRouter } from 'react-router-dom';
import { queryClient } from '@/lib/query-client';
import { AppProvider } from './provider';
import { AppRoutes } from './router';

// The update prompt registers the service worker; nothing of it is needed to paint.
const PwaUpdatePrompt = lazy(async () => ({ default: (await import('@/lib/pwa-update-prompt')).PwaUpdatePrompt }));

export function App() {
  return (
    <AppProvider queryClient={queryClient}>
      <BrowserRouter>
        <AppRoutes />
      </BrowserRouter>
      <Suspense fallback={null}>
        <PwaUpdatePrompt />
      </Suspense>
    </AppProvider>
  );
}
