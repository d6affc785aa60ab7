// The CPR summary PDF, rendered by the one PDF module with the app's fonts and read back with
// a real PDF text extractor: the figures and every event, voided ones marked.
import { describe, expect, it } from 'vitest';
import type { CprEventLike } from '@rescuelog/sync-protocol/cpr/cpr-timeline';
import { pdfPages, renderForTest } from '@/lib/pdf/report-test-kit';
import type { LocalCprSession } from '../data/use-cpr-session';
import { cprReport } from './cpr-report';

const START = '2026-12-08T08:00:00.000Z';
const at = (s: number) => new Date(Date.parse(START) + s * 1000).toISOString();
const ev = (
  id: string,
  s: number,
  type: string,
  details = {},
  voidsEventId: string | null = null,
): CprEventLike => ({
  id,
  type,
  at: at(s),
  details,
  voidsEventId,
  userId: 4,
});

describe('CPR summary PDF', () => {
  it('carries the session, the summary figures and the whole timeline', async () => {
    const session = {
      id: '5c1d3c57-0b5e-4a55-9f43-2d1f3c3c8a01',
      sessionId: 'S-2612-AB12',
      startTime: START,
      endTime: at(745),
      status: 'completed',
      outcome: 'rosc',
      patientAge: '61',
      incidentLocation: 'Main Road, Muizenberg',
      witnessed: true,
      bystanderCpr: false,
      eventsLeadingUp: null,
    } as unknown as LocalCprSession;
    const events = [
      ev('a', 20, 'rhythm_check', { rhythm: 'VF' }),
      ev('b', 25, 'shock', { energyJoules: 150 }),
      ev('c', 30, 'shock', { energyJoules: 150 }),
      ev('d', 40, 'void', { reason: 'Pressed twice' }, 'c'),
      ev('e', 300, 'adrenaline', { doseMg: 1 }),
      ev('f', 745, 'rosc'),
    ];
    const bytes = await renderForTest(cprReport(session, events, () => 'Lerato M'));
    const text = (await pdfPages(bytes)).join('\n');
    expect(text).toContain('CPR session S-2612-AB12');
    expect(text).toMatch(/Outcome\s*ROSC/);
    expect(text).toMatch(/Duration\s*12:25/);
    expect(text).toMatch(/Shocks\s*1/);
    expect(text).toMatch(/Time to first adrenaline\s*T\+05:00/);
    expect(text).toContain('Main Road, Muizenberg');
    expect(text).toContain('VOIDED: Shock 150 J (Pressed twice)');
    expect(text).toContain('Correction: Pressed twice');
    expect(text).toContain('Lerato M');
  });
});
