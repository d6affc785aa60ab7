// Every change an incident report screen makes: created and edited on the kit's one write
// path (lib/records/record-writes.ts), completed and corrected with the report's own
// mutations (incidentReport.complete, incidentReport.addendum) through saveLocalChange. Each
// is one synced mutation stored on the device at once and pushed when there is signal.
import type { IncidentReportType } from '@rescuelog/sync-protocol/incidents/incident-types';
import type { IncidentReportRecord } from '@rescuelog/sync-protocol/incidents/incident-report';
import { INCIDENT_REPORT_CORRECTABLE_FIELDS } from '@rescuelog/sync-protocol/incidents/incident-report-addendum';
import { rememberAuthor } from '@rescuelog/sync-protocol/client/device-store';
import { jsonValueSchema } from '@rescuelog/sync-protocol/platform/values';
import type { AppLocalRecord } from '@rescuelog/sync-protocol/records/registry';
import type { z } from 'zod';
import { createRecord, newRecordId } from '@/lib/records/record-writes';
import { requireSyncSession, saveLocalChange } from '@/lib/sync/sync-session';

export type LocalReport = AppLocalRecord<'incidentReport'>;
export type LocalReportAddendum = AppLocalRecord<'incidentReportAddendum'>;

/** A new report of `type` on the device (device-generated incident number), its responder
 * the signed-in user. Returns its id. */
export async function createIncidentReport(
  type: IncidentReportType,
  responder: { fullName: string; callSign: string | null },
): Promise<string> {
  const name = responder.fullName.trim();
  const callSign = responder.callSign?.trim() ?? '';
  const fields: Partial<IncidentReportRecord> = {
    incidentType: type,
    // To the minute, as the time fields' "Now" writes it (an end tapped a few seconds later
    // must not read as before the start).
    incidentStartTime: new Date(Math.floor(Date.now() / 60_000) * 60_000).toISOString(),
    ...(name ? { responderName: name } : {}),
    ...(callSign ? { responderCallSign: callSign } : {}),
  };
  const { id } = await createRecord('incidentReport', fields);
  return id;
}

export async function completeIncidentReport(record: Pick<LocalReport, 'id' | 'version'>) {
  const session = requireSyncSession();
  await saveLocalChange({
    name: 'incidentReport.complete',
    args: { id: record.id, completedAt: new Date().toISOString() },
    baseVersion: record.version ?? null,
    actorUserId: session.userId,
  });
}

type Correctable = (typeof INCIDENT_REPORT_CORRECTABLE_FIELDS)[number];
const CORRECTABLE = new Set<string>(INCIDENT_REPORT_CORRECTABLE_FIELDS);

export function isCorrectable(field: string): field is Correctable {
  return CORRECTABLE.has(field);
}

/** A correction to a completed report: who, when, why, each field before and after. */
export async function addIncidentReportAddendum(
  record: Pick<LocalReport, 'id' | 'version'>,
  reason: string,
  changes: readonly { field: string; before: unknown; after: unknown }[],
  author: { fullName: string; callSign: string | null },
): Promise<string> {
  const session = requireSyncSession();
  const id = newRecordId();
  await rememberAuthor(session.db, author);
  const json = (v: unknown): z.core.util.JSONType =>
    v === undefined ? null : jsonValueSchema.parse(JSON.parse(JSON.stringify(v)));
  await saveLocalChange({
    name: 'incidentReport.addendum',
    args: {
      id,
      incidentReportId: record.id,
      reason,
      changes: changes
        .filter((c): c is { field: Correctable; before: unknown; after: unknown } =>
          isCorrectable(c.field),
        )
        .map((c) => ({ field: c.field, before: json(c.before), after: json(c.after) })),
    },
    baseVersion: record.version ?? null,
    actorUserId: session.userId,
  });
  return id;
}
