import { buildHandover } from '@rescuelog/sync-protocol/cases/handover';
import { describe, expect, it } from 'vitest';
import { handoverPdfBytes, layoutHandover, textWidth, toWinAnsi, wrapText } from './handover-pdf';

const latin1 = (bytes: Uint8Array) => Array.from(bytes, (b) => String.fromCharCode(b)).join('');

function handoverOf(extra: Record<string, unknown> = {}) {
  return buildHandover({
    case: {
      caseId: 'C-2611-7Q4M-XK3P',
      patientName: 'Zoë van der Merwe',
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
  });
}

/** Checks the file's structure as a PDF reader would find it: header, every object where the
 * cross-reference table says, the trailer pointing at the table. */
function expectWellFormed(file: string): void {
  expect(file.startsWith('%PDF-1.4\n')).toBe(true);
  expect(file.endsWith('%%EOF\n')).toBe(true);
  const startxref = Number(/startxref\n(\d+)\n%%EOF\n$/.exec(file)?.[1]);
  expect(file.slice(startxref, startxref + 5)).toBe('xref\n');
  const [, first, count] = /^xref\n(\d+) (\d+)\n/.exec(file.slice(startxref)) ?? [];
  expect(first).toBe('0');
  const entries = file
    .slice(startxref)
    .split('\n')
    .slice(2, 2 + Number(count));
  entries.slice(1).forEach((entry, i) => {
    expect(entry).toMatch(/^\d{10} 00000 n $/);
    const offset = Number(entry.slice(0, 10));
    expect(file.slice(offset, offset + 20)).toMatch(new RegExp(`^${String(i + 1)} 0 obj\\n`));
  });
  // Every stream's /Length is the byte count between 'stream\n' and '\nendstream'.
  for (const m of file.matchAll(/<< \/Length (\d+) >>\nstream\n/g)) {
    const start = (m.index ?? 0) + m[0].length;
    expect(file.slice(start + Number(m[1]), start + Number(m[1]) + 10)).toBe('\nendstream');
  }
}

describe('handover PDF', () => {
  it('is a well-formed one-page PDF with the ISBAR sections in order', () => {
    const file = latin1(handoverPdfBytes(handoverOf(), new Date('2026-11-20T11:00:00Z')));
    expectWellFormed(file);
    expect(file).toContain('/Count 1');
    const at = (text: string) => file.indexOf(`(${text})`);
    const order = ['Identify', 'Situation', 'Background', 'Assessment', 'Recommendation'].map(at);
    expect(order.every((i) => i > 0)).toBe(true);
    expect([...order].sort((a, b) => a - b)).toEqual(order);
    expect(file).toContain('(Tygerberg Hospital)');
    // WinAnsi: ë is byte 0xEB, the em dash 0x97.
    expect(file).toContain('Zo\xeb van der Merwe');
    expect(file).toContain('(Patient handover \x97 C-2611-7Q4M-XK3P)');
  });

  it("heads the page with the organisation's name from the system settings, when one is set", () => {
    const named = buildHandover({
      case: { caseId: 'C-2611-7Q4M-XK3P', patientName: 'Sipho' },
      vitals: [],
      addenda: [],
      generatedAt: new Date('2026-11-20T11:00:00.000Z'),
      organisation: '  Helderberg Volunteer Rescue ',
    });
    expect(named.organisation).toBe('Helderberg Volunteer Rescue');
    expect(latin1(handoverPdfBytes(named))).toContain('(Helderberg Volunteer Rescue)');
    expect(handoverOf().organisation).toBeNull();
    expect(latin1(handoverPdfBytes(handoverOf()))).not.toContain('Helderberg Volunteer Rescue');
  });

  it('shrinks the text to keep a long record on one page, and spills to a second page only past 7 pt', () => {
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
    const busy = {
      ...full,
      sections: full.sections.map((s) => ({
        ...s,
        lines: [
          ...s.lines,
          ...Array.from({ length: 2 }, (_, i) => ({
            label: `Note ${String(i)}`,
            value: long.slice(0, 120),
          })),
        ],
      })),
    };
    const fitted = layoutHandover(busy);
    expect(fitted.pages).toBe(1);
    expect(fitted.size).toBeLessThan(10);

    const huge = buildHandover({
      case: { caseId: 'C-2611-7Q4M-XK3P' },
      vitals: Array.from({ length: 10 }, (_, i) => ({
        type: `custom${String(i)}`,
        value: 'x'.repeat(40),
        timestamp: '2026-11-20T10:15:00.000Z',
      })),
      addenda: Array.from({ length: 3 }, () => ({
        createdAt: '2026-11-20T10:15:00.000Z',
        reason: long,
        changes: [],
      })),
      generatedAt: new Date(),
    });
    const many = {
      ...huge,
      sections: huge.sections.map((s) => ({
        ...s,
        lines: [
          ...s.lines,
          ...Array.from({ length: 30 }, (_, i) => ({ label: `Line ${String(i)}`, value: long })),
        ],
      })),
    };
    const spilled = layoutHandover(many);
    expect(spilled.size).toBe(7);
    expect(spilled.pages).toBeGreaterThan(1);
    const file = latin1(handoverPdfBytes(many));
    expectWellFormed(file);
    expect(file).toContain(`/Count ${String(spilled.pages)}`);
    expect(file).toContain(
      `(Confidential patient information \\(POPIA\\). Case C-2611-7Q4M-XK3P. Page 2 of ${String(spilled.pages)}.)`,
    );
  });

  it('wraps text to the column width and encodes what WinAnsi cannot hold', () => {
    const lines = wrapText(toWinAnsi('word '.repeat(60)), 'regular', 10, 200);
    expect(lines.length).toBeGreaterThan(1);
    for (const line of lines) expect(textWidth(line, 'regular', 10)).toBeLessThanOrEqual(200);
    expect(
      wrapText(toWinAnsi('x'.repeat(300)), 'regular', 10, 100).every(
        (l) => textWidth(l, 'regular', 10) <= 100,
      ),
    ).toBe(true);
    expect(toWinAnsi('Ŝ → ✓')).toBe('S ? ?');
    expect(toWinAnsi('37 °C — “ok”…')).toBe('37 \xb0C \x97 \x93ok\x94\x85');
  });
});
