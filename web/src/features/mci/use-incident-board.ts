// One incident as its command board shows it, live from the device's database: the
// incident, each casualty with its current colour and any disagreement (from its triage
// rows), the counts derived from those rows, and who is working it with when the server
// last stored something of theirs. Re-renders on every change (this tab, a pull).
import type { TriageColour } from '@rescuelog/sync-protocol/cases/clinical';
import {
  COLOUR_PRIORITY,
  incidentCounts,
  triageRowsByCasualty,
  triageState,
  type CasualtyTriageState,
  type IncidentCounts,
  type TriageRow,
} from '@rescuelog/sync-protocol/mci/triage';
import type { AppLocalRecord } from '@rescuelog/sync-protocol/records/registry';
import { useMemo } from 'react';
import { useLocalList, useLocalRecord } from '@/lib/sync/use-local-records';

export type IncidentRecord = AppLocalRecord<'mciIncident'>;
export type CasualtyRecord = AppLocalRecord<'mciCasualty'>;

export interface BoardRow {
  casualty: CasualtyRecord;
  tag: string;
  colour: TriageColour;
  triage: CasualtyTriageState;
  transported: boolean;
  assignedTo: string | null;
}

export interface Responder {
  userId: number;
  name: string;
  /** The newest time the server stored a row of theirs (null: nothing synced yet). */
  lastSync: string | null;
  casualties: number;
}

export interface IncidentBoard {
  incident: IncidentRecord;
  rows: BoardRow[];
  counts: IncidentCounts;
  responders: Responder[];
}

function toTriageRow(r: AppLocalRecord<'mciTriage'>): TriageRow | null {
  if (!r.mciCasualtyId || !r.colour || !r.triagedAt) return null;
  return {
    id: r.id,
    mciCasualtyId: r.mciCasualtyId,
    colour: r.colour,
    triagedAt: r.triagedAt,
    previousTriageIds: r.previousTriageIds ?? [],
    userId: r.userId,
    responderName: r.responderName ?? null,
    method: r.method,
    proposedColour: r.proposedColour ?? null,
  };
}

/** undefined while loading, null when the device does not hold the incident. */
export function useIncidentBoard(id: string | undefined): IncidentBoard | null | undefined {
  const incident = useLocalRecord('mciIncident', id);
  const casualties = useLocalList(
    'mciCasualty',
    id ? { where: 'mciIncidentId', equals: id } : undefined,
  );
  const triages = useLocalList(
    'mciTriage',
    id ? { where: 'mciIncidentId', equals: id } : undefined,
  );
  return useMemo(() => {
    if (incident === undefined || casualties === undefined || triages === undefined)
      return undefined;
    if (incident === null) return null;
    const rowsByCasualty = triageRowsByCasualty(
      triages.records.map(toTriageRow).filter((r): r is TriageRow => r !== null),
    );
    const rows: BoardRow[] = casualties.records.map((casualty) => {
      const triage = triageState(
        casualty.triageColour ?? 'RED',
        rowsByCasualty.get(casualty.id) ?? [],
      );
      return {
        casualty,
        tag: casualty.tagNumber ?? '?',
        colour: triage.colour,
        triage,
        transported: casualty.transported === true,
        assignedTo: casualty.assignedTo ?? null,
      };
    });
    const counts = incidentCounts(rows.map((r) => ({ ...r, conflict: r.triage.conflict })));
    return {
      incident,
      rows,
      counts,
      responders: respondersOf(incident, casualties.records, triages.records),
    };
  }, [incident, casualties, triages]);
}

function respondersOf(
  incident: IncidentRecord,
  casualties: readonly CasualtyRecord[],
  triages: readonly AppLocalRecord<'mciTriage'>[],
): Responder[] {
  const byUser = new Map<number, Responder>();
  const see = (
    userId: number | undefined,
    synced: boolean,
    at: string | undefined,
    name?: string | null,
  ) => {
    if (userId === undefined) return;
    const r = byUser.get(userId) ?? { userId, name: '', lastSync: null, casualties: 0 };
    if (name && !r.name) r.name = name;
    if (synced && at && (r.lastSync === null || at > r.lastSync)) r.lastSync = at;
    byUser.set(userId, r);
  };
  const synced = (row: { version?: string | null | undefined }) =>
    row.version !== null && row.version !== undefined;
  see(incident.userId, synced(incident), incident.updatedAt);
  for (const c of casualties) {
    see(c.userId, synced(c), c.updatedAt);
    const r = c.userId === undefined ? undefined : byUser.get(c.userId);
    if (r) r.casualties += 1;
  }
  for (const t of triages) see(t.userId, synced(t), t.updatedAt, t.responderName);
  return [...byUser.values()].sort((a, b) => (b.lastSync ?? '').localeCompare(a.lastSync ?? ''));
}

export type BoardSort = 'priority' | 'status' | 'tag';

/** The casualty list in the order chosen: priority (most urgent first), status (on scene
 * before transported, then priority), or tag. */
export function sortBoard(rows: readonly BoardRow[], sort: BoardSort): BoardRow[] {
  const byTag = (a: BoardRow, b: BoardRow) =>
    a.tag.localeCompare(b.tag, undefined, { numeric: true, sensitivity: 'base' });
  const byPriority = (a: BoardRow, b: BoardRow) =>
    COLOUR_PRIORITY[a.colour] - COLOUR_PRIORITY[b.colour] || byTag(a, b);
  const sorted = [...rows];
  if (sort === 'tag') return sorted.sort(byTag);
  if (sort === 'priority') return sorted.sort(byPriority);
  return sorted.sort((a, b) => Number(a.transported) - Number(b.transported) || byPriority(a, b));
}
