// GET /api/incident-reports: the reports a user may read (the kind's access rule, the one pull
// uses: platform/access.ts canSeeAll), newest first, filtered as incidents/api.ts says, paged
// by keyset on (created_at, id). Words match case-insensitively (the device also ignores
// accents; the server does not).
import { sql, type Expression, type Kysely, type SqlBool } from 'kysely';
import { z } from 'zod';
import type { Database } from '@rescuelog/db/schema';
import type { User } from '@rescuelog/sync-protocol/accounts/users';
import { caseSearchDateBounds } from '@rescuelog/sync-protocol/cases/search';
import { ErrorCode } from '@rescuelog/sync-protocol/errors';
import type { IncidentReportListQuery } from '@rescuelog/sync-protocol/incidents/api';
import {
  incidentReportRecord,
  incidentReportRecordSchema,
  type IncidentReportRecord,
} from '@rescuelog/sync-protocol/incidents/incident-report';
import { canSeeAll } from '@rescuelog/sync-protocol/platform/access';
import { checkIsoInstant, serviceTimeZone } from '@rescuelog/sync-protocol/time';
import { ApiError } from '../lib/api-error';
import { toWireRecord } from './sync/sync-tables';

const positionSchema = z.tuple([
  z.string().regex(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}Z$/),
  z.uuid(),
]);

const invalidCursor = () =>
  new ApiError(400, ErrorCode.VALIDATION_FAILED, 'Invalid input', {
    fieldErrors: { cursor: ['Invalid input'] },
  });

function decodeCursor(cursor: string): [string, string] {
  if (!/^[A-Za-z0-9_-]+$/.test(cursor)) throw invalidCursor();
  let json: unknown;
  try {
    json = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
  } catch {
    throw invalidCursor();
  }
  const parsed = positionSchema.safeParse(json);
  if (!parsed.success || !checkIsoInstant(parsed.data[0]).ok) throw invalidCursor();
  return parsed.data;
}

const like = (value: string) => `%${value.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

export async function listIncidentReports(
  db: Kysely<Database>,
  user: Pick<User, 'id' | 'role' | 'permissions'>,
  q: IncidentReportListQuery,
): Promise<{ reports: IncidentReportRecord[]; nextCursor: string | null }> {
  const access = incidentReportRecord.access;
  const conditions: Expression<SqlBool>[] = [sql<boolean>`deleted_at is null`];
  if (!access || !canSeeAll(user, access)) conditions.push(sql<boolean>`user_id = ${user.id}`);
  if (q.incidentType) conditions.push(sql<boolean>`incident_type = ${q.incidentType}`);
  if (q.priority) conditions.push(sql<boolean>`priority = ${q.priority}`);
  if (q.status) conditions.push(sql<boolean>`status = ${q.status}`);
  for (const word of (q.q ?? '').split(/\s+/).filter(Boolean))
    conditions.push(
      sql<boolean>`lower(concat_ws(' ', incident_id, title, description, location, responder_name, responder_call_sign)) like ${like(word)}`,
    );
  for (const word of (q.responder ?? '').split(/\s+/).filter(Boolean))
    conditions.push(
      sql<boolean>`lower(concat_ws(' ', responder_name, responder_call_sign)) like ${like(word)}`,
    );
  const { fromMs, toMs } = caseSearchDateBounds(q, serviceTimeZone());
  if (fromMs !== null)
    conditions.push(sql<boolean>`created_at >= ${new Date(fromMs).toISOString()}::timestamptz`);
  if (toMs !== null)
    conditions.push(sql<boolean>`created_at < ${new Date(toMs).toISOString()}::timestamptz`);
  if (q.cursor !== undefined) {
    const [at, id] = decodeCursor(q.cursor);
    conditions.push(sql<boolean>`(created_at, id) < (${at}::timestamptz, ${id}::uuid)`);
  }
  const rows = await db
    .selectFrom('incidentReports')
    .selectAll()
    .select(
      sql<string>`to_char(created_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"')`.as(
        'position',
      ),
    )
    .where((eb) => eb.and(conditions))
    .orderBy(sql`created_at desc, id desc`)
    .limit(q.limit + 1)
    .execute();
  const page = rows.slice(0, q.limit);
  const last = page.at(-1);
  return {
    reports: page.map(({ position: _position, ...row }) =>
      incidentReportRecordSchema.parse(toWireRecord(incidentReportRecord, row)),
    ),
    nextCursor:
      rows.length > q.limit && last
        ? Buffer.from(JSON.stringify([last.position, String(last.id)]), 'utf8').toString(
            'base64url',
          )
        : null,
  };
}
