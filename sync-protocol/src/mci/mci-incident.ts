// mciIncident: a mass-casualty incident with its METHANE report; casualties and their
// triage are their own rows (mci-casualty.ts, mci-triage.ts)
import { z } from 'zod';
import '../zod-config';
import { RECORD_STATUSES } from '../cases/clinical';
import { int, nBool, nShort, nLong, nTime } from '../platform/field-types';
import { defineMutator } from '../platform/mutator';
import { defineRecord, type FamilyAccess, type RecordDefinition } from '../platform/record';
import { Rejection, RejectionCode, type RejectionDetails } from '../platform/rejections';
import { upsertMutator } from '../platform/verbs';
import {
  jsonValueSchema,
  latitudeSchema,
  longitudeSchema,
  timestampSchema,
  ownedRecordSchema,
  uuidSchema,
} from '../platform/values';
import {
  countsForCase,
  incidentCounts,
  TRIAGE_SCALES,
  triageRowsByCasualty,
  triageState,
  type TriageRow,
} from './triage';
import type { TriageColour } from '../cases/clinical';
import type { MutatorTx, Row } from '../platform/mutator';

const mciIncidentFieldShape = {
  incidentType: nShort,
  description: nLong,
  /** METHANE E: exact location (typed, or from GPS below). */
  location: nShort,
  latitude: latitudeSchema.nullable(),
  longitude: longitudeSchema.nullable(),
  startedAt: timestampSchema,
  endedAt: nTime,
  resources: z.array(jsonValueSchema).max(1000),
  status: z.enum(RECORD_STATUSES),
  completedAt: nTime,
  // SCHEMA_VERSION 8: the METHANE report and the incident's triage scale (decision 070).
  /** METHANE M: major incident declared (true), standby (false), not said (null). */
  majorIncident: nBool,
  hazards: nLong,
  access: nLong,
  /** METHANE N as estimated on arrival; the board counts the casualty rows. */
  casualtyEstimate: int(0, 100_000).nullable(),
  emergencyServices: nLong,
  triageScale: z.enum(TRIAGE_SCALES),
};
type MciIncidentField = keyof typeof mciIncidentFieldShape;
/** What an upsert may write: the status and the end are the close mutation's (below). */
export const mciIncidentFieldsSchema = z
  .strictObject(mciIncidentFieldShape)
  .omit({ status: true, completedAt: true, endedAt: true })
  .partial();
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
  // At an incident, whoever may edit multi-patient records keeps the METHANE report and
  // the casualties up to date, whoever opened them.
  changeAnyWith: ['multiPatient', 'edit'],
} as const satisfies FamilyAccess;

/** A closed incident is locked like a completed case. */
export function isIncidentClosed(row: { status?: unknown }): boolean {
  return row.status === 'completed';
}

export const INCIDENT_CLOSED_MESSAGE = 'The incident is closed: nothing can be added or changed.';

/** The refusal of a change to a closed incident (INVALID_STATE, reason INCIDENT_CLOSED). */
export function incidentClosedRejection(id: string): Rejection {
  const details: RejectionDetails = { id, reason: 'INCIDENT_CLOSED' };
  return new Rejection(RejectionCode.INVALID_STATE, INCIDENT_CLOSED_MESSAGE, details);
}

const mciIncidentKind = {
  kind: 'mciIncident',
  label: 'mass-casualty incident',
  fieldLabels: {
    incidentType: 'Type',
    location: 'Exact location',
    majorIncident: 'Major incident',
    hazards: 'Hazards',
    access: 'Access',
    casualtyEstimate: 'Number of casualties (estimate)',
    emergencyServices: 'Emergency services',
  },
  table: 'mciIncidents',
  sqlTable: 'mci_incidents',
  record: mciIncidentRecordSchema,
  defaults: {
    resources: [],
    status: 'in_progress',
    completedAt: null,
    endedAt: null,
    majorIncident: null,
    hazards: null,
    access: null,
    casualtyEstimate: null,
    emergencyServices: null,
    triageScale: 'START',
  } as Partial<MciIncidentRecord>,
  lww: true,
  humanId: { column: 'incidentId', prefix: 'I' },
  access: MCI_ACCESS,
  lock: { isLocked: isIncidentClosed, code: RejectionCode.INVALID_STATE },
  numericColumns: ['latitude', 'longitude'],
  device: { indexes: 'incidentId, startedAt' },
} as const satisfies Omit<RecordDefinition<MciIncidentRecord>, 'mutators'>;

/** `mciIncident.close { id, endedAt }`: ends the incident and locks it; a second close is refused. */
export const mciIncidentClose = defineMutator({
  name: 'mciIncident.close',
  label: 'Incident closed',
  kind: 'mciIncident',
  args: z.strictObject({ id: uuidSchema, endedAt: timestampSchema }),
  entityIds: (a) => [a.id],
  async apply(tx, a) {
    const row = await tx.require('mciIncident', a.id, 'change');
    if (isIncidentClosed(row))
      throw new Rejection(RejectionCode.INVALID_STATE, 'The incident is already closed.', {
        id: a.id,
        reason: 'INCIDENT_ALREADY_CLOSED',
      });
    if (typeof row.startedAt === 'string' && a.endedAt < row.startedAt)
      throw new Rejection(RejectionCode.VALIDATION_FAILED, 'The end is before the start.', {
        id: a.id,
        reason: 'ENDED_BEFORE_START',
      });
    await tx.update('mciIncident', a.id, {
      status: 'completed',
      endedAt: a.endedAt,
      completedAt: a.endedAt,
    });
    await fillLinkedCases(tx, row, a.endedAt);
  },
});

const live = (r: Row) => r.deletedAt === null || r.deletedAt === undefined;

/**
 * The multi-patient fields (spec §3) of every case linked from a casualty, from the incident
 * as it closed: type, duration, total, counts by colour and the other casualties. A completed
 * (locked) case is left as it is: its record is signed; an addendum corrects it.
 */
async function fillLinkedCases(tx: MutatorTx, incident: Row, endedAt: string): Promise<void> {
  const id = String(incident.id);
  const casualties = (await tx.list('mciCasualty', 'mciIncidentId', id)).filter(live);
  const linked = casualties.filter((c) => typeof c.caseId === 'string');
  if (linked.length === 0) return;
  const byCasualty = triageRowsByCasualty(
    (await tx.list('mciTriage', 'mciIncidentId', id)).filter(live) as unknown as TriageRow[],
  );
  const rows = casualties.map((c) => ({
    casualty: c,
    colour: triageState(c.triageColour as TriageColour, byCasualty.get(String(c.id)) ?? []).colour,
  }));
  const counts = incidentCounts(
    rows.map((r) => ({
      colour: r.colour,
      transported: r.casualty.transported === true,
      assignedTo: typeof r.casualty.assignedTo === 'string' ? r.casualty.assignedTo : null,
    })),
  );
  const started = typeof incident.startedAt === 'string' ? Date.parse(incident.startedAt) : NaN;
  const duration = Number.isNaN(started)
    ? null
    : Math.max(0, Math.round((Date.parse(endedAt) - started) / 1000));
  const fields = {
    isMultiPatientIncident: true,
    multiPatientIncidentType:
      typeof incident.incidentType === 'string' ? incident.incidentType : null,
    incidentDuration: duration === null ? null : Math.min(duration, 10_000_000),
    totalPatients: counts.total,
    triageCounts: countsForCase(counts),
    // In tag order (numbers as numbers: L-2 before L-10), the same on every database.
    incidentPatients: rows
      .map((r) => ({
        tag: String(r.casualty.tagNumber ?? ''),
        colour: r.colour,
        transported: r.casualty.transported === true,
      }))
      .sort((a, b) => a.tag.localeCompare(b.tag, 'en', { numeric: true })),
  };
  for (const c of linked) {
    const linkedCase = await tx.get('case', String(c.caseId));
    if (!linkedCase || !live(linkedCase) || linkedCase.status === 'completed') continue;
    await tx.update('case', String(c.caseId), fields);
  }
}

/** Views, prints and PDFs of an incident's record, for the audit log (like case.access): it
 * changes no record, and is recorded on the device so access offline reaches the server. */
export const MCI_ACCESS_ACTIONS = ['view', 'print', 'pdf'] as const;
export const mciIncidentAccess = defineMutator({
  name: 'mciIncident.access',
  label: 'Incident access record',
  kind: 'mciIncident',
  accessRecord: true,
  args: z.strictObject({
    id: uuidSchema,
    mciIncidentId: uuidSchema,
    action: z.enum(MCI_ACCESS_ACTIONS),
  }),
  entityIds: (a) => [a.id],
  async apply(tx, a) {
    const row = await tx.get('mciIncident', a.mciIncidentId);
    if (!row) throw tx.notFound('mciIncident', a.mciIncidentId);
    tx.authorize('mciIncident', 'see', row);
    await tx.recordAccess({
      id: a.id,
      kind: 'mciIncident',
      recordId: a.mciIncidentId,
      action: a.action,
    });
  },
});

export const mciIncidentRecord = defineRecord({
  ...mciIncidentKind,
  mutators: [
    upsertMutator(mciIncidentKind, mciIncidentFieldsSchema, {
      requiredOnCreate: MCI_INCIDENT_REQUIRED_ON_CREATE,
    }),
    mciIncidentClose,
    mciIncidentAccess,
  ],
});
