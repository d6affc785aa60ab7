// The one way the web app talks HTTP to the API: same origin, cookies included, errors as
// '{status}: {body text or statusText}' (spec §8), every response parsed with a zod schema.
// The schemas the first screens need load in their own chunk (boundarySchemas): a request
// may name its schema as a loader, which runs beside the fetch and is awaited only for a
// response that is going to be parsed, so an error answer never waits for zod.
import type { ApiErrorBody } from '@rescuelog/sync-protocol/errors';
import type { z } from 'zod';
import type * as BoundarySchemaModule from './boundary-schemas';

type BoundarySchemas = typeof BoundarySchemaModule;
let loadedSchemas: BoundarySchemas | undefined;
let loadingSchemas: Promise<BoundarySchemas> | undefined;

/** The first screens' schemas (zod included), loaded once. */
export function boundarySchemas(): Promise<BoundarySchemas> {
  loadingSchemas ??= import('./boundary-schemas').then(
    (module) => {
      loadedSchemas = module;
      return module;
    },
    (error: unknown) => {
      loadingSchemas = undefined;
      throw error;
    },
  );
  return loadingSchemas;
}

/** A schema, or a function that loads one (its chunk downloads beside the request). */
export type SchemaSource<S extends z.ZodType> = S | (() => Promise<S>);

function startLoading<S extends z.ZodType>(source: SchemaSource<S>): Promise<S> {
  if (typeof source !== 'function') return Promise.resolve(source);
  const loading = source();
  // Awaited only when the response is parsed; an error answer must not report it unhandled.
  loading.catch(() => undefined);
  return loading;
}

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

/** What a screen says when a request got no answer at all (no signal, server unreachable). */
export const NO_CONNECTION_MESSAGE = 'No connection to the server. Check the signal and try again.';

/** The request never reached the server or got no answer (not an HTTP error status). */
export class NetworkError extends Error {
  constructor(options?: { cause?: unknown }) {
    super(NO_CONNECTION_MESSAGE, options);
    this.name = 'NetworkError';
  }
}

/**
 * `fetch` for the API: a request that gets no answer rejects with a NetworkError that says
 * so in words a responder understands ("Failed to fetch", "Load failed" and "NetworkError
 * when attempting to fetch resource" are the browsers' own). An abort stays an abort.
 */
export async function apiFetch(path: string, init: RequestInit): Promise<Response> {
  try {
    return await fetch(path, init);
  } catch (error) {
    if (error instanceof DOMException && error.name === 'AbortError') throw error;
    if (init.signal?.aborted) throw error;
    throw new NetworkError({ cause: error });
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
  schema: SchemaSource<S>,
  signal?: AbortSignal,
): Promise<z.output<S>> {
  const loading = startLoading(schema);
  const res = await apiFetch(path, { credentials: 'include', signal: signal ?? null });
  await throwIfNotOk(res);
  const body: unknown = await res.json();
  return (await loading).parse(body);
}

type Method = 'POST' | 'PUT' | 'PATCH' | 'DELETE';

function send(method: Method, path: string, body: unknown): Promise<Response> {
  const headers: Record<string, string> = { 'X-Requested-With': REQUESTED_WITH };
  if (body !== undefined) headers['Content-Type'] = 'application/json';
  return apiFetch(path, {
    method,
    credentials: 'include',
    headers,
    body: body === undefined ? null : JSON.stringify(body),
  });
}

export async function sendJson<S extends z.ZodType>(
  method: Method,
  path: string,
  schema: SchemaSource<S>,
  body?: unknown,
): Promise<z.output<S>> {
  const loading = startLoading(schema);
  const res = await send(method, path, body);
  await throwIfNotOk(res);
  const answer: unknown = await res.json();
  return (await loading).parse(answer);
}

/** A state-changing request whose success has no body (204 No Content). */
export async function sendWithoutAnswer(
  method: Method,
  path: string,
  body?: unknown,
): Promise<void> {
  const res = await send(method, path, body);
  await throwIfNotOk(res);
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

/**
 * The structured body of an API error, when it has one. Parsed with the schema once its chunk
 * is loaded (it starts loading with the first request); before that, no body is trusted and
 * the caller shows the '{status}: …' message.
 */
export function parseErrorBody(error: unknown): ApiErrorBody | undefined {
  if (!(error instanceof HttpError) || !error.bodyText) return undefined;
  if (!loadedSchemas) {
    void boundarySchemas().catch(() => undefined);
    return undefined;
  }
  try {
    const result = loadedSchemas.apiErrorBodySchema.safeParse(JSON.parse(error.bodyText));
    return result.success ? result.data : undefined;
  } catch {
    return undefined;
  }
}
