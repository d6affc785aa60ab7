// Reading PostgreSQL errors the same way from both drivers (pg's DatabaseError and PGlite's
// have the same fields), so callers can map e.g. a duplicate email to a 409.

export interface DatabaseErrorInfo {
  /** SQLSTATE, e.g. '23505'. */
  code: string;
  constraint: string | undefined;
  table: string | undefined;
  detail: string | undefined;
}

export const SQLSTATE = {
  UNIQUE_VIOLATION: '23505',
  FOREIGN_KEY_VIOLATION: '23503',
  NOT_NULL_VIOLATION: '23502',
  CHECK_VIOLATION: '23514',
  NUMERIC_OUT_OF_RANGE: '22003',
  RAISE_EXCEPTION: 'P0001',
} as const;

/** Names of the unique constraints and indexes the application may need to tell apart. */
export const UNIQUE_KEYS = {
  userEmail: 'users_email_lower_key',
  roleName: 'roles_name_key',
  caseId: 'cases_case_id_key',
  cprSessionId: 'cpr_sessions_session_id_key',
  incidentReportId: 'incident_reports_incident_id_key',
  mciIncidentId: 'mci_incidents_incident_id_key',
  pushEndpoint: 'push_subscriptions_endpoint_key',
  notificationDelivery: 'notification_deliveries_notification_user_key',
  uploadToken: 'uploads_token_hash_key',
} as const;

function field(error: object, name: string): string | undefined {
  const value = (error as Record<string, unknown>)[name];
  return typeof value === 'string' ? value : undefined;
}

/** The database error's details, or undefined when `error` is not a database error. */
export function databaseError(error: unknown): DatabaseErrorInfo | undefined {
  if (typeof error !== 'object' || error === null) return undefined;
  const code = field(error, 'code');
  // SQLSTATEs are five characters; Node system errors (ECONNREFUSED…) are not.
  if (!code || !/^[0-9A-Z]{5}$/.test(code)) return undefined;
  return {
    code,
    constraint: field(error, 'constraint'),
    table: field(error, 'table'),
    detail: field(error, 'detail'),
  };
}

/** True for a unique violation, optionally only of the named constraint or index. */
export function isUniqueViolation(error: unknown, constraint?: string): boolean {
  const info = databaseError(error);
  if (!info || info.code !== SQLSTATE.UNIQUE_VIOLATION) return false;
  return constraint === undefined || info.constraint === constraint;
}
