// mciIncident: a mass-casualty incident; casualties are their own rows
import { z } from 'zod';
import '../zod-config';
import { RECORD_STATUSES } from '../cases/clinical';
import { nShort, nLong, nTime } from '../platform/field-types';
import { defineRecord, type FamilyAccess, type RecordDefinition } from '../platform/record';
import { upsertMutator } from '../platform/verbs';
import {
  jsonValueSchema,
  latitudeSchema,
  longitudeSchema,
  timestampSchema,
  ownedRecordSchema,
} from '../platform/values';

const mciIncidentFieldShape = {
  incidentType: nShort,
  description: nLong,
  location: nShort,
  latitude: latitudeSchema.nullable(),
  longitude: longitudeSchema.nullable(),
  startedAt: timestampSchema,
  endedAt: nTime,
  resources: z.array(jsonValueSchema).max(1000),
  status: z.enum(RECORD_STATUSES),
  completedAt: nTime,
};
type MciIncidentField = keyof typeof mciIncidentFieldShape;
export const mciIncidentFieldsSchema = z.strictObject(mciIncidentFieldShape).partial();
export const MCI_INCIDENT_REQUIRED_ON_CREATE: readonly MciIncidentField[] = ['startedAt'];

export const mciIncidentRecordSchema = ownedRecordSchema({
  incidentId: z.string(),
  ...mciIncidentFieldShape,
});
export type MciIncidentRecord = z.output<typeof mciIncidentRecordSchema>;

/** Who may open, change and see incidents (spec §6: multiPatient, multiPatientLogs). */
export const MCI_ACCESS = {
  module: 'multiPatient',
  logModule: 'multiPatientLogs',
  viewAction: 'view',
  // Whoever may triage must see the incidents to add casualties to them.
  seeAllWith: ['multiPatient', 'create'],
} as const satisfies FamilyAccess;

const mciIncidentKind = {
  kind: 'mciIncident',
  label: 'mass-casualty incident',
  table: 'mciIncidents',
  sqlTable: 'mci_incidents',
  record: mciIncidentRecordSchema,
  defaults: {
    resources: [],
    status: 'in_progress',
    completedAt: null,
  } as Partial<MciIncidentRecord>,
  lww: true,
  humanId: { column: 'incidentId', prefix: 'I' },
  access: MCI_ACCESS,
  numericColumns: ['latitude', 'longitude'],
  device: { indexes: 'incidentId' },
} as const satisfies Omit<RecordDefinition<MciIncidentRecord>, 'mutators'>;

export const mciIncidentRecord = defineRecord({
  ...mciIncidentKind,
  mutators: [
    upsertMutator(mciIncidentKind, mciIncidentFieldsSchema, {
      requiredOnCreate: MCI_INCIDENT_REQUIRED_ON_CREATE,
    }),
  ],
});
