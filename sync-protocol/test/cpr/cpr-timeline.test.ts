// The CPR logger's clocks and prompts, driven by a fake clock (a time passed in), and the
// timeline and summary the log and the PDF show.
import { describe, expect, it } from 'vitest';
import {
  cprState,
  cprSummary,
  cprTimeline,
  earlyAdrenalineWarning,
  formatOffset,
  type CprEventLike,
} from '../../src/cpr/cpr-timeline';

const START = '2026-12-08T10:00:00.000Z';
const T = (seconds: number) => Date.parse(START) + seconds * 1000;
const PROTOCOL = { adrenalineIntervalMinutes: 4 };
let n = 0;
function ev(
  seconds: number,
  type: string,
  details: Record<string, unknown> = {},
  more: Partial<CprEventLike> = {},
): CprEventLike {
  n += 1;
  return {
    id: `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`,
    type,
    at: new Date(T(seconds)).toISOString(),
    details,
    voidsEventId: null,
    userId: 1,
    ...more,
  };
}
const ids = (state: ReturnType<typeof cprState>) => state.prompts.map((p) => p.id);

describe('CPR clocks', () => {
  it('runs the total and the cycle clock, restarting the cycle at each rhythm check', () => {
    const events = [ev(30, 'rhythm_check', { rhythm: 'VF' })];
    const s = cprState(START, events, T(95), PROTOCOL);
    expect(s.elapsedMs).toBe(95_000);
    expect(s.cycleElapsedMs).toBe(65_000);
    expect(s.rhythm).toBe('VF');
    expect(s.pathway).toBe('shockable');
    expect(formatOffset(s.elapsedMs)).toBe('01:35');
    expect(formatOffset(3_725_000)).toBe('1:02:05');
  });

  it('prompts a rhythm check and compressor swap at 2 minutes into each cycle, once per cycle', () => {
    const events = [ev(10, 'rhythm_check', { rhythm: 'asystole' })];
    expect(ids(cprState(START, events, T(129), PROTOCOL))).not.toContain('rhythm_check');
    const due = cprState(START, events, T(130), PROTOCOL).prompts.find(
      (p) => p.id === 'rhythm_check',
    );
    expect(due?.text).toBe('Rhythm check. Swap compressors.');
    const next = [...events, ev(135, 'rhythm_check', { rhythm: 'asystole' })];
    expect(ids(cprState(START, next, T(140), PROTOCOL))).not.toContain('rhythm_check');
    const again = cprState(START, next, T(255), PROTOCOL).prompts.find(
      (p) => p.id === 'rhythm_check',
    );
    expect(again?.key).not.toBe(due?.key);
  });

  it('asks for the first rhythm until one is logged', () => {
    expect(ids(cprState(START, [], T(5), PROTOCOL))).toEqual(['first_rhythm']);
    expect(
      ids(cprState(START, [ev(5, 'rhythm_check', { rhythm: 'PEA' })], T(6), PROTOCOL)),
    ).not.toContain('first_rhythm');
  });

  it('counts shocks and shows the time since the last adrenaline', () => {
    const events = [
      ev(20, 'rhythm_check', { rhythm: 'VF' }),
      ev(25, 'shock', { energyJoules: 150 }),
      ev(150, 'shock', { energyJoules: 200 }),
      ev(200, 'adrenaline', { doseMg: 1 }),
    ];
    const s = cprState(START, events, T(290), PROTOCOL);
    expect(s.shockCount).toBe(2);
    expect(s.sinceAdrenalineMs).toBe(90_000);
    // An event logged "in the future" of the clock (another device's skew) does not count yet.
    expect(cprState(START, events, T(100), PROTOCOL).shockCount).toBe(1);
  });
});

describe('adrenaline and amiodarone prompts', () => {
  it('non-shockable: adrenaline is due as soon as the rhythm is found', () => {
    const s = cprState(START, [ev(15, 'rhythm_check', { rhythm: 'PEA' })], T(16), PROTOCOL);
    expect(s.pathway).toBe('non-shockable');
    expect(ids(s)).toContain('adrenaline');
  });

  it('shockable: adrenaline is first due after the 3rd shock', () => {
    const events = [
      ev(15, 'rhythm_check', { rhythm: 'VF' }),
      ev(20, 'shock', { energyJoules: 150 }),
      ev(140, 'shock', { energyJoules: 150 }),
    ];
    expect(ids(cprState(START, events, T(200), PROTOCOL))).not.toContain('adrenaline');
    const third = [...events, ev(260, 'shock', { energyJoules: 150 })];
    expect(ids(cprState(START, third, T(261), PROTOCOL))).toContain('adrenaline');
  });

  it('prompts the next dose at the configured interval after the last', () => {
    const events = [ev(15, 'rhythm_check', { rhythm: 'asystole' }), ev(20, 'adrenaline')];
    expect(ids(cprState(START, events, T(20 + 239), PROTOCOL))).not.toContain('adrenaline');
    expect(ids(cprState(START, events, T(20 + 240), PROTOCOL))).toContain('adrenaline');
    const three = { adrenalineIntervalMinutes: 3 };
    expect(ids(cprState(START, events, T(20 + 180), three))).toContain('adrenaline');
  });

  it('warns when a dose is logged under 3 minutes after the last', () => {
    const events = [ev(20, 'adrenaline')];
    expect(earlyAdrenalineWarning(events, T(20 + 150))).toBe(
      'Adrenaline given 02:30 after the last dose (less than 3 minutes).',
    );
    expect(earlyAdrenalineWarning(events, T(20 + 180))).toBeNull();
    expect(earlyAdrenalineWarning([], T(20))).toBeNull();
  });

  it('prompts amiodarone 300 mg after the 3rd shock and 150 mg after the 5th', () => {
    const shocks = [1, 2, 3, 4, 5].map((i) => ev(i * 120, 'shock', { energyJoules: 200 }));
    const after3 = cprState(START, shocks.slice(0, 3), T(361), PROTOCOL);
    expect(after3.prompts.find((p) => p.id === 'amiodarone')?.text).toBe('Amiodarone due: 300 mg.');
    expect(after3.nextAmiodaroneMg).toBe(300);
    const given = [...shocks.slice(0, 3), ev(370, 'amiodarone', { doseMg: 300 })];
    expect(ids(cprState(START, given, T(380), PROTOCOL))).not.toContain('amiodarone');
    const after5 = cprState(START, [...given, ...shocks.slice(3)], T(601), PROTOCOL);
    expect(after5.prompts.find((p) => p.id === 'amiodarone')?.text).toBe('Amiodarone due: 150 mg.');
    const both = [...given, ...shocks.slice(3), ev(610, 'amiodarone', { doseMg: 150 })];
    const done = cprState(START, both, T(620), PROTOCOL);
    expect(ids(done)).not.toContain('amiodarone');
    expect(done.nextAmiodaroneMg).toBeNull();
  });

  it('a voided event counts nowhere; an ended session prompts nothing and stops its clock', () => {
    const shock = ev(30, 'shock', { energyJoules: 150 });
    const voiding = ev(40, 'void', { reason: 'Wrong button' }, { voidsEventId: shock.id });
    expect(cprState(START, [shock, voiding], T(50), PROTOCOL).shockCount).toBe(0);
    const ended = [ev(10, 'rhythm_check', { rhythm: 'PEA' }), ev(300, 'rosc')];
    const s = cprState(START, ended, T(900), PROTOCOL);
    expect(s.ended).toBe(true);
    expect(s.prompts).toEqual([]);
    expect(s.elapsedMs).toBe(300_000);
    expect(s.rhythm).toBe('ROSC');
  });
});

describe('timeline and summary', () => {
  it('merges two devices in time order and groups the same tap by two people within 5 s', () => {
    const a = ev(60, 'adrenaline', { doseMg: 1, by: 'Lead' }, { userId: 1 });
    const b = ev(63, 'adrenaline', { by: 'Scribe', doseMg: 1 }, { userId: 2 });
    const c = ev(61, 'shock', { energyJoules: 200 }, { userId: 2 });
    const late = ev(70, 'adrenaline', { doseMg: 1 }, { userId: 2 });
    const line = cprTimeline(START, [late, b, c, a]);
    expect(line.map((x) => [x.text, x.duplicateOf])).toEqual([
      ['Adrenaline 1 mg', null],
      ['Shock 200 J', null],
      ['Adrenaline 1 mg', a.id],
      ['Adrenaline 1 mg', null],
    ]);
    expect(formatOffset(line[1]?.offsetMs ?? 0)).toBe('01:01');
    expect(cprState(START, [a, b, c, late], T(80), PROTOCOL).adrenalineCount).toBe(2);
  });

  it('sums up shocks, doses, first rhythm, times to first shock and adrenaline, outcome', () => {
    const shock = ev(45, 'shock', { energyJoules: 150 });
    const events = [
      ev(30, 'rhythm_check', { rhythm: 'VF' }),
      shock,
      ev(50, 'void', { reason: 'Tapped twice' }, { voidsEventId: shock.id }),
      ev(52, 'shock', { energyJoules: 150 }),
      ev(170, 'shock', { energyJoules: 200 }),
      ev(300, 'adrenaline', { doseMg: 1 }),
      ev(310, 'amiodarone', { doseMg: 300 }),
      ev(600, 'rosc'),
    ];
    expect(cprSummary(START, events)).toEqual({
      durationMs: 600_000,
      shocks: 2,
      adrenalineDoses: 1,
      amiodaroneDoses: 1,
      amiodaroneMg: 300,
      firstRhythm: 'VF',
      timeToFirstShockMs: 52_000,
      timeToFirstAdrenalineMs: 300_000,
      timeToRoscMs: 600_000,
      outcome: 'rosc',
      voidedEvents: 1,
    });
  });
});
