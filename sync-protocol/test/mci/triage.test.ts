// START and JumpSTART decision tables (every branch of docs/domain.md), the triage state of
// a casualty from its rows, the board counts, tag suggestions and the METHANE text.
import { describe, expect, it } from 'vitest';
import {
  incidentCounts,
  jumpStartStep,
  methaneText,
  SCALE_COLOURS,
  startStep,
  suggestTag,
  triageState,
  type TriageAnswers,
  type TriageRow,
} from '../../src/mci/triage';

function outcome(step: ReturnType<typeof startStep>): string {
  return step.kind === 'result' ? step.colour : `? ${step.question.id}`;
}

describe('START (adults)', () => {
  const table: [TriageAnswers, string][] = [
    [{}, '? walking'],
    [{ walking: 'yes' }, 'GREEN'],
    [{ walking: 'no' }, '? breathing'],
    [{ walking: 'no', breathing: 'no' }, '? breathingAfterAirway'],
    [{ walking: 'no', breathing: 'no', breathingAfterAirway: 'no' }, 'BLACK'],
    [{ walking: 'no', breathing: 'no', breathingAfterAirway: 'yes' }, 'RED'],
    [{ walking: 'no', breathing: 'yes' }, '? rrOver30'],
    [{ walking: 'no', breathing: 'yes', rrOver30: 'yes' }, 'RED'],
    [{ walking: 'no', breathing: 'yes', rrOver30: 'no' }, '? perfusionPoor'],
    [{ walking: 'no', breathing: 'yes', rrOver30: 'no', perfusionPoor: 'yes' }, 'RED'],
    [{ walking: 'no', breathing: 'yes', rrOver30: 'no', perfusionPoor: 'no' }, '? followsCommands'],
    [
      {
        walking: 'no',
        breathing: 'yes',
        rrOver30: 'no',
        perfusionPoor: 'no',
        followsCommands: 'no',
      },
      'RED',
    ],
    [
      {
        walking: 'no',
        breathing: 'yes',
        rrOver30: 'no',
        perfusionPoor: 'no',
        followsCommands: 'yes',
      },
      'YELLOW',
    ],
  ];
  it.each(table)('%j → %s', (answers, expected) => {
    expect(outcome(startStep(answers))).toBe(expected);
  });

  it('gives the reason with the colour', () => {
    const step = startStep({ walking: 'no', breathing: 'yes', rrOver30: 'yes' });
    expect(step).toEqual({ kind: 'result', colour: 'RED', reason: 'Respiratory rate over 30' });
  });
});

describe('JumpSTART (children)', () => {
  const apnoeic = { walking: 'no', breathing: 'no' };
  const breathing = { walking: 'no', breathing: 'yes' };
  const table: [TriageAnswers, string][] = [
    [{}, '? walking'],
    [{ walking: 'yes' }, 'GREEN'],
    [{ walking: 'no' }, '? breathing'],
    [apnoeic, '? breathingAfterAirway'],
    [{ ...apnoeic, breathingAfterAirway: 'yes' }, 'RED'],
    [{ ...apnoeic, breathingAfterAirway: 'no' }, '? pulse'],
    [{ ...apnoeic, breathingAfterAirway: 'no', pulse: 'no' }, 'BLACK'],
    [{ ...apnoeic, breathingAfterAirway: 'no', pulse: 'yes' }, '? breathingAfterRescueBreaths'],
    [
      { ...apnoeic, breathingAfterAirway: 'no', pulse: 'yes', breathingAfterRescueBreaths: 'yes' },
      'RED',
    ],
    [
      { ...apnoeic, breathingAfterAirway: 'no', pulse: 'yes', breathingAfterRescueBreaths: 'no' },
      'BLACK',
    ],
    [breathing, '? rrBand'],
    [{ ...breathing, rrBand: 'under15' }, 'RED'],
    [{ ...breathing, rrBand: 'over45' }, 'RED'],
    [{ ...breathing, rrBand: '15to45' }, '? peripheralPulse'],
    [{ ...breathing, rrBand: '15to45', peripheralPulse: 'no' }, 'RED'],
    [{ ...breathing, rrBand: '15to45', peripheralPulse: 'yes' }, '? avpu'],
    [{ ...breathing, rrBand: '15to45', peripheralPulse: 'yes', avpu: 'A' }, 'YELLOW'],
    [{ ...breathing, rrBand: '15to45', peripheralPulse: 'yes', avpu: 'V' }, 'YELLOW'],
    [{ ...breathing, rrBand: '15to45', peripheralPulse: 'yes', avpu: 'P-appropriate' }, 'YELLOW'],
    [{ ...breathing, rrBand: '15to45', peripheralPulse: 'yes', avpu: 'P-inappropriate' }, 'RED'],
    [{ ...breathing, rrBand: '15to45', peripheralPulse: 'yes', avpu: 'U' }, 'RED'],
  ];
  it.each(table)('%j → %s', (answers, expected) => {
    expect(outcome(jumpStartStep(answers))).toBe(expected);
  });
});

describe('the colours offered', () => {
  it('START offers SALT grey beside the four START colours; SATS its own five', () => {
    expect(SCALE_COLOURS.START).toEqual(['RED', 'YELLOW', 'GREEN', 'GREY', 'BLACK']);
    expect(SCALE_COLOURS.SATS).toEqual(['RED', 'ORANGE', 'YELLOW', 'GREEN', 'BLUE']);
  });
  it('no START or JumpSTART answer proposes grey (expectant is the responder’s call)', () => {
    const seen = new Set<string>();
    const walk = (step: (a: TriageAnswers) => ReturnType<typeof startStep>, a: TriageAnswers) => {
      const s = step(a);
      if (s.kind === 'result') seen.add(s.colour);
      else for (const o of s.question.options) walk(step, { ...a, [s.question.id]: o.value });
    };
    walk(startStep, {});
    walk(jumpStartStep, {});
    expect([...seen].sort()).toEqual(['BLACK', 'GREEN', 'RED', 'YELLOW']);
  });
});

function row(id: string, colour: TriageRow['colour'], at: string, prev: string[] = []): TriageRow {
  return { id, mciCasualtyId: 'c', colour, triagedAt: at, previousTriageIds: prev };
}

describe('a casualty’s triage from its rows', () => {
  it('is the tag colour until a triage row arrives', () => {
    expect(triageState('YELLOW', [])).toMatchObject({ colour: 'YELLOW', conflict: false });
  });
  it('is the newest re-triage, with every earlier one kept in the history', () => {
    const s = triageState('YELLOW', [
      row('a', 'YELLOW', '2026-12-08T10:00:00Z'),
      row('b', 'RED', '2026-12-08T10:05:00Z', ['a']),
    ]);
    expect(s.colour).toBe('RED');
    expect(s.conflict).toBe(false);
    expect(s.history.map((r) => r.id)).toEqual(['a', 'b']);
  });
  it('shows two responders re-triaging the same row differently as a conflict, newest first', () => {
    const rows = [
      row('a', 'YELLOW', '2026-12-08T10:00:00Z'),
      row('b', 'RED', '2026-12-08T10:05:00Z', ['a']),
      row('c', 'GREEN', '2026-12-08T10:04:00Z', ['a']),
    ];
    const s = triageState('YELLOW', rows);
    expect(s.conflict).toBe(true);
    expect(s.colour).toBe('RED');
    expect(s.heads.map((h) => h.id)).toEqual(['b', 'c']);
    // A re-triage that saw both settles it.
    const settled = triageState('YELLOW', [
      ...rows,
      row('d', 'GREEN', '2026-12-08T10:06:00Z', ['b', 'c']),
    ]);
    expect(settled).toMatchObject({ colour: 'GREEN', conflict: false });
  });
  it('does not call it a conflict when both responders chose the same colour', () => {
    const s = triageState('YELLOW', [
      row('a', 'YELLOW', '2026-12-08T10:00:00Z'),
      row('b', 'RED', '2026-12-08T10:05:00Z', ['a']),
      row('c', 'RED', '2026-12-08T10:04:00Z', ['a']),
    ]);
    expect(s.conflict).toBe(false);
  });
});

describe('board counts', () => {
  it('are derived from the rows: by colour, on scene, transported, unassigned, conflicts', () => {
    const counts = incidentCounts([
      { colour: 'RED', transported: false, assignedTo: null, conflict: true },
      { colour: 'RED', transported: true, assignedTo: null },
      { colour: 'YELLOW', transported: false, assignedTo: 'Sipho' },
      { colour: 'GREEN', transported: false, assignedTo: '  ' },
      { colour: 'BLACK', transported: false, assignedTo: null },
    ]);
    expect(counts).toMatchObject({
      total: 5,
      onScene: 4,
      transported: 1,
      unassigned: 3,
      conflicts: 1,
    });
    expect(counts.byColour).toMatchObject({ RED: 2, YELLOW: 1, GREEN: 1, BLACK: 1, GREY: 0 });
  });
});

describe('tag suggestions', () => {
  it('continue this device’s own series and ignore other devices’ tags', () => {
    expect(suggestTag([], 'KM')).toBe('KM-1');
    expect(suggestTag(['km-2', 'KM-7', 'QX-9', 'printed 12'], 'KM')).toBe('KM-8');
  });
});

describe('METHANE text', () => {
  it('reads every letter, with the counts from the rows beside the estimate', () => {
    const counts = incidentCounts([
      { colour: 'RED', transported: false, assignedTo: null },
      { colour: 'GREEN', transported: false, assignedTo: null },
    ]);
    const text = methaneText(
      {
        majorIncident: true,
        location: 'N2 at Borcherds Quarry off-ramp',
        latitude: -33.96,
        longitude: 18.58,
        incidentType: 'Bus crash',
        hazards: 'Diesel spill',
        access: 'From the N2 westbound',
        casualtyEstimate: 20,
        emergencyServices: null,
      },
      counts,
    );
    expect(text.split('\n')).toEqual([
      'METHANE',
      'M, major incident: declared',
      'E, exact location: N2 at Borcherds Quarry off-ramp (-33.96000, 18.58000)',
      'T, type of incident: Bus crash',
      'H, hazards: Diesel spill',
      'A, access: From the N2 westbound',
      'N, number of casualties: 2 triaged: 1 red, 1 green; about 20 estimated',
      'E, emergency services: not known',
    ]);
  });
});
