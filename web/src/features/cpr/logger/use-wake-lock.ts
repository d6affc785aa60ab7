// Keeps the screen awake while the arrest screen is open (Screen Wake Lock API). The browser
// releases the lock when the page is hidden, so it is asked for again each time the page is
// visible. Where the API is missing (or refuses), the screen says the display may sleep.
import { useEffect, useState } from 'react';

export type WakeLockState = 'unsupported' | 'requesting' | 'held' | 'refused';

export function useWakeLock(active: boolean): WakeLockState {
  const supported = typeof navigator !== 'undefined' && 'wakeLock' in navigator;
  const [state, setState] = useState<WakeLockState>(supported ? 'requesting' : 'unsupported');

  useEffect(() => {
    if (!supported || !active) return;
    let sentinel: WakeLockSentinel | null = null;
    let stopped = false;
    const acquire = async () => {
      if (document.visibilityState !== 'visible' || (sentinel && !sentinel.released)) return;
      try {
        const lock = await navigator.wakeLock.request('screen');
        if (stopped) {
          void lock.release();
          return;
        }
        sentinel = lock;
        setState('held');
      } catch {
        if (!stopped) setState('refused');
      }
    };
    const onVisibility = () => {
      void acquire();
    };
    void acquire();
    document.addEventListener('visibilitychange', onVisibility);
    return () => {
      stopped = true;
      document.removeEventListener('visibilitychange', onVisibility);
      void sentinel?.release();
    };
  }, [supported, active]);
  return state;
}
