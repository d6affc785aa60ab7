import { lazy, Suspense } from 'react';
import { BrowserRouter } from 'react-router-dom';
import { useAfterFirstLoad } from '@/hooks/use-after-first-load';
import { queryClient } from '@/lib/query-client';
import { AppProvider } from './provider';
import { AppRoutes } from './router';

// The update prompt registers the service worker; it mounts once the page has loaded.
const PwaUpdatePrompt = lazy(async () => ({
  default: (await import('@/lib/pwa-update-prompt')).PwaUpdatePrompt,
}));

export function App() {
  const afterLoad = useAfterFirstLoad();
  return (
    <AppProvider queryClient={queryClient}>
      <BrowserRouter>
        <AppRoutes />
      </BrowserRouter>
      {afterLoad ? (
        <Suspense fallback={null}>
          <PwaUpdatePrompt />
        </Suspense>
      ) : null}
    </AppProvider>
  );
}
