// The protocol reader's step navigation (issue 42), apart from speech and React so a test can
// walk it: which step is current, and which steps a command has spoken. "Read all" speaks
// every step from the first; the screen moves the highlight as each one starts (`reached`).
export interface ReaderState {
  /** The current step, 0-based; the highlighted one. */
  index: number;
  total: number;
  readingAll: boolean;
}

export type ReaderCommand =
  | { type: 'next' }
  | { type: 'previous' }
  | { type: 'repeat' }
  | { type: 'goto'; index: number }
  | { type: 'readAll' }
  | { type: 'reached'; index: number }
  | { type: 'stop' }
  | { type: 'reset'; total: number };

export interface ReaderResult {
  state: ReaderState;
  /** The steps to speak now, in order; empty when nothing is to be said. */
  say: readonly number[];
}

export function startReader(total: number): ReaderState {
  return { index: 0, total, readingAll: false };
}

const clamp = (i: number, total: number) => Math.min(Math.max(i, 0), Math.max(total - 1, 0));

export function runReader(state: ReaderState, command: ReaderCommand): ReaderResult {
  const at = (index: number, say: readonly number[]): ReaderResult => ({
    state: { ...state, index, readingAll: false },
    say,
  });
  switch (command.type) {
    case 'next':
      return state.index + 1 < state.total
        ? at(state.index + 1, [state.index + 1])
        : at(state.index, []);
    case 'previous':
      return state.index > 0 ? at(state.index - 1, [state.index - 1]) : at(0, [0]);
    case 'repeat':
      return at(state.index, [state.index]);
    case 'goto': {
      const index = clamp(command.index, state.total);
      return at(index, [index]);
    }
    case 'readAll':
      return {
        state: { ...state, index: 0, readingAll: true },
        say: Array.from({ length: state.total }, (_, i) => i),
      };
    case 'reached':
      return { state: { ...state, index: clamp(command.index, state.total) }, say: [] };
    case 'stop':
      return { state: { ...state, readingAll: false }, say: [] };
    case 'reset':
      return { state: startReader(command.total), say: [] };
  }
}

export const canGoBack = (s: ReaderState) => s.index > 0;
export const canGoOn = (s: ReaderState) => s.index + 1 < s.total;

/** What is said for a step: its number, then its text as written. */
export function stepUtterance(index: number, text: string): string {
  return `Step ${index + 1}. ${text}`;
}
