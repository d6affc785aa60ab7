import { useState } from 'react';

/**
 * What a tapped control shows until the device's copy catches up: a save is a moment
 * (IndexedDB transaction, then the live query), and without this a tapped choice would
 * look untapped meanwhile, and a second quick tap would build on the stale value.
 * `same` compares stored values (lists arrive as new arrays on every read).
 *
 * `expect(value)` returns the function to call once that save has settled. While a save of
 * this control is still on its way, the stored value moving is an earlier tap landing (or
 * another tab, which the later save overwrites), not the last tap: the last tap stays shown.
 * Otherwise three quick taps on a list (tap, tap, first lands, tap) would show the second
 * untapped for a moment and build the third on it, dropping the second.
 */
export function useShownValue<T>(stored: T, same: (a: T, b: T) => boolean = Object.is) {
  const [pending, setPending] = useState<{ value: T } | null>(null);
  const [inFlight, setInFlight] = useState(0);
  const [seen, setSeen] = useState(stored);
  if (!same(seen, stored)) {
    // The stored value moved (the last save landed, or another tab/a pull): it wins.
    setSeen(stored);
    if (inFlight === 0) setPending(null);
  } else if (pending !== null && inFlight === 0 && same(pending.value, stored)) {
    // The last save settled after its value had arrived.
    setPending(null);
  }
  return {
    shown: pending ? pending.value : stored,
    expect: (value: T): (() => void) => {
      setPending({ value });
      setInFlight((n) => n + 1);
      let settled = false;
      return () => {
        if (settled) return;
        settled = true;
        setInFlight((n) => n - 1);
      };
    },
    /** The save was refused (validation): show the stored value again. */
    settle: () => setPending(null),
  };
}
