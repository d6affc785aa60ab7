// GET /api/cases: case search for Cases Logged and the dashboard's Recent Cases. The filters
// mean exactly what sync-protocol/src/cases/search.ts says (the device runs that matcher over
// its own cases); here they become SQL that the indexes of migrations
// 2026-11-21T0810-case-search, 0830 and 0840 answer (docs/decisions/010-case-search.md).
// Pages are keyset pages in the list's order (created_at desc, case_id desc): the cursor is
// the last row's position, so a page never skips or repeats a row when cases are added meanwhile.
import { sql, type Expression, type Kysely, type RawBuilder, type SqlBool } from 'kysely';
import { z } from 'zod';
import type { Database } from '@rescuelog/db/schema';
import {
  caseSearchDateBounds,
  foldCaseNumber,
  foldText,
} from '@rescuelog/sync-protocol/cases/search';
import type { CaseSearchQuery, CaseSummary } from '@rescuelog/sync-protocol/cases/api';
import { ErrorCode } from '@rescuelog/sync-protocol/errors';
import { canSeeAll } from '@rescuelog/sync-protocol/platform/access';
import { CASE_ACCESS } from '@rescuelog/sync-protocol/cases/case';
import type { User } from '@rescuelog/sync-protocol/accounts/users';
import { ApiError } from '../lib/api-error';
import { checkIsoInstant, serviceTimeZone } from '@rescuelog/sync-protocol/time';

/**
 * Who sees which cases: the case family's rule (platform/access.ts canSeeAll with CASE_ACCESS,
 * the rule pull, GET /api/cases/:caseId and the FHIR export use): an explicit casesLogged view
 * grant (a role's or the user's own entry) or an administrator sees every case; anyone else
 * only the cases they logged (decision 024).
 */
export function canSeeAllCases(user: Pick<User, 'role' | 'permissions'>): boolean {
  return canSeeAll(user, CASE_ACCESS);
}

/** A row's position in the list: created_at to the microsecond (UTC) and case_id. */
interface CasePosition {
  createdAt: string;
  caseId: string;
}

const positionSchema = z.tuple([
  z.string().regex(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}Z$/),
  z.string().min(1).max(100),
]);

/** The opaque cursor: base64url of the JSON pair [createdAt, caseId]. */
export function encodeCaseCursor(p: CasePosition): string {
  return Buffer.from(JSON.stringify([p.createdAt, p.caseId]), 'utf8').toString('base64url');
}

const invalidCursor = () =>
  new ApiError(400, ErrorCode.VALIDATION_FAILED, 'Invalid input', {
    fieldErrors: { cursor: ['Invalid input'] },
  });

export function decodeCaseCursor(cursor: string): CasePosition {
  if (!/^[A-Za-z0-9_-]+$/.test(cursor)) throw invalidCursor();
  let json: unknown;
  try {
    json = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
  } catch {
    throw invalidCursor();
  }
  const parsed = positionSchema.safeParse(json);
  // A real instant the database can compare with (a forged year 0000 would be a 500).
  if (!parsed.success || !checkIsoInstant(parsed.data[0]).ok) throw invalidCursor();
  return { createdAt: parsed.data[0], caseId: parsed.data[1] };
}

/** LIKE pattern text with its wildcards escaped (the default escape character, backslash). */
function likeText(value: string): string {
  return value.replace(/[\\%_]/g, (c) => `\\${c}`);
}

/**
 * The responder filter's text: name and call sign joined by U+001F, folded. A pattern without
 * U+001F is in it exactly when it is in the name or in the call sign (it cannot span the
 * separator, and a missing field adds nothing a non-empty pattern could match). The same
 * expression as the indexes of migration 2026-11-21T0840-case-search-short-patterns.
 */
const RESPONDER_TEXT = sql<string>`lower(coalesce(responder_name, '') || E'\\x1f' || coalesce(responder_call_sign, ''))`;
const RESPONDER_SEPARATOR = '\u001f';

/**
 * `text` contains `folded` (already folded, not empty), in the form an index answers:
 * - three characters or more: LIKE '%…%', which pg_trgm's trigram index answers;
 * - one or two characters (no trigram to look up): case_search_grams(text) holds every
 *   substring of one and two characters, so `@> array[folded]` is the whole test and its
 *   GIN index answers it. strpos() tests the same thing cheaply for a scan in date order
 *   (evaluated first; the grams are then computed only for rows that match), and the planner
 *   counts `strpos(…) <> 0` as nearly always true, so its estimate is the grams' alone
 *   (a LIKE beside it would be counted twice and make a common call sign look rare).
 * Both forms also work without pg_trgm (the LIKE then filters a scan).
 */
function contains(text: RawBuilder<string>, folded: string): Expression<SqlBool> {
  if ([...folded].length <= 2)
    return sql<boolean>`(strpos(${text}, ${folded}) <> 0 and case_search_grams(${text}) @> array[${folded}::text])`;
  return sql<boolean>`${text} like ${`%${likeText(folded)}%`}`;
}

export interface CaseSearchPage {
  cases: CaseSummary[];
  /** The cursor of the next page; null on the last page. */
  nextCursor: string | null;
}

export async function searchCases(
  db: Kysely<Database>,
  user: Pick<User, 'id' | 'role' | 'permissions'>,
  q: CaseSearchQuery,
  timeZone: string = serviceTimeZone(),
): Promise<CaseSearchPage> {
  const conditions: Expression<SqlBool>[] = [sql<boolean>`deleted_at is null`];
  if (q.mine || !canSeeAllCases(user)) conditions.push(sql<boolean>`user_id = ${user.id}`);
  if (q.caseId !== undefined) {
    // Twin of foldCaseNumber(); the expression matches cases_search_case_number_idx.
    conditions.push(
      sql<boolean>`translate(upper(case_id), 'OIL- ', '011') like ${`${likeText(foldCaseNumber(q.caseId))}%`}`,
    );
  }
  if (q.patientName !== undefined)
    conditions.push(contains(sql<string>`lower(patient_name)`, foldText(q.patientName)));
  if (q.incidentType !== undefined)
    conditions.push(sql<boolean>`lower(incident_type) = ${foldText(q.incidentType)}`);
  if (q.status !== undefined) conditions.push(sql<boolean>`status = ${q.status}`);
  if (q.responder !== undefined) {
    const folded = foldText(q.responder);
    if (!folded.includes(RESPONDER_SEPARATOR)) conditions.push(contains(RESPONDER_TEXT, folded));
    else {
      // A pattern with the separator in it could span the two fields: test each (no index).
      const pattern = `%${likeText(folded)}%`;
      conditions.push(
        sql<boolean>`(lower(responder_name) like ${pattern} or lower(responder_call_sign) like ${pattern})`,
      );
    }
  }
  const { fromMs, toMs } = caseSearchDateBounds(q, timeZone);
  if (fromMs !== null)
    conditions.push(sql<boolean>`created_at >= ${new Date(fromMs).toISOString()}::timestamptz`);
  if (toMs !== null)
    conditions.push(sql<boolean>`created_at < ${new Date(toMs).toISOString()}::timestamptz`);
  if (q.cursor !== undefined) {
    const after = decodeCaseCursor(q.cursor);
    conditions.push(
      sql<boolean>`(created_at, case_id collate "C") < (${after.createdAt}::timestamptz, ${after.caseId})`,
    );
  }

  const rows = await db
    .selectFrom('cases')
    .select([
      'id',
      'caseId',
      'patientName',
      'incidentType',
      'status',
      'createdAt',
      'completedAt',
      'userId',
      'responderName',
      'responderCallSign',
      sql<string>`to_char(created_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"')`.as(
        'position',
      ),
    ])
    .where((eb) => eb.and(conditions))
    .orderBy(sql`created_at desc, case_id collate "C" desc`)
    .limit(q.limit + 1)
    .execute();

  const page = rows.slice(0, q.limit);
  const last = page.at(-1);
  return {
    cases: page.map((row) => ({
      id: String(row.id),
      caseId: row.caseId,
      patientName: row.patientName,
      incidentType: row.incidentType,
      status: row.status,
      createdAt: row.createdAt.toISOString(),
      completedAt: row.completedAt ? row.completedAt.toISOString() : null,
      userId: row.userId,
      responderName: row.responderName,
      responderCallSign: row.responderCallSign,
    })),
    nextCursor:
      rows.length > q.limit && last
        ? encodeCaseCursor({ createdAt: last.position, caseId: last.caseId })
        : null,
  };
}
