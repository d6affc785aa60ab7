import { buildHandover, type Handover } from '@rescuelog/sync-protocol/cases/handover';
import { describe, expect, it } from 'vitest';
import { handoverPdfFileName, handoverReport } from './handover-pdf';
import { pdfPages, renderForTest } from '@/lib/pdf/report-test-kit';

function handoverOf(extra: Record<string, unknown> = {}, organisation?: string) {
  return buildHandover({
    case: {
      caseId: 'C-2611-7Q4M-XK3P',
      patientName: 'Zoë Nkosi-Müller Đorđe',
      approximateAge: 34,
      patientGender: 'Female',
      incidentType: 'Fall from height',
      allergies: 'Penicillin (rash)',
      avpu: 'A',
      oxygenAdministered: true,
      receivingHospital: 'Tygerberg Hospital',
      ...extra,
    },
    vitals: [{ type: 'heartRate', value: '128', timestamp: '2026-11-20T10:15:00.000Z' }],
    addenda: [],
    generatedAt: new Date('2026-11-20T11:00:00.000Z'),
    organisation,
  });
}

const pagesOf = async (handover: Handover) =>
  pdfPages(
    await renderForTest(handoverReport(handover), {
      organisation: handover.organisation,
      logo: null,
    }),
  );

// Each test renders real PDFs (fontkit subsetting) and reads them back with pdf.js: a second
// or two alone, several on a busy machine.
describe('handover PDF', { timeout: 20_000 }, () => {
  it('is one page with the ISBAR sections in order and the patient named as typed', async () => {
    const [page, ...more] = await pagesOf(handoverOf());
    expect(more).toHaveLength(0);
    const text = page ?? '';
    const order = ['Identify', 'Situation', 'Background', 'Assessment', 'Recommendation'].map(
      (title) => text.indexOf(`\n${title}\n`),
    );
    expect(order.every((i) => i > 0)).toBe(true);
    expect([...order].sort((a, b) => a - b)).toEqual(order);
    expect(text).toContain('Patient handover — C-2611-7Q4M-XK3P');
    expect(text).toContain('Generated 20 Nov 2026, 13:00 (South African time).');
    expect(text).toContain('Patient Zoë Nkosi-Müller Đorđe');
    expect(text).toContain('Receiving hospital Tygerberg Hospital');
    expect(text).toContain('Heart rate 128/min HIGH at 12:15');
    expect(text).toContain('Confidential patient information (POPIA). Case C-2611-7Q4M-XK3P.');
    expect(text).toContain('Page 1 of 1');
  });

  it("heads the page with the organisation's name from the system settings, when one is set", async () => {
    const named = handoverOf({}, '  Helderberg Volunteer Rescue ');
    expect(named.organisation).toBe('Helderberg Volunteer Rescue');
    const [page] = await pagesOf(named);
    expect(page?.startsWith('Helderberg Volunteer Rescue\n')).toBe(true);
    expect(handoverOf().organisation).toBeNull();
    expect((await pagesOf(handoverOf()))[0]).not.toContain('Helderberg');
  });

  it('shrinks the text to keep a long record on one page, and spills to a second only past 7 pt', async () => {
    const long =
      'Patient found at the bottom of a stairwell, conscious, complaining of back pain. '.repeat(3);
    const full = handoverOf({
      incidentDescription: long,
      eventsLeadingUp: long,
      pastHistory: long,
      medicationsGiven: long,
      proceduresPerformed: long,
      treatmentProvided: long,
      additionalNotes: long,
    });
    const withLines = (count: number, value: string): Handover => ({
      ...full,
      sections: full.sections.map((s) => ({
        ...s,
        lines: [
          ...s.lines,
          ...Array.from({ length: count }, (_, i) => ({ label: `Note ${String(i)}`, value })),
        ],
      })),
    });
    // At 10 pt this is well over a page; shrunk, it fits one.
    const busy = await pagesOf(withLines(2, long.slice(0, 120)));
    expect(busy).toHaveLength(1);
    expect(busy[0]).toContain('Note 1');

    const huge = await pagesOf(withLines(30, long));
    expect(huge.length).toBeGreaterThan(1);
    const count = String(huge.length);
    huge.forEach((page, i) => expect(page).toContain(`Page ${String(i + 1)} of ${count}`));
    // Nothing is dropped: the last section's last line is on the last page.
    expect(huge.at(-1)).toContain('Note 29');
  });

  it('names the file after the case', () => {
    expect(handoverPdfFileName('C-2611-7Q4M-XK3P')).toBe('handover-C-2611-7Q4M-XK3P.pdf');
    expect(handoverPdfFileName('')).toBe('handover-case.pdf');
    expect(handoverPdfFileName('a/b c')).toBe('handover-a_b_c.pdf');
  });
});
