// The one way the web app talks HTTP to the API: same origin, cookies included, errors as
// '{status}: {body text or statusText}' (spec §8), every response parsed with a zod schema.
import { apiErrorBodySchema, type ApiErrorBody } from '@rescuelog/sync-protocol/errors';
import type { z } from 'zod';

/** Sent on every state-changing request; the API refuses them without it (CSRF proof). */
export const REQUESTED_WITH = 'rescuelog';

export class HttpError extends Error {
  readonly status: number;
  readonly bodyText: string;

  constructor(status: number, statusText: string, bodyText: string) {
    super(`${status}: ${bodyText || statusText}`);
    this.name = 'HttpError';
    this.status = status;
    this.bodyText = bodyText;
  }
}

export async function throwIfNotOk(res: Response): Promise<void> {
  if (!res.ok) {
    const text = await res.text();
    throw new HttpError(res.status, res.statusText, text);
  }
}

/** The path a query key stands for: its segments joined by '/'. */
export function keyToPath(queryKey: readonly unknown[]): string {
  return queryKey.map((segment) => String(segment)).join('/');
}

export async function getJson<S extends z.ZodType>(
  path: string,
  schema: S,
  signal?: AbortSignal,
): Promise<z.output<S>> {
  const res = await fetch(path, { credentials: 'include', signal: signal ?? null });
  await throwIfNotOk(res);
  return schema.parse(await res.json());
}

type Method = 'POST' | 'PUT' | 'PATCH' | 'DELETE';

export async function sendJson<S extends z.ZodType>(
  method: Method,
  path: string,
  schema: S,
  body?: unknown,
): Promise<z.output<S>> {
  const headers: Record<string, string> = { 'X-Requested-With': REQUESTED_WITH };
  if (body !== undefined) headers['Content-Type'] = 'application/json';
  const res = await fetch(path, {
    method,
    credentials: 'include',
    headers,
    body: body === undefined ? null : JSON.stringify(body),
  });
  await throwIfNotOk(res);
  return schema.parse(await res.json());
}

/** A query function for `useQuery` that GETs the key's path and parses it with `schema`. */
export function parsedQuery<T>(
  schema: z.ZodType<T>,
): (ctx: { queryKey: readonly unknown[]; signal: AbortSignal }) => Promise<T> {
  return ({ queryKey, signal }) => getJson(keyToPath(queryKey), schema, signal);
}

/** The API's own words for a failure (ApiErrorBody.error), else the '{status}: …' message. */
export function errorMessage(error: unknown): string {
  if (error instanceof HttpError) {
    return parseErrorBody(error)?.error ?? error.message;
  }
  return error instanceof Error ? error.message : String(error);
}

/** The structured body of an API error, when it has one. */
export function parseErrorBody(error: unknown): ApiErrorBody | undefined {
  if (!(error instanceof HttpError) || !error.bodyText) return undefined;
  try {
    const result = apiErrorBodySchema.safeParse(JSON.parse(error.bodyText));
    return result.success ? result.data : undefined;
  } catch {
    return undefined;
  }
}
