// One lock over the end of a user's session on this device (decision 023, addendum 3). The
// end (session-end.ts: clear, hold, wipe, resume) takes it exclusive; the service worker's
// drain (worker-drain.ts) takes it shared from its read of the active user until it has
// closed that user's database. So an end never deletes a database between the worker's read
// and its open (which would create the database again, empty), never runs while the worker
// drains it, and two ends (a logout and a 401, two tabs) run one after the other.
//
// Ordering, so nothing can deadlock: this lock is always taken first; the drain lock
// (drain-lock.ts) is only ever taken inside it and only with `ifAvailable`, so no holder of
// this lock waits for the drain lock, and no holder of the drain lock ever asks for this one
// (the page's engine opens its own user's database and never takes it). Nobody asks for this
// lock while holding it (a shared request queued behind a waiting exclusive one would wait
// for ever). An end waits at most for the worker's current request: the server has already
// ended the session, so the worker's next push answers 401 and its drain stops.
//
// The Web Locks API (pages and workers of every current browser) spans tabs and the worker.
// Without it (old browsers, jsdom and Node tests) the same request goes to an in-process lock
// with the same rules: correct within one context, nothing across contexts.
import { webLocksFromGlobal, type LockManagerLike } from './drain-lock';

export const SESSION_END_LOCK_NAME = 'rescuelog-session-end';

type LockMode = 'shared' | 'exclusive';

interface LockState {
  mode: LockMode | null;
  holders: number;
  queue: { mode: LockMode; grant: () => void }[];
}

/**
 * navigator.locks' rules for one context: requests are granted in order; shared ones together
 * while no exclusive one holds the lock or waits before them; `ifAvailable` gets null at once
 * when the request could not be granted now.
 */
export function createInProcessLocks(): LockManagerLike {
  const states = new Map<string, LockState>();

  function grantable(state: LockState, mode: LockMode): boolean {
    return state.holders === 0 || (state.mode === 'shared' && mode === 'shared');
  }

  function pump(name: string, state: LockState): void {
    for (let next = state.queue[0]; next && grantable(state, next.mode); next = state.queue[0]) {
      state.queue.shift();
      state.mode = next.mode;
      state.holders += 1;
      next.grant();
    }
    if (state.holders === 0 && state.queue.length === 0) states.delete(name);
  }

  return {
    async request<T>(
      name: string,
      options: { ifAvailable?: boolean; mode?: LockMode },
      callback: (lock: unknown) => Promise<T> | T,
    ): Promise<T> {
      const mode = options.mode ?? 'exclusive';
      const state = states.get(name) ?? { mode: null, holders: 0, queue: [] };
      if (options.ifAvailable && (state.queue.length > 0 || !grantable(state, mode)))
        return callback(null);
      states.set(name, state);
      await new Promise<void>((grant) => {
        state.queue.push({ mode, grant });
        pump(name, state);
      });
      try {
        return await callback({ name, mode });
      } finally {
        state.holders -= 1;
        if (state.holders === 0) state.mode = null;
        pump(name, state);
      }
    },
  };
}

const inProcessLocks = createInProcessLocks();

/** Runs fn while holding the session-end lock in `mode` (waiting for it; see the header). */
export function withSessionEndLock<T>(
  mode: LockMode,
  fn: () => Promise<T>,
  locks: LockManagerLike | undefined = webLocksFromGlobal(),
): Promise<T> {
  return (locks ?? inProcessLocks).request(SESSION_END_LOCK_NAME, { mode }, () => fn());
}
