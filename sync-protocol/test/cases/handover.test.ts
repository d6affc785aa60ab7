import { describe, expect, it } from 'vitest';
import { buildHandover, type Handover, type VitalLike2 } from '../../src/cases/handover';
import { completeCase } from './fixtures';

const generatedAt = new Date('2026-11-21T06:10:00.000Z');

function lines(h: Handover, key: string): Record<string, string> {
  const section = h.sections.find((s) => s.key === key);
  if (!section) throw new Error(`no ${key} section`);
  return Object.fromEntries(section.lines.map((l) => [l.label, l.value]));
}

const vital = (
  type: string,
  value: string,
  time: string,
  extra: Partial<VitalLike2> = {},
): VitalLike2 => ({
  type,
  value,
  status: null,
  timestamp: `2026-11-21T${time}:00.000Z`,
  voidedAt: null,
  ...extra,
});

describe('buildHandover', () => {
  it('has the ISBAR sections in order', () => {
    const h = buildHandover({ case: completeCase(), vitals: [], addenda: [], generatedAt });
    expect(h.sections.map((s) => s.key)).toEqual([
      'identify',
      'situation',
      'background',
      'assessment',
      'recommendation',
    ]);
    expect(h.sections.map((s) => s.title)).toEqual([
      'Identify',
      'Situation',
      'Background',
      'Assessment',
      'Recommendation',
    ]);
    expect(h.caseId).toBe('C-2611-7Q4M-XK3P');
    expect(h.title).toBe('Patient handover — C-2611-7Q4M-XK3P');
    expect(h.generatedAt).toBe('21 Nov 2026, 08:10');
  });

  it('identifies the patient, the responder and the medical aid', () => {
    const h = buildHandover({
      case: completeCase({
        patientName: 'Thandi Mokoena',
        approximateAge: 58,
        patientGender: 'Female',
        responderName: 'Sipho Dlamini',
        responderCallSign: 'Rescue 7',
        hasMedicalAid: true,
        medicalAidProvider: 'Discovery Health',
      }),
      vitals: [],
      addenda: [],
      generatedAt,
    });
    expect(lines(h, 'identify')).toEqual({
      Patient: 'Thandi Mokoena',
      Age: '58 years',
      Gender: 'Female',
      'Case number': 'C-2611-7Q4M-XK3P',
      Responder: 'Sipho Dlamini, call sign Rescue 7',
      'Medical aid': 'Discovery Health',
    });
    const unknown = buildHandover({
      case: completeCase({ patientName: null }),
      vitals: [],
      addenda: [],
      generatedAt,
    });
    expect(lines(unknown, 'identify').Patient).toBe('Name unknown');
  });

  it('skips empty answers', () => {
    const h = buildHandover({
      case: completeCase({
        allergies: '  ',
        medications: null,
        pastHistory: 'Hypertension',
        lastMealTime: null,
        lastMealContent: 'Toast',
      }),
      vitals: [],
      addenda: [],
      generatedAt,
    });
    expect(lines(h, 'background')).toEqual({
      'Past history': 'Hypertension',
      'Last oral intake': 'Toast',
    });
    for (const section of h.sections) {
      for (const line of section.lines) expect(line.value, line.label).not.toMatch(/^(—|\s*)$/);
    }
    const bare = buildHandover({ case: { caseId: 'C-1' }, vitals: [], addenda: [], generatedAt });
    expect(lines(bare, 'background')).toEqual({});
    expect(lines(bare, 'recommendation')).toEqual({});
  });

  it('shows the situation with times in South African time', () => {
    const h = buildHandover({
      case: completeCase({
        incidentLatitude: -33.9249,
        incidentLongitude: 18.4241,
        symptoms: ['Chest pain', 'Sweating'],
      }),
      vitals: [],
      addenda: [],
      generatedAt,
    });
    expect(lines(h, 'situation')).toMatchObject({
      'Incident type': 'Medical',
      Location: '12 Long Street, Cape Town · GPS -33.92490, 18.42410',
      'Call received': '21 Nov 2026, 07:00',
      'Responder arrived': '21 Nov 2026, 07:12',
      'Chief complaint / symptoms': 'Chest pain, Sweating',
      Triage: 'YELLOW',
    });
  });

  it('assesses with the latest and first vitals, flagged for the age, voided readings left out', () => {
    const h = buildHandover({
      case: completeCase({
        approximateAge: 4,
        avpu: 'V',
        gcsEyeOpening: 3,
        gcsVerbalResponse: 4,
        gcsMotorResponse: 6,
        gcsTotal: 13,
        fastArmWeakness: true,
        fastTimeNoted: '2026-11-21T04:30:00.000Z',
        chestAbnormal: true,
        chestNotes: 'Bruising left ribs',
        headAbnormal: false,
        hemorrhagingActive: true,
        hemorrhagingLocation: 'Left thigh',
        hemorrhagingSeverity: 'Severe',
        hemorrhagingType: 'arterial',
        hemorrhagingControlStatus: 'Controlled',
        hemorrhagingInterventions: ['Tourniquet'],
        tourniquetApplicationTime: '2026-11-21T05:15:00.000Z',
      }),
      vitals: [
        vital('heartRate', '150', '05:30'),
        vital('heartRate', '999', '05:25', { voidedAt: '2026-11-21T05:26:00.000Z' }),
        vital('heartRate', '118', '05:20', { status: 'normal' }),
        vital('bloodPressure', '76/50', '05:20'),
        vital('spo2', '97', '05:20'),
      ],
      addenda: [],
      generatedAt,
    });
    const a = lines(h, 'assessment');
    // 150 is high for a 4-year-old (80–120) though an adult-range status was never stored
    expect(a['Heart rate']).toBe('150/min HIGH at 07:30 (first 118/min at 07:20; 2 readings)');
    expect(a['Blood pressure']).toBe('76/50 mmHg LOW at 07:20');
    expect(a.SpO2).toBe('97% at 07:20');
    expect(JSON.stringify(h)).not.toContain('999');
    expect(a.GCS).toBe('E3 V4 M6 = 13');
    expect(a.AVPU).toBe('V — Responds to voice');
    expect(a['BE-FAST']).toBe('arm weakness; noted 21 Nov 2026, 06:30');
    expect(a.Chest).toBe('Bruising left ribs');
    expect(a.Head).toBeUndefined();
    expect(a['Catastrophic bleeding']).toBe(
      'Severe arterial, Left thigh, Controlled, Tourniquet, tourniquet on at 07:15',
    );
    const labels = h.sections.find((s) => s.key === 'assessment')!.lines.map((l) => l.label);
    expect(labels.indexOf('Heart rate')).toBeLessThan(labels.indexOf('Blood pressure'));
  });

  it('recommends with the interventions done, transport and addenda', () => {
    const h = buildHandover({
      case: completeCase({
        oxygenAdministered: true,
        ivAccess: true,
        cprPerformed: false,
        medicationsGiven: 'Aspirin 300 mg PO 07:20',
        additionalNotes: 'Wife travelling with patient',
      }),
      vitals: [],
      addenda: [
        {
          createdAt: '2026-11-21T07:00:00.000Z',
          reason: 'Wrong age',
          changes: [{ field: 'approximateAge', before: 85, after: 58 }],
          authorName: 'Sipho Dlamini',
        },
      ],
      generatedAt,
    });
    const r = lines(h, 'recommendation');
    expect(r.Interventions).toBe('Oxygen administered, IV access');
    expect(r['Medications given']).toBe('Aspirin 300 mg PO 07:20');
    expect(r['Transport priority']).toBe('Priority 2');
    expect(r['Receiving hospital']).toBe('Groote Schuur Hospital');
    expect(r.Notes).toBe('Wife travelling with patient');
    expect(r['Addendum 21 Nov 2026, 09:00 by Sipho Dlamini']).toBe(
      'Wrong age — changed Approximate age',
    );

    const refused = buildHandover({
      case: completeCase({ patientRefusedTransport: true }),
      vitals: [],
      addenda: [],
      generatedAt,
    });
    expect(lines(refused, 'recommendation').Transport).toBe('Patient refused transport');
    expect(lines(refused, 'recommendation')['Receiving hospital']).toBeUndefined();
  });

  it('keeps to one page: long text is shortened and only the first addenda are listed', () => {
    const h = buildHandover({
      case: completeCase({ eventsLeadingUp: 'x'.repeat(5000) }),
      vitals: [],
      addenda: Array.from({ length: 6 }, (_, i) => ({
        createdAt: `2026-11-21T07:0${i}:00.000Z`,
        reason: `Correction ${i + 1}`,
        changes: [],
      })),
      generatedAt,
    });
    expect(lines(h, 'background')['Events leading up']!.length).toBeLessThanOrEqual(280);
    const r = h.sections.find((s) => s.key === 'recommendation')!.lines;
    expect(r.filter((l) => l.label.startsWith('Addendum'))).toHaveLength(3);
    expect(r.at(-1)).toEqual({ label: 'More addenda', value: '3 more on the full record' });
  });
});
