// Clinical vocabularies from docs/domain.md that synced records use: the interventions
// checklist, vital sign types and units, GCS ranges, CPR event kinds, triage colours and
// incident report types.
import { z } from 'zod';
import '../zod-config';

/** The interventions checklist in the groups the Treatment screen shows (domain.md). */
export const INTERVENTION_GROUPS = {
  airway: [
    'headTiltChinLift',
    'jawThrust',
    'oropharyngealAirway',
    'nasopharyngealAirway',
    'suctioning',
    'supraglotticAirway',
    'endotrachealIntubation',
    'foreignBodyRemoval',
  ],
  breathing: [
    'oxygenAdministered',
    'bagValveMaskVentilation',
    'nebulisation',
    'cpapApplied',
    'chestSeal',
    'needleDecompression',
  ],
  circulation: [
    'cprPerformed',
    'aedUsed',
    'manualDefibrillation',
    'ivAccess',
    'ioAccess',
    'ivFluids',
    'bleedingControl',
    'directPressure',
    'woundPacking',
    'haemostaticDressing',
    'tourniquetApplication',
    'pelvicBinder',
  ],
  trauma: [
    'spinalImmobilization',
    'cervicalCollar',
    'scoopStretcher',
    'longSpineBoard',
    'vacuumMattress',
    'splintingTechniques',
    'tractionSplint',
    'slingApplied',
    'woundCare',
    'burnTreatment',
    'eyeIrrigation',
  ],
  medical: [
    'bloodGlucoseTest',
    'glucogelAdministered',
    'epiPenUsed',
    'aspirinGiven',
    'ecg12Lead',
    'cardiacMonitoring',
    'pulseOximetry',
  ],
  environmentAndOther: [
    'coolingMeasures',
    'warmingMeasures',
    'decontamination',
    'emergencyChildbirth',
    'neonatalCare',
    'extrication',
    'recoveryPosition',
    'psychologicalSupport',
  ],
} as const;

export type InterventionGroup = keyof typeof INTERVENTION_GROUPS;
export type Intervention = (typeof INTERVENTION_GROUPS)[InterventionGroup][number];

export const INTERVENTION_GROUP_LABELS: Record<InterventionGroup, string> = {
  airway: 'Airway',
  breathing: 'Breathing',
  circulation: 'Circulation',
  trauma: 'Trauma',
  medical: 'Medical',
  environmentAndOther: 'Environment and other',
};

/** Every intervention, in screen order. */
export const INTERVENTIONS: readonly Intervention[] = Object.values(INTERVENTION_GROUPS).flat();

/**
 * Outside a basic qualification's scope: the form shows a scope warning based on the
 * responder's qualification; it never blocks.
 */
export const ADVANCED_INTERVENTIONS: readonly Intervention[] = [
  'endotrachealIntubation',
  'needleDecompression',
  'manualDefibrillation',
  'ioAccess',
];

export function isAdvancedIntervention(name: Intervention): boolean {
  return ADVANCED_INTERVENTIONS.includes(name);
}

// ---------------------------------------------------------------------------------------
// Vital signs
// ---------------------------------------------------------------------------------------

export const VITAL_SIGN_TYPES = [
  'heartRate',
  'respiratoryRate',
  'bloodPressure',
  'spo2',
  'temperature',
  'bloodGlucose',
  'gcs',
  'painScore',
  'capillaryRefill',
  'etco2',
] as const;
export type VitalSignType = (typeof VITAL_SIGN_TYPES)[number];
export const vitalSignTypeSchema = z.enum(VITAL_SIGN_TYPES);

export interface VitalSignInfo {
  label: string;
  unit: string;
  /** Adult normal range; readings outside are flagged (children use age-banded normals). */
  adultNormal: { min?: number; max?: number };
  /** Blood pressure only: the diastolic normal range. */
  adultNormalDiastolic?: { min: number; max: number };
}

export const VITAL_SIGNS: Record<VitalSignType, VitalSignInfo> = {
  heartRate: { label: 'Heart rate', unit: '/min', adultNormal: { min: 60, max: 100 } },
  respiratoryRate: { label: 'Respiratory rate', unit: '/min', adultNormal: { min: 12, max: 20 } },
  bloodPressure: {
    label: 'Blood pressure',
    unit: 'mmHg',
    adultNormal: { min: 90, max: 140 },
    adultNormalDiastolic: { min: 60, max: 90 },
  },
  spo2: { label: 'SpO2', unit: '%', adultNormal: { min: 94 } },
  temperature: { label: 'Temperature', unit: '°C', adultNormal: { min: 36.0, max: 37.5 } },
  bloodGlucose: { label: 'Blood glucose', unit: 'mmol/L', adultNormal: { min: 4.0, max: 7.8 } },
  gcs: { label: 'GCS', unit: '', adultNormal: { min: 15, max: 15 } },
  painScore: { label: 'Pain score', unit: '/10', adultNormal: { max: 0 } },
  capillaryRefill: { label: 'Capillary refill', unit: 's', adultNormal: { max: 2 } },
  etco2: { label: 'EtCO2', unit: 'mmHg', adultNormal: { min: 35, max: 45 } },
};

export const VITAL_SIGN_STATUSES = ['normal', 'low', 'high'] as const;
export type VitalSignStatus = (typeof VITAL_SIGN_STATUSES)[number];

// ---------------------------------------------------------------------------------------
// GCS
// ---------------------------------------------------------------------------------------

export const GCS_RANGES = {
  eye: { min: 1, max: 4 },
  verbal: { min: 1, max: 5 },
  motor: { min: 1, max: 6 },
  total: { min: 3, max: 15 },
} as const;

// ---------------------------------------------------------------------------------------
// CPR
// ---------------------------------------------------------------------------------------

export const CPR_EVENT_KINDS = [
  'start',
  'rhythm_check',
  'shock',
  'adrenaline',
  'amiodarone',
  'airway',
  'iv_io_access',
  'compressor_change',
  'note',
  'rosc',
  'termination',
  /** A correction: voidsEventId names the event it voids; the log stays append-only. */
  'void',
] as const;
export type CprEventKind = (typeof CPR_EVENT_KINDS)[number];
export const cprEventKindSchema = z.enum(CPR_EVENT_KINDS);

export const CPR_RHYTHMS = ['VF', 'pVT', 'PEA', 'asystole', 'ROSC'] as const;
export const CPR_AIRWAYS = ['BVM', 'SGA', 'ETT'] as const;
export const CPR_ACCESS_ROUTES = ['IV', 'IO'] as const;

// ---------------------------------------------------------------------------------------
// Mass-casualty triage
// ---------------------------------------------------------------------------------------

/** START/JumpSTART and SALT (GREY expectant), plus the South African Triage Scale (ORANGE, BLUE). */
export const TRIAGE_COLOURS = [
  'RED',
  'ORANGE',
  'YELLOW',
  'GREEN',
  'BLUE',
  'GREY',
  'BLACK',
] as const;
export type TriageColour = (typeof TRIAGE_COLOURS)[number];
export const triageColourSchema = z.enum(TRIAGE_COLOURS);

export const TRIAGE_COLOUR_LABELS: Record<TriageColour, string> = {
  RED: 'Immediate',
  ORANGE: 'Very urgent',
  YELLOW: 'Delayed',
  GREEN: 'Minor',
  BLUE: 'Expectant',
  GREY: 'Expectant',
  BLACK: 'Dead',
};

/** NEMSIS v3.5.1 eScene.08 codes for the colours it defines. */
export const TRIAGE_NEMSIS_CODES: Partial<Record<TriageColour, string>> = {
  RED: '2708001',
  YELLOW: '2708003',
  GREEN: '2708005',
  GREY: '2708007',
  BLACK: '2708009',
};

// ---------------------------------------------------------------------------------------
// Incident reports (non-medical rescue operations)
// ---------------------------------------------------------------------------------------

export const INCIDENT_REPORT_TYPES = [
  'vehicle-extrication',
  'water-rescue',
  'high-angle-rescue',
  'search-and-rescue',
  'fire-support',
  'hazmat',
  'structural-collapse',
  'animal-rescue',
  'confined-space',
  'event-standby',
  'other',
] as const;
export type IncidentReportType = (typeof INCIDENT_REPORT_TYPES)[number];
export const incidentReportTypeSchema = z.enum(INCIDENT_REPORT_TYPES);

export const INCIDENT_REPORT_TYPE_LABELS: Record<IncidentReportType, string> = {
  'vehicle-extrication': 'Vehicle extrication',
  'water-rescue': 'Water rescue',
  'high-angle-rescue': 'High-angle rescue',
  'search-and-rescue': 'Search and rescue',
  'fire-support': 'Fire support',
  hazmat: 'Hazmat',
  'structural-collapse': 'Structural collapse',
  'animal-rescue': 'Animal rescue',
  'confined-space': 'Confined space',
  'event-standby': 'Event standby',
  other: 'Other',
};

export const REPORT_PRIORITIES = ['low', 'normal', 'high', 'critical'] as const;
export type ReportPriority = (typeof REPORT_PRIORITIES)[number];

export const RECORD_STATUSES = ['in_progress', 'completed'] as const;
export type RecordStatus = (typeof RECORD_STATUSES)[number];

/** The body regions of the secondary survey (case fields <region>Examined/Abnormal/Notes). */
export const BODY_REGIONS = [
  'head',
  'neck',
  'chest',
  'abdomen',
  'pelvis',
  'back',
  'extremities',
] as const;
export type BodyRegion = (typeof BODY_REGIONS)[number];
