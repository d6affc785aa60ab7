// One-shot device position for the incident location. Satellite positioning needs no
// network, so this works offline; without assistance data a first fix can take a while, so
// the timeout is generous and the user can cancel and type the coordinates instead.
import { useCallback, useEffect, useRef, useState } from 'react';

/** How long to wait for a position (a cold GPS start outdoors without signal can take ~1 min). */
export const LOCATE_TIMEOUT_MS = 60_000;
/** A position this recent (e.g. from the map app a moment ago) is good enough on scene. */
const MAX_AGE_MS = 10_000;
/** Above this, the position may be the wrong street: say so. */
export const LOW_ACCURACY_METRES = 100;

export type LocateFailure = 'unsupported' | 'denied' | 'unavailable' | 'timeout';

export type LocateState =
  | { status: 'idle' }
  | { status: 'locating' }
  | { status: 'found'; latitude: number; longitude: number; accuracy: number }
  | { status: 'failed'; reason: LocateFailure };

export const LOCATE_FAILURE_MESSAGES: Record<LocateFailure, string> = {
  unsupported: "This browser cannot give the device's position. Type the coordinates below.",
  denied:
    'Location permission is off for this app. Allow location for it in the browser or phone settings and try again, or type the coordinates below.',
  unavailable:
    'The device could not work out its position (no GPS signal). Move into the open and try again, or type the coordinates below.',
  timeout: `No position within ${String(LOCATE_TIMEOUT_MS / 1000)} seconds. Move into the open and try again, or type the coordinates below.`,
};

function failureOf(error: GeolocationPositionError): LocateFailure {
  // Codes, not the instance constants: some browsers (and test fakes) leave those off.
  if (error.code === 1) return 'denied';
  if (error.code === 3) return 'timeout';
  return 'unavailable';
}

/**
 * `locate()` asks for one high-accuracy position and calls `onFound` with it (unless
 * cancelled or the screen closed meanwhile). `cancel()` stops waiting.
 */
export function useGeolocation(
  onFound: (position: { latitude: number; longitude: number; accuracy: number }) => void,
) {
  const [state, setState] = useState<LocateState>({ status: 'idle' });
  // Each request has a number; a late answer to a cancelled or replaced one is ignored.
  const request = useRef(0);
  const found = useRef(onFound);
  useEffect(() => {
    found.current = onFound;
  });
  useEffect(() => {
    const mounted = request;
    return () => {
      mounted.current += 1;
    };
  }, []);

  const locate = useCallback(() => {
    const geolocation = typeof navigator === 'undefined' ? undefined : navigator.geolocation;
    if (!geolocation) {
      setState({ status: 'failed', reason: 'unsupported' });
      return;
    }
    const id = ++request.current;
    setState({ status: 'locating' });
    geolocation.getCurrentPosition(
      (position) => {
        if (request.current !== id) return;
        const { latitude, longitude, accuracy } = position.coords;
        setState({ status: 'found', latitude, longitude, accuracy });
        found.current({ latitude, longitude, accuracy });
      },
      (error) => {
        if (request.current !== id) return;
        setState({ status: 'failed', reason: failureOf(error) });
      },
      { enableHighAccuracy: true, timeout: LOCATE_TIMEOUT_MS, maximumAge: MAX_AGE_MS },
    );
  }, []);

  const cancel = useCallback(() => {
    request.current += 1;
    setState({ status: 'idle' });
  }, []);

  return { state, locate, cancel };
}
