// Internal SOPs on the device (issue 42, decision 080): every published version and every
// acknowledgement is a synced record the device holds, so the SOPs read offline once pulled.
// An SOP is the versions sharing a sopId; its current text is the highest revision.
import { hasPermission } from '@rescuelog/sync-protocol/permissions';
import { userListResponseSchema, type User } from '@rescuelog/sync-protocol/accounts/users';
import type { SopFields } from '@rescuelog/sync-protocol/reference/sop';
import type { AppLocalRecord } from '@rescuelog/sync-protocol/records/registry';
import { useQuery } from '@tanstack/react-query';
import { useMemo } from 'react';
import { getJson } from '@/lib/api-client';
import { newRecordId } from '@/lib/records/record-writes';
import { requireSyncSession, saveLocalChange } from '@/lib/sync/sync-session';
import { useLocalList } from '@/lib/sync/use-local-records';

type LocalSopVersion = AppLocalRecord<'sopVersion'>;
export type SopAcknowledgement = AppLocalRecord<'sopAcknowledgement'>;

/** A version as the screens read it (a device row may lack what the server has not sent). */
export interface SopVersion {
  id: string;
  sopId: string;
  revision: number;
  title: string;
  category: string;
  body: string;
  userId: number | undefined;
  createdAt: LocalSopVersion['createdAt'];
}

function toVersion(r: LocalSopVersion): SopVersion | null {
  if (!r.sopId || r.deletedAt) return null;
  return {
    id: r.id,
    sopId: r.sopId,
    revision: r.revision ?? 0,
    title: r.title ?? '',
    category: r.category ?? '',
    body: r.body ?? '',
    userId: r.userId,
    createdAt: r.createdAt,
  };
}

export interface Sop {
  sopId: string;
  /** The current version: the highest revision. */
  latest: SopVersion;
  /** Every version, newest first. */
  versions: SopVersion[];
}

const byRevisionDesc = (a: SopVersion, b: SopVersion) => b.revision - a.revision;

export function groupSops(rows: readonly LocalSopVersion[]): Sop[] {
  const groups = new Map<string, SopVersion[]>();
  for (const row of rows) {
    const v = toVersion(row);
    if (!v) continue;
    groups.set(v.sopId, [...(groups.get(v.sopId) ?? []), v]);
  }
  return [...groups.entries()]
    .map(([sopId, list]) => {
      const sorted = [...list].sort(byRevisionDesc);
      return { sopId, latest: sorted[0] as SopVersion, versions: sorted };
    })
    .sort((a, b) => a.latest.title.localeCompare(b.latest.title));
}

/** Every SOP this device holds; undefined while loading. */
export function useSops(): Sop[] | undefined {
  const list = useLocalList('sopVersion', {});
  return useMemo(() => (list ? groupSops(list.records) : undefined), [list]);
}

/** One SOP's versions; undefined while loading, null when the device holds none. */
export function useSop(sopId: string): Sop | null | undefined {
  const list = useLocalList('sopVersion', { where: 'sopId', equals: sopId });
  return useMemo(() => {
    if (!list) return undefined;
    return groupSops(list.records)[0] ?? null;
  }, [list]);
}

export function useSopAcknowledgements(sopId: string): SopAcknowledgement[] | undefined {
  return useLocalList('sopAcknowledgement', { where: 'sopId', equals: sopId })?.records;
}

/** The signed-in user's acknowledgements of every SOP, by version id. */
export function useMyAcknowledgements(userId: number | undefined): Set<string> | undefined {
  const list = useLocalList(
    'sopAcknowledgement',
    userId === undefined ? undefined : { where: 'userId', equals: userId },
  );
  return useMemo(
    () =>
      list
        ? new Set(list.records.flatMap((r) => (r.sopVersionId ? [r.sopVersionId] : [])))
        : undefined,
    [list],
  );
}

export function canPublishSops(user: Parameters<typeof hasPermission>[0] | null | undefined) {
  return user ? hasPermission(user, 'systemAdmin', 'create') : false;
}

/** Publishes a new SOP (no sopId) or a new version of one; returns the SOP's id. */
export async function publishSop(fields: SopFields, sopId?: string): Promise<string> {
  const session = requireSyncSession();
  const id = newRecordId();
  await saveLocalChange({
    name: 'sopVersion.publish',
    args: { id, sopId: sopId ?? id, ...fields },
    baseVersion: null,
    actorUserId: session.userId,
  });
  return sopId ?? id;
}

export async function acknowledgeSop(sopVersionId: string): Promise<void> {
  const session = requireSyncSession();
  await saveLocalChange({
    name: 'sopAcknowledgement.record',
    args: { id: newRecordId(), sopVersionId },
    baseVersion: null,
    actorUserId: session.userId,
  });
}

/** For administrators: the approved accounts, to list who has not acknowledged (online). */
export function useApprovedUsers(enabled: boolean) {
  return useQuery({
    queryKey: ['/api/admin/users', 'approved'],
    queryFn: ({ signal }) =>
      getJson('/api/admin/users?status=approved', userListResponseSchema, signal),
    select: (d): User[] => d.users,
    enabled,
    staleTime: 30_000,
  });
}
