import { useEffect, useState } from 'react';

/**
 * True once the page has loaded and the browser is idle. Work that is not needed to paint
 * (registering the service worker, which then downloads the whole app shell) waits for it,
 * so the first screen on a slow phone is not competing with it.
 */
export function useAfterFirstLoad(timeoutMs = 4000): boolean {
  const [ready, setReady] = useState(false);
  useEffect(() => {
    let cancelled = false;
    let idleHandle: number | undefined;
    const done = () => {
      if (!cancelled) setReady(true);
    };
    const whenIdle = () => {
      if (typeof window.requestIdleCallback === 'function')
        idleHandle = window.requestIdleCallback(done, { timeout: timeoutMs });
      else idleHandle = window.setTimeout(done, 1);
    };
    if (document.readyState === 'complete') whenIdle();
    else window.addEventListener('load', whenIdle, { once: true });
    return () => {
      cancelled = true;
      window.removeEventListener('load', whenIdle);
      if (idleHandle !== undefined) {
        if (typeof window.cancelIdleCallback === 'function') window.cancelIdleCallback(idleHandle);
        window.clearTimeout(idleHandle);
      }
    };
  }, [timeoutMs]);
  return ready;
}
