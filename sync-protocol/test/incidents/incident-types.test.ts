import { describe, expect, it } from 'vitest';
import {
  INCIDENT_REPORT_TYPES,
  INCIDENT_TYPE_DATA_SCHEMAS,
  INCIDENT_TYPE_FIELDS,
  incidentTypeDataSchema,
  typeDataProblems,
  type IncidentReportType,
} from '../../src/incidents/incident-types';
import { validateIncidentReportForCompletion } from '../../src/incidents/completion';
import { checkTypeData } from '../../src/incidents/incident-report';
import { Rejection } from '../../src/platform/rejections';

/** A value every type's required fields accept, by input. */
function filled(type: IncidentReportType): Record<string, unknown> {
  return Object.fromEntries(
    INCIDENT_TYPE_FIELDS[type].map((f) => {
      switch (f.input) {
        case 'count':
          return [f.key, 2];
        case 'decimal':
          return [f.key, 12.5];
        case 'yesNo':
          return [f.key, false];
        case 'choice':
          return [f.key, f.options[0]];
        case 'multi':
          return [f.key, [f.options[0]]];
        default:
          return [f.key, f.key === 'unNumber' ? '1203' : 'Some words'];
      }
    }),
  );
}

const COMMON = {
  title: 'Car in the river',
  description: 'Vehicle swept off a low-water bridge',
  location: 'Liesbeek low-water bridge',
  responderName: 'Thandi Nkosi',
  incidentStartTime: '2026-12-08T08:00:00.000Z',
  incidentEndTime: '2026-12-08T09:00:00.000Z',
};

describe('incident report types', () => {
  it('are eleven, each with a schema whose keys are its form fields', () => {
    expect(INCIDENT_REPORT_TYPES).toHaveLength(11);
    for (const type of INCIDENT_REPORT_TYPES) {
      const keys = Object.keys(INCIDENT_TYPE_DATA_SCHEMAS[type].shape).sort();
      expect(INCIDENT_TYPE_FIELDS[type].map((f) => f.key).sort(), type).toEqual(keys);
      expect(typeDataProblems(type, filled(type)), type).toEqual([]);
      expect(typeDataProblems(type, {}), `${type}: a draft may be empty`).toEqual([]);
      expect(
        incidentTypeDataSchema.safeParse({ incidentType: type, typeSpecificData: filled(type) })
          .success,
      ).toBe(true);
    }
  });

  it('each type refuses a field of another type, and a value of the wrong shape', () => {
    for (const type of INCIDENT_REPORT_TYPES) {
      const problems = typeDataProblems(type, { notAField: 1 });
      expect(problems[0]?.field, type).toBe('notAField');
      expect(problems[0]?.message).toMatch(/is not a field of a .* report/);
      const first = INCIDENT_TYPE_FIELDS[type][0];
      if (!first) throw new Error(type);
      expect(typeDataProblems(type, { [first.key]: { nested: true } })[0]?.field, type).toBe(
        first.key,
      );
    }
    expect(typeDataProblems('water-rescue', { victims: 2.5 })[0]).toEqual({
      field: 'victims',
      message: 'Enter a whole number',
    });
    expect(typeDataProblems('water-rescue', { waterType: 'Lake' })[0]?.field).toBe('waterType');
    expect(typeDataProblems('hazmat', { unNumber: '12' })[0]?.message).toBe(
      'A UN number is four digits, e.g. 1203',
    );
    // The union: water rescue data under the fire support type does not fit.
    expect(
      incidentTypeDataSchema.safeParse({
        incidentType: 'fire-support',
        typeSpecificData: { victims: 2 },
      }).success,
    ).toBe(false);
  });

  it('an unknown type is named with the list of types', () => {
    expect(typeDataProblems('kite-rescue', {})[0]?.message).toContain('water-rescue');
    expect(
      incidentTypeDataSchema.safeParse({ incidentType: 'kite-rescue', typeSpecificData: {} })
        .success,
    ).toBe(false);
  });

  it('checkTypeData refuses with TYPE_DATA_INVALID and the field', () => {
    let caught: unknown;
    try {
      checkTypeData({ incidentType: 'water-rescue', typeSpecificData: { floors: 3 } });
    } catch (e) {
      caught = e;
    }
    expect(caught).toBeInstanceOf(Rejection);
    expect((caught as Rejection).code).toBe('TYPE_DATA_INVALID');
    expect((caught as Rejection).message).toContain('typeSpecificData.floors');
    expect(() =>
      checkTypeData({ incidentType: 'water-rescue', typeSpecificData: { victims: 1 } }),
    ).not.toThrow();
  });
});

describe('incident report completion', () => {
  it('lists every missing common field, then the type’s required fields, in form order', () => {
    const problems = validateIncidentReportForCompletion({
      incidentType: 'water-rescue',
      typeSpecificData: { craftUsed: 'IRB' },
    });
    expect(problems.map((p) => p.field)).toEqual([
      'title',
      'description',
      'location',
      'responderName',
      'incidentStartTime',
      'incidentEndTime',
      'typeSpecificData.waterType',
      'typeSpecificData.victims',
      'typeSpecificData.rescueTechnique',
    ]);
    expect(problems.find((p) => p.field === 'typeSpecificData.victims')?.message).toBe(
      'Record victims',
    );
  });

  it('passes a report with every required field of each type; GPS stands for a location', () => {
    for (const type of INCIDENT_REPORT_TYPES) {
      expect(
        validateIncidentReportForCompletion({
          ...COMMON,
          incidentType: type,
          typeSpecificData: filled(type),
        }),
        type,
      ).toEqual([]);
    }
    expect(
      validateIncidentReportForCompletion({
        ...COMMON,
        location: null,
        latitude: -33.9,
        longitude: 18.4,
        incidentType: 'other',
        typeSpecificData: { freeDescription: 'Lift stuck' },
      }),
    ).toEqual([]);
  });

  it('refuses an end before the start, and optional fields never block', () => {
    const problems = validateIncidentReportForCompletion({
      ...COMMON,
      incidentEndTime: '2026-12-08T07:00:00.000Z',
      incidentType: 'vehicle-extrication',
      typeSpecificData: { vehiclesInvolved: 1, entrapment: true },
    });
    expect(problems).toEqual([
      {
        field: 'incidentEndTime',
        group: 'details',
        message: 'The end time is before the start time',
      },
    ]);
  });
});
