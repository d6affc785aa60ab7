// Every write of incident command, each one synced mutation through the one write path
// (lib/records/record-writes.ts createRecord, sync-session saveChange): declare, tag a
// casualty, re-triage, change a casualty's fields, close, and open a patient case from a
// casualty. All of them work offline; the shared mutators refuse what the server would.
import type { TriageColour } from '@rescuelog/sync-protocol/cases/clinical';
import type { TriageMethod } from '@rescuelog/sync-protocol/mci/triage';
import type { AppMutationArgs } from '@rescuelog/sync-protocol/records/registry';
import { createRecord, newRecordId } from '@/lib/records/record-writes';
import { requireSyncSession, saveChange } from '@/lib/sync/sync-session';

function actor() {
  return requireSyncSession().userId;
}

/** Declares an incident now (one tap): its number is made on the device. */
export async function declareIncident(
  fields: AppMutationArgs<'mciIncident.upsert'>['fields'] = {},
): Promise<{ id: string; incidentId: string }> {
  const { id, humanId } = await createRecord('mciIncident', {
    startedAt: new Date().toISOString(),
    majorIncident: true,
    ...fields,
  });
  if (!humanId) throw new Error('An incident has a number');
  return { id, incidentId: humanId };
}

export interface TriageInput {
  colour: TriageColour;
  method: TriageMethod;
  proposedColour?: TriageColour | null;
  answers?: Record<string, string>;
}

/** Tags a casualty: its row, and its first triage row (the assistant's answers if any). */
export async function addCasualty(
  mciIncidentId: string,
  tagNumber: string,
  triage: TriageInput,
  extra: { description?: string | null; location?: string | null } = {},
): Promise<string> {
  const id = newRecordId();
  const actorUserId = actor();
  await saveChange({
    name: 'mciCasualty.record',
    args: {
      id,
      mciIncidentId,
      tagNumber: tagNumber.trim(),
      triageColour: triage.colour,
      description: extra.description ?? null,
      location: extra.location ?? null,
    },
    baseVersion: null,
    actorUserId,
  });
  await retriage(mciIncidentId, id, [], triage);
  return id;
}

/** A triage row on top of the rows the device shows as current (never an overwrite). */
export async function retriage(
  mciIncidentId: string,
  mciCasualtyId: string,
  previousTriageIds: readonly string[],
  triage: TriageInput,
): Promise<void> {
  await saveChange({
    name: 'mciTriage.record',
    args: {
      id: newRecordId(),
      mciIncidentId,
      mciCasualtyId,
      colour: triage.colour,
      method: triage.method,
      proposedColour: triage.proposedColour ?? null,
      answers: triage.answers ?? {},
      previousTriageIds: [...previousTriageIds],
      triagedAt: new Date().toISOString(),
    },
    baseVersion: null,
    actorUserId: actor(),
  });
}

export async function updateCasualty(
  casualty: { id: string; version?: string | null | undefined },
  fields: AppMutationArgs<'mciCasualty.update'>['fields'],
): Promise<void> {
  await saveChange({
    name: 'mciCasualty.update',
    args: { id: casualty.id, fields },
    baseVersion: casualty.version ?? null,
    actorUserId: actor(),
  });
}

export async function closeIncident(id: string): Promise<void> {
  await saveChange({
    name: 'mciIncident.close',
    args: { id, endedAt: new Date().toISOString() },
    baseVersion: null,
    actorUserId: actor(),
  });
}

/**
 * A full patient case for a casualty, prefilled from it and its incident (a multi-patient
 * case with the tag and colour), linked back from the casualty. Returns the case number.
 */
export async function createCaseFromCasualty(
  casualty: { id: string; version?: string | null | undefined; tagNumber?: string | undefined },
  colour: TriageColour,
  incident: { incidentType?: string | null | undefined; incidentId?: string | undefined },
  responder: { fullName: string; callSign: string | null },
  description: string | null,
): Promise<string> {
  const tag = casualty.tagNumber ?? '';
  const { id, humanId } = await createRecord('case', {
    isMultiPatientIncident: true,
    multiPatientIncidentType: incident.incidentType ?? null,
    multiPatientDescription: [
      `Incident ${incident.incidentId ?? ''}, casualty tag ${tag}`,
      description?.trim() ?? '',
    ]
      .filter(Boolean)
      .join(': '),
    triageStatus: colour,
    ...(responder.fullName.trim() ? { responderName: responder.fullName.trim() } : {}),
    ...(responder.callSign?.trim() ? { responderCallSign: responder.callSign.trim() } : {}),
  });
  if (!humanId) throw new Error('A case has a case number');
  await updateCasualty(casualty, { caseId: id });
  return humanId;
}
