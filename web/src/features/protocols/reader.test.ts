import { describe, expect, it } from 'vitest';
import {
  canGoBack,
  canGoOn,
  runReader,
  startReader,
  stepUtterance,
  type ReaderCommand,
} from './reader';

function walk(total: number, commands: ReaderCommand[]) {
  let state = startReader(total);
  const said: number[][] = [];
  for (const c of commands) {
    const r = runReader(state, c);
    state = r.state;
    said.push([...r.say]);
  }
  return { state, said };
}

describe('protocol reader navigation', () => {
  it('starts on the first step, with no way back', () => {
    const s = startReader(4);
    expect(s.index).toBe(0);
    expect(canGoBack(s)).toBe(false);
    expect(canGoOn(s)).toBe(true);
  });

  it('Next moves on and speaks the new step; Repeat speaks the same one again', () => {
    const { state, said } = walk(4, [{ type: 'next' }, { type: 'next' }, { type: 'repeat' }]);
    expect(state.index).toBe(2);
    expect(said).toEqual([[1], [2], [2]]);
  });

  it('Previous goes back one step; at the first step it repeats it', () => {
    const { state, said } = walk(4, [{ type: 'next' }, { type: 'previous' }, { type: 'previous' }]);
    expect(state.index).toBe(0);
    expect(said).toEqual([[1], [0], [0]]);
  });

  it('Next on the last step stays there and says nothing', () => {
    const { state, said } = walk(2, [{ type: 'next' }, { type: 'next' }]);
    expect(state.index).toBe(1);
    expect(canGoOn(state)).toBe(false);
    expect(said).toEqual([[1], []]);
  });

  it('Read all speaks every step from the first and follows the voice', () => {
    const { state, said } = walk(3, [
      { type: 'next' },
      { type: 'readAll' },
      { type: 'reached', index: 1 },
    ]);
    expect(said[1]).toEqual([0, 1, 2]);
    expect(state).toEqual({ index: 1, total: 3, readingAll: true });
    const stopped = runReader(state, { type: 'stop' });
    expect(stopped.state).toEqual({ index: 1, total: 3, readingAll: false });
    expect(stopped.say).toEqual([]);
  });

  it('a step command during Read all ends it', () => {
    const { state } = walk(3, [{ type: 'readAll' }, { type: 'next' }]);
    expect(state.readingAll).toBe(false);
    expect(state.index).toBe(1);
  });

  it('Go to keeps inside the steps; reset starts over for another age group', () => {
    expect(walk(3, [{ type: 'goto', index: 9 }]).state.index).toBe(2);
    expect(walk(3, [{ type: 'goto', index: -2 }]).state.index).toBe(0);
    expect(walk(3, [{ type: 'next' }, { type: 'reset', total: 7 }]).state).toEqual(startReader(7));
  });

  it('says the step number before its text', () => {
    expect(stepUtterance(2, 'Press firmly.')).toBe('Step 3. Press firmly.');
  });
});
