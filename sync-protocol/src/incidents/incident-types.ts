// The eleven incident report types and each one's own fields (docs/domain.md "Incident report
// types"): one zod schema per type, and the discriminated union on `incidentType` that the
// device and the server both hold a report's `typeSpecificData` to. Every field is optional
// while the report is a draft (it is saved as the user goes); what completion needs is
// marked `required` in the field list beside it (completion.ts). A key the type does not
// have, or a value of the wrong shape, is refused with TYPE_DATA_INVALID.
import { z } from 'zod';
import '../zod-config';
import {
  INCIDENT_REPORT_TYPES,
  INCIDENT_REPORT_TYPE_LABELS,
  type IncidentReportType,
} from '../cases/clinical';

export { INCIDENT_REPORT_TYPES, INCIDENT_REPORT_TYPE_LABELS, type IncidentReportType };

const text = z.string().trim().max(500).nullable();
const longText = z.string().trim().max(5000).nullable();
const count = (max: number) =>
  z.number().int('Enter a whole number').min(0, 'Cannot be negative').max(max).nullable();
const yesNo = z.boolean().nullable();
const choice = <const T extends readonly [string, ...string[]]>(values: T) =>
  z.enum(values).nullable();
const list = <const T extends readonly [string, ...string[]]>(values: T) =>
  z.array(z.enum(values)).max(values.length);

// The options of each choice, as stored (and shown: they are plain words).
export const EXTRICATION_TOOLS = [
  'Hydraulic spreader',
  'Hydraulic cutter',
  'Hydraulic ram',
  'Lifting airbags',
  'Glass management',
  'Hand tools',
  'Other',
] as const;
export const WATER_TYPES = ['Swift water', 'Flood', 'Surf', 'Dam'] as const;
export const WATER_TECHNIQUES = ['Reach', 'Throw', 'Wade', 'Boat', 'Swim', 'Helicopter'] as const;
export const ROPE_TECHNIQUES = ['Lowering', 'Raising', 'Highline', 'Pick-off', 'Other'] as const;
export const TERRAINS = ['Urban', 'Bush', 'Mountain', 'Water', 'Mixed'] as const;
export const SEARCH_OUTCOMES = [
  'Found alive',
  'Found deceased',
  'Not found',
  'Search suspended',
] as const;
export const FIRE_TYPES = [
  'Structure',
  'Vehicle',
  'Veld or grass',
  'Informal settlement',
  'Other',
] as const;
export const HAZMAT_EXPOSURES = ['None', 'Suspected', 'Confirmed'] as const;
export const STRUCTURE_TYPES = [
  'House',
  'Multi-storey building',
  'Informal dwelling',
  'Trench',
  'Wall',
  'Other',
] as const;
export const ANIMAL_OUTCOMES = [
  'Rescued',
  'Handed to a vet or SPCA',
  'Released',
  'Deceased',
  'Not found',
] as const;
export const SPACE_TYPES = ['Tank', 'Pit or manhole', 'Silo', 'Tunnel', 'Trench', 'Other'] as const;

export const vehicleExtricationDataSchema = z.strictObject({
  vehiclesInvolved: count(100),
  entrapment: yesNo,
  toolsUsed: list(EXTRICATION_TOOLS),
  extricationMinutes: count(24 * 60),
});
export const waterRescueDataSchema = z.strictObject({
  waterType: choice(WATER_TYPES),
  victims: count(1000),
  craftUsed: text,
  rescueTechnique: choice(WATER_TECHNIQUES),
});
export const highAngleRescueDataSchema = z.strictObject({
  heightMetres: z.number().min(0, 'Cannot be negative').max(5000).nullable(),
  anchorSystem: text,
  ropeTechnique: choice(ROPE_TECHNIQUES),
  teamSize: count(200),
});
export const searchAndRescueDataSchema = z.strictObject({
  missingPersons: count(1000),
  searchArea: text,
  terrain: choice(TERRAINS),
  outcome: choice(SEARCH_OUTCOMES),
});
export const fireSupportDataSchema = z.strictObject({
  fireType: choice(FIRE_TYPES),
  structuresAffected: count(10_000),
  fireServiceOnScene: yesNo,
});
export const hazmatDataSchema = z.strictObject({
  substance: text,
  unNumber: z
    .string()
    .trim()
    .regex(/^(UN)?\d{4}$/i, 'A UN number is four digits, e.g. 1203')
    .nullable(),
  exposure: choice(HAZMAT_EXPOSURES),
  decontamination: yesNo,
});
export const structuralCollapseDataSchema = z.strictObject({
  structureType: choice(STRUCTURE_TYPES),
  trappedPersons: count(10_000),
  shoring: yesNo,
});
export const animalRescueDataSchema = z.strictObject({
  species: text,
  situation: longText,
  outcome: choice(ANIMAL_OUTCOMES),
});
export const confinedSpaceDataSchema = z.strictObject({
  spaceType: choice(SPACE_TYPES),
  atmosphereReadings: longText,
  entryPermit: yesNo,
});
export const eventStandbyDataSchema = z.strictObject({
  eventName: text,
  crowdSize: count(10_000_000),
  patientsSeen: count(100_000),
});
export const otherDataSchema = z.strictObject({
  freeDescription: longText,
});

/** Each type's own fields as a draft holds them (every field optional). */
export const INCIDENT_TYPE_DATA_SCHEMAS = {
  'vehicle-extrication': vehicleExtricationDataSchema.partial(),
  'water-rescue': waterRescueDataSchema.partial(),
  'high-angle-rescue': highAngleRescueDataSchema.partial(),
  'search-and-rescue': searchAndRescueDataSchema.partial(),
  'fire-support': fireSupportDataSchema.partial(),
  hazmat: hazmatDataSchema.partial(),
  'structural-collapse': structuralCollapseDataSchema.partial(),
  'animal-rescue': animalRescueDataSchema.partial(),
  'confined-space': confinedSpaceDataSchema.partial(),
  'event-standby': eventStandbyDataSchema.partial(),
  other: otherDataSchema.partial(),
} as const satisfies Record<IncidentReportType, z.ZodObject>;

export type IncidentTypeData<T extends IncidentReportType> = z.output<
  (typeof INCIDENT_TYPE_DATA_SCHEMAS)[T]
>;

/** A report's type and its own data: the discriminated union on `incidentType`. */
export const incidentTypeDataSchema = z.discriminatedUnion(
  'incidentType',
  INCIDENT_REPORT_TYPES.map((type) =>
    z.object({ incidentType: z.literal(type), typeSpecificData: INCIDENT_TYPE_DATA_SCHEMAS[type] }),
  ) as unknown as [
    z.ZodObject<{ incidentType: z.ZodLiteral<IncidentReportType>; typeSpecificData: z.ZodObject }>,
  ],
);

export function isIncidentReportType(value: unknown): value is IncidentReportType {
  return typeof value === 'string' && (INCIDENT_REPORT_TYPES as readonly string[]).includes(value);
}

export interface TypeDataProblem {
  /** The type's field (a key of typeSpecificData), or '' for the data as a whole. */
  field: string;
  message: string;
}

/** What is wrong with `data` as the data of a `type` report (empty: it fits). */
export function typeDataProblems(type: unknown, data: unknown): TypeDataProblem[] {
  if (!isIncidentReportType(type))
    return [
      {
        field: '',
        message: `Unknown incident report type ${JSON.stringify(type)}; the types are ${INCIDENT_REPORT_TYPES.join(', ')}.`,
      },
    ];
  const parsed = INCIDENT_TYPE_DATA_SCHEMAS[type].safeParse(data ?? {});
  if (parsed.success) return [];
  return parsed.error.issues.map((issue) => {
    if (issue.code === 'unrecognized_keys')
      return {
        field: issue.keys[0] ?? '',
        message: `${issue.keys.join(', ')} ${issue.keys.length === 1 ? 'is' : 'are'} not a field of a ${INCIDENT_REPORT_TYPE_LABELS[type].toLowerCase()} report`,
      };
    return { field: String(issue.path[0] ?? ''), message: issue.message };
  });
}

// ---------------------------------------------------------------------------------------
// The fields as the screens show them
// ---------------------------------------------------------------------------------------

export type TypeFieldInput =
  | { input: 'text' }
  | { input: 'longText' }
  | { input: 'count'; unit?: string }
  | { input: 'decimal'; unit?: string }
  | { input: 'yesNo' }
  | { input: 'choice'; options: readonly string[] }
  | { input: 'multi'; options: readonly string[] };

export type TypeField = TypeFieldInput & {
  key: string;
  label: string;
  /** Needed before the report can be completed. */
  required: boolean;
  hint?: string;
};

const req = true;
const opt = false;

/** Each type's own fields in the order its form shows them (keys = the schema's keys). */
export const INCIDENT_TYPE_FIELDS: Record<IncidentReportType, readonly TypeField[]> = {
  'vehicle-extrication': [
    { key: 'vehiclesInvolved', label: 'Vehicles involved', input: 'count', required: req },
    { key: 'entrapment', label: 'Entrapment', input: 'yesNo', required: req },
    {
      key: 'toolsUsed',
      label: 'Tools used',
      input: 'multi',
      options: EXTRICATION_TOOLS,
      required: opt,
    },
    {
      key: 'extricationMinutes',
      label: 'Time to extricate',
      input: 'count',
      unit: 'minutes',
      required: opt,
    },
  ],
  'water-rescue': [
    { key: 'waterType', label: 'Water type', input: 'choice', options: WATER_TYPES, required: req },
    { key: 'victims', label: 'Victims', input: 'count', required: req },
    {
      key: 'craftUsed',
      label: 'Craft used',
      input: 'text',
      required: opt,
      hint: 'e.g. IRB, rescue board',
    },
    {
      key: 'rescueTechnique',
      label: 'Rescue technique',
      input: 'choice',
      options: WATER_TECHNIQUES,
      required: req,
    },
  ],
  'high-angle-rescue': [
    { key: 'heightMetres', label: 'Height', input: 'decimal', unit: 'metres', required: req },
    { key: 'anchorSystem', label: 'Anchor system', input: 'text', required: opt },
    {
      key: 'ropeTechnique',
      label: 'Rope technique',
      input: 'choice',
      options: ROPE_TECHNIQUES,
      required: req,
    },
    { key: 'teamSize', label: 'Team size', input: 'count', required: opt },
  ],
  'search-and-rescue': [
    { key: 'missingPersons', label: 'Missing persons', input: 'count', required: req },
    { key: 'searchArea', label: 'Search area', input: 'text', required: req },
    { key: 'terrain', label: 'Terrain', input: 'choice', options: TERRAINS, required: opt },
    { key: 'outcome', label: 'Outcome', input: 'choice', options: SEARCH_OUTCOMES, required: req },
  ],
  'fire-support': [
    { key: 'fireType', label: 'Fire type', input: 'choice', options: FIRE_TYPES, required: req },
    { key: 'structuresAffected', label: 'Structures affected', input: 'count', required: opt },
    { key: 'fireServiceOnScene', label: 'Fire service on scene', input: 'yesNo', required: req },
  ],
  hazmat: [
    { key: 'substance', label: 'Substance', input: 'text', required: req },
    {
      key: 'unNumber',
      label: 'UN number',
      input: 'text',
      required: opt,
      hint: 'If known, e.g. 1203',
    },
    {
      key: 'exposure',
      label: 'Exposure',
      input: 'choice',
      options: HAZMAT_EXPOSURES,
      required: req,
    },
    { key: 'decontamination', label: 'Decontamination done', input: 'yesNo', required: req },
  ],
  'structural-collapse': [
    {
      key: 'structureType',
      label: 'Structure type',
      input: 'choice',
      options: STRUCTURE_TYPES,
      required: req,
    },
    { key: 'trappedPersons', label: 'Trapped persons', input: 'count', required: req },
    { key: 'shoring', label: 'Shoring used', input: 'yesNo', required: opt },
  ],
  'animal-rescue': [
    { key: 'species', label: 'Species', input: 'text', required: req },
    { key: 'situation', label: 'Situation', input: 'longText', required: req },
    { key: 'outcome', label: 'Outcome', input: 'choice', options: ANIMAL_OUTCOMES, required: req },
  ],
  'confined-space': [
    { key: 'spaceType', label: 'Space type', input: 'choice', options: SPACE_TYPES, required: req },
    {
      key: 'atmosphereReadings',
      label: 'Atmosphere readings',
      input: 'longText',
      required: req,
      hint: 'O₂, LEL, H₂S, CO with times',
    },
    { key: 'entryPermit', label: 'Entry permit issued', input: 'yesNo', required: req },
  ],
  'event-standby': [
    { key: 'eventName', label: 'Event name', input: 'text', required: req },
    { key: 'crowdSize', label: 'Crowd size', input: 'count', required: opt },
    { key: 'patientsSeen', label: 'Patients seen', input: 'count', required: req },
  ],
  other: [{ key: 'freeDescription', label: 'What happened', input: 'longText', required: req }],
};

/** The route slug of each type is the type itself ('water-rescue'). */
export function incidentTypeLabel(type: unknown): string {
  return isIncidentReportType(type) ? INCIDENT_REPORT_TYPE_LABELS[type] : 'Unknown type';
}
