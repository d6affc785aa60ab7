// The shared case search semantics (the server's SQL is checked against these in
// api/test/case-search.test.ts): case-number folding, days in the service time zone, order.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  caseSearchDateBounds,
  compareCasesNewestFirst,
  foldCaseNumber,
  hasCaseSearchFilters,
  matchesCaseSearch,
  sortCasesNewestFirst,
  type SearchableCase,
} from '../../src/cases/search';
import { DEFAULT_SERVICE_TIME_ZONE, zonedDayStartMs } from '../../src/time';
import { caseSearchQuerySchema } from '../../src/cases/api';
import { checkCalendarDay } from '../../src/time';

const ctx = { userId: 7, timeZone: DEFAULT_SERVICE_TIME_ZONE };
const iso = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString());

describe('case number folding', () => {
  it('ignores case, dashes and spaces, and reads O, I and L as 0, 1 and 1', () => {
    expect(foldCaseNumber('c-2611-7q4m-xk3p')).toBe('C26117Q4MXK3P');
    expect(foldCaseNumber('C 26I1 OL')).toBe('C261101');
    expect(foldCaseNumber('')).toBe('');
  });

  it('matches from the start only', () => {
    const c: SearchableCase = { caseId: 'C-2611-7Q4M-XK3P' };
    expect(matchesCaseSearch(c, { caseId: 'c2611-7q' }, ctx)).toBe(true);
    expect(matchesCaseSearch(c, { caseId: 'C-26II' }, ctx)).toBe(true);
    expect(matchesCaseSearch(c, { caseId: '7Q4M' }, ctx)).toBe(false);
    expect(matchesCaseSearch({ caseId: null }, { caseId: 'C' }, ctx)).toBe(false);
  });
});

describe('days in the service time zone', () => {
  it('starts a Johannesburg day at 22:00 UTC the day before', () => {
    expect(iso(zonedDayStartMs('2026-11-21', DEFAULT_SERVICE_TIME_ZONE))).toBe(
      '2026-11-20T22:00:00.000Z',
    );
    expect(
      caseSearchDateBounds({ from: '2026-11-21', to: '2026-11-21' }, DEFAULT_SERVICE_TIME_ZONE),
    ).toEqual({
      fromMs: Date.parse('2026-11-20T22:00:00.000Z'),
      toMs: Date.parse('2026-11-21T22:00:00.000Z'),
    });
  });

  it('handles daylight saving where a zone has it (a day that starts at 01:00, a doubled hour)', () => {
    // São Paulo moved clocks from 00:00 to 01:00 on 4 November 2018: the day began at 01:00 -02.
    expect(iso(zonedDayStartMs('2018-11-04', 'America/Sao_Paulo'))).toBe(
      '2018-11-04T03:00:00.000Z',
    );
    // London: 29 March 2026 starts at 00:00 GMT, 25 October 2026 at 00:00 BST.
    expect(iso(zonedDayStartMs('2026-03-29', 'Europe/London'))).toBe('2026-03-29T00:00:00.000Z');
    expect(iso(zonedDayStartMs('2026-10-25', 'Europe/London'))).toBe('2026-10-24T23:00:00.000Z');
    expect(iso(zonedDayStartMs('2026-11-21', 'UTC'))).toBe('2026-11-21T00:00:00.000Z');
  });

  it('agrees with the zone’s own calendar for any instant (property)', () => {
    const dayOf = new Intl.DateTimeFormat('en-CA', {
      timeZone: DEFAULT_SERVICE_TIME_ZONE,
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
    });
    fc.assert(
      fc.property(fc.integer({ min: Date.UTC(1990, 0, 1), max: Date.UTC(2090, 0, 1) }), (ms) => {
        const day = dayOf.format(new Date(ms));
        const { fromMs, toMs } = caseSearchDateBounds(
          { from: day, to: day },
          DEFAULT_SERVICE_TIME_ZONE,
        );
        expect(fromMs).not.toBeNull();
        expect(ms).toBeGreaterThanOrEqual(fromMs ?? Number.NaN);
        expect(ms).toBeLessThan(toMs ?? Number.NaN);
      }),
    );
  });

  it('includes both ends and leaves the last representable day open-ended', () => {
    const c = (createdAt: string): SearchableCase => ({ createdAt });
    const q = { from: '2026-11-21', to: '2026-11-22' };
    expect(matchesCaseSearch(c('2026-11-20T21:59:59.999Z'), q, ctx)).toBe(false);
    expect(matchesCaseSearch(c('2026-11-20T22:00:00.000Z'), q, ctx)).toBe(true);
    expect(matchesCaseSearch(c('2026-11-22T21:59:59.999Z'), q, ctx)).toBe(true);
    expect(matchesCaseSearch(c('2026-11-22T22:00:00.000Z'), q, ctx)).toBe(false);
    expect(matchesCaseSearch({ createdAt: null }, q, ctx)).toBe(false);
    expect(caseSearchDateBounds({ to: '9999-12-31' }, DEFAULT_SERVICE_TIME_ZONE).toMs).toBeNull();
  });

  it('accepts only real calendar days in the query', () => {
    expect(checkCalendarDay('2028-02-29').ok).toBe(true);
    for (const bad of [
      '2026-02-29',
      '2026-13-01',
      '2026-00-10',
      '0000-01-01',
      '2026-1-01',
      '21-11-2026',
    ])
      expect(checkCalendarDay(bad).ok, bad).toBe(false);
    expect(caseSearchQuerySchema.safeParse({ from: '2026-02-30' }).success).toBe(false);
    expect(caseSearchQuerySchema.parse({ from: '', to: '2026-11-21' })).toMatchObject({
      from: undefined,
      to: '2026-11-21',
    });
  });
});

describe('the other filters', () => {
  const c: SearchableCase = {
    caseId: 'C-2611-7Q4M-XK3P',
    patientName: 'Émile van der Merwe',
    incidentType: 'Road traffic collision',
    responderName: 'Sipho Dlamini',
    responderCallSign: 'ALPHA-2',
    status: 'completed',
    createdAt: '2026-11-21T08:00:00.000Z',
    userId: 7,
  };

  it('patient name and responder contain the text, ignoring case; incident type is exact', () => {
    expect(matchesCaseSearch(c, { patientName: 'émile VAN' }, ctx)).toBe(true);
    expect(matchesCaseSearch(c, { patientName: 'Merwe ' }, ctx)).toBe(false);
    expect(matchesCaseSearch(c, { responder: 'dlamini' }, ctx)).toBe(true);
    expect(matchesCaseSearch(c, { responder: 'alpha-2' }, ctx)).toBe(true);
    expect(matchesCaseSearch(c, { responder: 'bravo' }, ctx)).toBe(false);
    expect(matchesCaseSearch(c, { incidentType: 'road traffic COLLISION' }, ctx)).toBe(true);
    expect(matchesCaseSearch(c, { incidentType: 'Road traffic' }, ctx)).toBe(false);
    expect(matchesCaseSearch({ ...c, patientName: null }, { patientName: 'a' }, ctx)).toBe(false);
  });

  it('status, mine, and every filter at once', () => {
    expect(matchesCaseSearch(c, { status: 'completed' }, ctx)).toBe(true);
    expect(matchesCaseSearch(c, { status: 'in_progress' }, ctx)).toBe(false);
    expect(matchesCaseSearch(c, { mine: true }, ctx)).toBe(true);
    expect(matchesCaseSearch(c, { mine: true }, { ...ctx, userId: 8 })).toBe(false);
    const all = {
      caseId: 'c-2611',
      patientName: 'merwe',
      incidentType: 'Road traffic collision',
      from: '2026-11-21',
      to: '2026-11-21',
      status: 'completed' as const,
      responder: 'sipho',
      mine: true as const,
    };
    expect(matchesCaseSearch(c, all, ctx)).toBe(true);
    expect(matchesCaseSearch(c, { ...all, to: '2026-11-20' }, ctx)).toBe(false);
    expect(hasCaseSearchFilters({})).toBe(false);
    expect(hasCaseSearchFilters({ mine: true })).toBe(true);
  });
});

describe('newest first', () => {
  it('orders by createdAt, then case number descending, cases without a time last', () => {
    const cases: SearchableCase[] = [
      { caseId: 'C-A', createdAt: '2026-11-21T08:00:00.000Z' },
      { caseId: 'C-B', createdAt: null },
      { caseId: 'C-C', createdAt: '2026-11-21T08:00:00.000Z' },
      { caseId: 'C-D', createdAt: '2026-11-22T08:00:00.000Z' },
      { caseId: 'C-E', createdAt: 'not a time' },
    ];
    expect([...cases].sort(compareCasesNewestFirst).map((x) => x.caseId)).toEqual([
      'C-D',
      'C-C',
      'C-A',
      'C-E',
      'C-B',
    ]);
  });

  it('sortCasesNewestFirst gives the same order as sorting with the comparator', () => {
    const arb = fc.record({
      caseId: fc.option(fc.constantFrom('C-1', 'C-2', 'c-1', 'C-10', ''), { nil: null }),
      createdAt: fc.option(
        fc.constantFrom(
          '2026-11-21T08:00:00.000Z',
          '2026-11-21T08:00:00.001Z',
          '2025-01-01T00:00:00.000Z',
          'x',
          '',
        ),
        { nil: null },
      ),
    });
    fc.assert(
      fc.property(fc.array(arb, { maxLength: 30 }), (list) => {
        expect(sortCasesNewestFirst(list)).toEqual([...list].sort(compareCasesNewestFirst));
      }),
    );
  });

  it('is a total order (antisymmetric, transitive) over random cases', () => {
    const arb = fc.record({
      caseId: fc.constantFrom('C-1', 'C-2', 'c-1', 'C-10'),
      createdAt: fc.option(
        fc.constantFrom('2026-11-21T08:00:00.000Z', '2026-11-21T08:00:00.001Z', 'x'),
        { nil: null },
      ),
    });
    fc.assert(
      fc.property(arb, arb, arb, (a, b, c) => {
        expect(Math.sign(compareCasesNewestFirst(a, b))).toBe(
          -Math.sign(compareCasesNewestFirst(b, a)) || 0,
        );
        if (compareCasesNewestFirst(a, b) <= 0 && compareCasesNewestFirst(b, c) <= 0)
          expect(compareCasesNewestFirst(a, c)).toBeLessThanOrEqual(0);
      }),
    );
  });
});
