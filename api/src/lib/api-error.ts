// The one error type routes and services throw on purpose. The error handler in app.ts turns
// it into an ApiErrorBody; anything else that escapes becomes a bare 500.
import type { z } from 'zod';
import { ErrorCode, validationErrorBody, type ApiErrorBody } from '@rescuelog/sync-protocol/errors';
import { isUnknownPermissionIssue } from '@rescuelog/sync-protocol/permissions';

export class ApiError extends Error {
  constructor(
    readonly statusCode: number,
    readonly code: ErrorCode,
    message: string,
    readonly extra: Pick<ApiErrorBody, 'fieldErrors' | 'retryAfterSeconds'> = {},
    /** Response headers that belong to this error, e.g. Retry-After. */
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
    this.name = 'ApiError';
  }

  get body(): ApiErrorBody {
    return { error: this.message, code: this.code, ...this.extra };
  }
}

/**
 * Parses untrusted input (body, query, params) or throws a 400 with the schema's messages.
 * `code` names the refusal when it is more specific than VALIDATION_FAILED (a setting out of
 * range, an unknown permission); given as a function it picks from the issues.
 */
export function parseInput<S extends z.ZodType>(
  schema: S,
  input: unknown,
  code:
    ErrorCode | ((issues: readonly z.core.$ZodIssue[]) => ErrorCode) = ErrorCode.VALIDATION_FAILED,
): z.output<S> {
  const result = schema.safeParse(input);
  if (result.success) return result.data;
  const body = validationErrorBody(result.error.issues);
  throw new ApiError(
    400,
    typeof code === 'function' ? code(result.error.issues) : code,
    body.error,
    { fieldErrors: body.fieldErrors ?? {} },
  );
}

/** For bodies holding a permissions object: an unknown module or flag is PERMISSION_UNKNOWN. */
export function permissionAwareCode(issues: readonly z.core.$ZodIssue[]): ErrorCode {
  return issues.some(isUnknownPermissionIssue)
    ? ErrorCode.PERMISSION_UNKNOWN
    : ErrorCode.VALIDATION_FAILED;
}

export const unauthenticated = () =>
  new ApiError(401, ErrorCode.UNAUTHENTICATED, 'Authentication required');
