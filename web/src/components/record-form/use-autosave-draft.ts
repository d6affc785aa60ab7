import { useCallback, useEffect, useLayoutEffect, useRef, useState } from 'react';

/** Typed text saves after this pause (and at once on blur, hide and unmount). */
const TEXT_SAVE_DELAY_MS = 600;

/**
 * Local draft text that saves after a pause, on blur and when the control unmounts (leaving
 * the step). While the user is not editing, the draft follows the stored value (another
 * tab, a pull, an addendum).
 */
export function useAutosaveDraft(
  stored: string,
  commit: (text: string) => Promise<string | undefined>,
) {
  const [draft, setDraft] = useState(stored);
  const [error, setError] = useState<string | undefined>();
  const dirty = useRef(false);
  const timer = useRef<ReturnType<typeof setTimeout> | null>(null);
  const latest = useRef({ draft, stored, commit });
  useLayoutEffect(() => {
    latest.current = { draft, stored, commit };
  });

  useEffect(() => {
    if (!dirty.current) setDraft(stored);
  }, [stored]);

  const flush = useCallback(async () => {
    if (timer.current) clearTimeout(timer.current);
    timer.current = null;
    if (!dirty.current) return;
    dirty.current = false;
    const { draft: text, stored: saved, commit: save } = latest.current;
    if (text === saved) return;
    setError(await save(text));
  }, []);

  // Leaving the step (unmount) saves what was typed; so does the page being hidden (phone
  // locked, another app opened, tab closed) inside the pause before the timed save.
  useEffect(() => {
    const onHide = () => {
      if (document.visibilityState === 'hidden') void flush();
    };
    const onPageHide = () => void flush();
    document.addEventListener('visibilitychange', onHide);
    window.addEventListener('pagehide', onPageHide);
    return () => {
      document.removeEventListener('visibilitychange', onHide);
      window.removeEventListener('pagehide', onPageHide);
      void flush();
    };
  }, [flush]);

  const change = (text: string) => {
    dirty.current = true;
    latest.current = { ...latest.current, draft: text };
    setDraft(text);
    if (timer.current) clearTimeout(timer.current);
    timer.current = setTimeout(() => void flush(), TEXT_SAVE_DELAY_MS);
  };
  return { draft, change, flush, error };
}
