// GET /api/cases: case summaries for the dashboard's Recent Cases and the case list.
import type { Kysely } from 'kysely';
import type { Database } from '@rescuelog/db/schema';
import type { CaseSummary } from '@rescuelog/sync-protocol/cases';
import { hasPermission } from '@rescuelog/sync-protocol/permissions';
import type { User } from '@rescuelog/sync-protocol/users';

/**
 * Who sees which cases: a user allowed `casesLogged.view` by the §6 check rule (applied to
 * their effective permissions: role entries overridden by their own) sees every case; anyone
 * else sees only the cases they logged. Under that rule a user with no casesLogged entry may
 * view, so this narrows the list only for users whose casesLogged entry withholds view.
 */
export function canSeeAllCases(user: Pick<User, 'role' | 'permissions'>): boolean {
  return hasPermission(user, 'casesLogged', 'view');
}

export async function listCaseSummaries(db: Kysely<Database>, user: Pick<User, 'id' | 'role' | 'permissions'>, limit: number): Promise<CaseSummary[]> {
  let query = db
    .selectFrom('cases')
    .select(['id', 'caseId', 'patientName', 'incidentType', 'status', 'createdAt', 'completedAt', 'userId'])
    .where('deletedAt', 'is', null);
  if (!canSeeAllCases(user)) query = query.where('userId', '=', user.id);
  const rows = await query.orderBy('createdAt', 'desc').orderBy('caseId', 'desc').limit(limit).execute();
  return rows.map((row) => ({
    id: String(row.id),
    caseId: row.caseId,
    patientName: row.patientName,
    incidentType: row.incidentType,
    status: row.status,
    createdAt: row.createdAt.toISOString(),
    completedAt: row.completedAt ? row.completedAt.toISOString() : null,
    userId: row.userId,
  }));
}
