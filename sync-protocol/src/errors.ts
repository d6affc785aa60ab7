// Error codes both sides switch on. Every non-2xx JSON body from the API is an
// ApiErrorBody; the web app reads `code` to decide what to do and shows `error`.
import { z } from 'zod';
import './zod-config';

export const ErrorCode = {
  VALIDATION_FAILED: 'VALIDATION_FAILED',
  MALFORMED_REQUEST: 'MALFORMED_REQUEST',
  UNSUPPORTED_MEDIA_TYPE: 'UNSUPPORTED_MEDIA_TYPE',
  PAYLOAD_TOO_LARGE: 'PAYLOAD_TOO_LARGE',
  UNAUTHENTICATED: 'UNAUTHENTICATED',
  INVALID_CREDENTIALS: 'INVALID_CREDENTIALS',
  SESSION_EXPIRED: 'SESSION_EXPIRED',
  ACCOUNT_PENDING: 'ACCOUNT_PENDING',
  ACCOUNT_SUSPENDED: 'ACCOUNT_SUSPENDED',
  FORBIDDEN: 'FORBIDDEN',
  ADMIN_REQUIRED: 'ADMIN_REQUIRED',
  CROSS_SITE_REQUEST: 'CROSS_SITE_REQUEST',
  RATE_LIMITED: 'RATE_LIMITED',
  EMAIL_TAKEN: 'EMAIL_TAKEN',
  ROLE_NAME_TAKEN: 'ROLE_NAME_TAKEN',
  SYSTEM_ROLE_PROTECTED: 'SYSTEM_ROLE_PROTECTED',
  ROLE_IN_USE: 'ROLE_IN_USE',
  CANNOT_CHANGE_OWN_ACCOUNT: 'CANNOT_CHANGE_OWN_ACCOUNT',
  /** The change would leave the system without an approved administrator. */
  LAST_ADMINISTRATOR: 'LAST_ADMINISTRATOR',
  /** A permissions object names a module or flag spec §6 does not have. */
  PERMISSION_UNKNOWN: 'PERMISSION_UNKNOWN',
  /** A system setting is out of range or unknown; nothing was changed. */
  SETTING_INVALID: 'SETTING_INVALID',
  /** Profile: the current password given to confirm a change is wrong. */
  CURRENT_PASSWORD_INVALID: 'CURRENT_PASSWORD_INVALID',
  NOT_FOUND: 'NOT_FOUND',
  CONFLICT: 'CONFLICT',
  UPLOAD_URL_INVALID: 'UPLOAD_URL_INVALID',
  UPLOAD_TYPE_NOT_ALLOWED: 'UPLOAD_TYPE_NOT_ALLOWED',
  /**
   * An upload would pass a quota: the account's (413), the client address's per window or
   * the total for accounts awaiting approval (429 with retryAfterSeconds). Nothing was stored.
   */
  UPLOAD_QUOTA: 'UPLOAD_QUOTA',
  /** The client speaks a protocol or schema version the server no longer accepts. */
  UPDATE_REQUIRED: 'UPDATE_REQUIRED',
  /** Sync: the deviceId already belongs to another user's outbox (use one deviceId per user). */
  DEVICE_USER_MISMATCH: 'DEVICE_USER_MISMATCH',
  /** Sync: a pushed mutation's actorUserId is not the signed-in user; nothing is acknowledged. */
  ACTOR_MISMATCH: 'ACTOR_MISMATCH',
  SERVICE_UNAVAILABLE: 'SERVICE_UNAVAILABLE',
  INTERNAL: 'INTERNAL',
} as const;

export type ErrorCode = (typeof ErrorCode)[keyof typeof ErrorCode];

export const errorCodeSchema = z.enum(Object.values(ErrorCode) as [ErrorCode, ...ErrorCode[]]);

export const apiErrorBodySchema = z.object({
  error: z.string(),
  code: errorCodeSchema,
  fieldErrors: z.record(z.string(), z.array(z.string())).optional(),
  retryAfterSeconds: z.number().int().nonnegative().optional(),
});

export type ApiErrorBody = z.infer<typeof apiErrorBodySchema>;

/** Turns zod issues into the API's body: the first message in `error`, all of them per field. */
export function validationErrorBody(issues: readonly z.core.$ZodIssue[]): ApiErrorBody {
  const fieldErrors: Record<string, string[]> = {};
  for (const issue of issues) {
    const key = issue.path.length > 0 ? issue.path.map(String).join('.') : '_';
    (fieldErrors[key] ??= []).push(issue.message);
  }
  return {
    error: issues[0]?.message ?? 'Invalid input',
    code: ErrorCode.VALIDATION_FAILED,
    fieldErrors,
  };
}
