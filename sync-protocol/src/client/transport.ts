// How the sync client talks HTTP: a tiny interface (so tests and the fault-injecting proxy
// can stand in front of the real API) and a fetch implementation, plus the one place that
// decides what a response means for the queue.
import { z } from 'zod';
import '../zod-config';
import { apiErrorBodySchema, ErrorCode } from '../errors';

export const SYNC_PUSH_PATH = '/api/sync/push';
export const SYNC_PULL_PATH = '/api/sync/pull';
export type SyncPath = typeof SYNC_PUSH_PATH | typeof SYNC_PULL_PATH;
/** Public, no session, no body: the process is up and its database answers (200) or not (503). */
export const READY_PATH = '/api/ready';

/** GET /api/ready's answer when the server can take a push. */
export const readyResponseSchema = z.object({ status: z.literal('ready') });

export interface TransportResponse {
  status: number;
  contentType: string | null;
  retryAfter: string | null;
  body: string;
}

/** Resolves with any HTTP response; rejects only when no response arrived (offline, refused,
 * reset, timed out). */
export interface SyncTransport {
  post(path: SyncPath, body: unknown): Promise<TransportResponse>;
  /** Optional cheap check, used while backing off, that the server is back: true only for
   * the API's own "ready" answer; false for anything else, including no answer at all. */
  ready?(): Promise<boolean>;
}

/** The part of fetch the transport uses, so the same code type-checks in window, worker
 * and Node. */
export type FetchLike = (
  url: string,
  init: {
    method: 'POST' | 'GET';
    headers: Record<string, string>;
    body?: string;
    credentials: 'include';
    signal: AbortSignal;
    cache: 'no-store';
  },
) => Promise<{
  status: number;
  headers: { get(name: string): string | null };
  text(): Promise<string>;
}>;

export interface FetchTransportOptions {
  /** '' for same-origin (the app and the worker); an absolute origin in tests. */
  baseUrl?: string;
  fetch?: FetchLike;
  /** A hung connection must not block the queue forever. */
  timeoutMs?: number;
  /** Extra headers (tests send the session cookie this way; browsers use credentials). */
  headers?: () => Record<string, string>;
}

export const DEFAULT_REQUEST_TIMEOUT_MS = 30_000;
/** A probe is a tiny GET: a server that takes longer than this is not "back". */
export const READY_PROBE_TIMEOUT_MS = 5_000;

export function createFetchTransport(options: FetchTransportOptions = {}): SyncTransport {
  const baseUrl = options.baseUrl ?? '';
  const timeoutMs = options.timeoutMs ?? DEFAULT_REQUEST_TIMEOUT_MS;
  const doFetch: FetchLike = options.fetch ?? ((url, init) => globalThis.fetch(url, init));
  return {
    async post(path, body) {
      const response = await doFetch(`${baseUrl}${path}`, {
        method: 'POST',
        headers: {
          'Content-Type': 'application/json',
          // The API's same-origin proof for state-changing requests.
          'X-Requested-With': 'rescuelog',
          ...options.headers?.(),
        },
        body: JSON.stringify(body),
        credentials: 'include',
        cache: 'no-store',
        signal: AbortSignal.timeout(timeoutMs),
      });
      // Reading the body can fail too (connection cut mid-response): that is a network
      // failure, and the caller retries.
      const text = await response.text();
      return {
        status: response.status,
        contentType: response.headers.get('content-type'),
        retryAfter: response.headers.get('retry-after'),
        body: text,
      };
    },
    async ready() {
      try {
        const response = await doFetch(`${baseUrl}${READY_PATH}`, {
          method: 'GET',
          headers: { ...options.headers?.() },
          credentials: 'include',
          cache: 'no-store',
          signal: AbortSignal.timeout(Math.min(timeoutMs, READY_PROBE_TIMEOUT_MS)),
        });
        if (response.status !== 200) return false;
        // A captive portal answers 200 with its own page: only our JSON counts.
        return readyResponseSchema.safeParse(parseJson(await response.text())).success;
      } catch {
        return false;
      }
    },
  };
}

/** Why a request acknowledged nothing and must be retried later. */
export type RetryReason =
  'network' | 'server-error' | 'captive-portal' | 'bad-response' | 'rate-limited' | 'client-error';

export type Classified<T> =
  | { kind: 'ok'; data: T }
  | { kind: 'auth-required'; status: number; message: string }
  | { kind: 'update-required'; message: string }
  | {
      kind: 'retry';
      reason: RetryReason;
      status: number | null;
      message: string;
      retryAfterMs: number | null;
    };

/**
 * A Retry-After as milliseconds from `now`: the API's own `retryAfterSeconds` first, else
 * the header, which is either delay-seconds or an HTTP-date (RFC 9110 §10.2.3). A date in
 * the past is 0; anything unreadable is null (the backoff alone decides). Not clamped here:
 * the engine caps every wait (backoff.ts).
 */
export function parseRetryAfter(
  header: string | null,
  bodySeconds?: number,
  now: number = Date.now(),
): number | null {
  if (bodySeconds !== undefined) return bodySeconds * 1000;
  if (header === null) return null;
  const value = header.trim();
  if (/^\d+$/.test(value)) return Number(value) * 1000;
  // The three HTTP-date forms, each in GMT: IMF-fixdate ("Sun, 06 Nov 1994 08:49:37 GMT"),
  // RFC 850 ("Sunday, 06-Nov-94 08:49:37 GMT") and asctime ("Sun Nov  6 08:49:37 1994",
  // which names no zone). Matching them first keeps Date.parse's looser readings ("12.5",
  // "2026", a local time) out.
  let date: string | null = null;
  if (/^[A-Za-z]{3,9}, [\w -]+ \d\d:\d\d:\d\d GMT$/.test(value)) date = value;
  else if (/^[A-Za-z]{3} [A-Za-z]{3} [ \d]\d \d\d:\d\d:\d\d \d{4}$/.test(value))
    date = `${value} GMT`;
  if (date === null) return null;
  const at = Date.parse(date);
  return Number.isNaN(at) ? null : Math.max(0, at - now);
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

/**
 * What a response means for the queue. Only a 200 whose JSON body matches the schema
 * acknowledges anything; a 200 that is HTML or not ours (a captive portal's login page, a
 * proxy's error page) is treated as "no answer", never as success.
 */
export function classifyResponse<S extends z.ZodType>(
  response: TransportResponse,
  schema: S,
): Classified<z.output<S>> {
  const json = parseJson(response.body);
  const isJson =
    (response.contentType ?? '').toLowerCase().includes('application/json') && json !== undefined;
  const apiError = isJson ? apiErrorBodySchema.safeParse(json) : undefined;
  const errorText = apiError?.success ? apiError.data.error : `HTTP ${String(response.status)}`;

  if (response.status === 200) {
    if (!isJson) {
      return {
        kind: 'retry',
        reason: 'captive-portal',
        status: 200,
        message: 'The network answered with a page that is not RescueLog (sign in to the Wi-Fi?)',
        retryAfterMs: null,
      };
    }
    const parsed = schema.safeParse(json);
    if (!parsed.success) {
      return {
        kind: 'retry',
        reason: 'bad-response',
        status: 200,
        message: 'The server answered in a form this app does not understand',
        retryAfterMs: null,
      };
    }
    return { kind: 'ok', data: parsed.data };
  }
  if (response.status === 401 || response.status === 403) {
    // Only our API's own JSON 401/403 means "sign in"; a proxy's 403 page is just no answer.
    if (apiError?.success)
      return { kind: 'auth-required', status: response.status, message: errorText };
    return {
      kind: 'retry',
      reason: 'captive-portal',
      status: response.status,
      message: `HTTP ${String(response.status)} from something that is not RescueLog`,
      retryAfterMs: null,
    };
  }
  if (
    response.status === 426 ||
    (apiError?.success && apiError.data.code === ErrorCode.UPDATE_REQUIRED)
  ) {
    return { kind: 'update-required', message: errorText };
  }
  if (response.status === 429) {
    const bodySeconds = apiError?.success ? apiError.data.retryAfterSeconds : undefined;
    return {
      kind: 'retry',
      reason: 'rate-limited',
      status: 429,
      message: errorText,
      retryAfterMs: parseRetryAfter(response.retryAfter, bodySeconds),
    };
  }
  if (response.status >= 500) {
    // A 503 from a server in maintenance or a load balancer with no healthy backend often
    // says when to come back.
    const bodySeconds = apiError?.success ? apiError.data.retryAfterSeconds : undefined;
    return {
      kind: 'retry',
      reason: 'server-error',
      status: response.status,
      message: errorText,
      retryAfterMs: parseRetryAfter(response.retryAfter, bodySeconds),
    };
  }
  if (response.status >= 300 && response.status < 400) {
    return {
      kind: 'retry',
      reason: 'captive-portal',
      status: response.status,
      message: 'Redirected away from RescueLog',
      retryAfterMs: null,
    };
  }
  // Any other 4xx on a whole batch is a bug on one side; the entries stay and are retried
  // (with backoff) rather than dropped — the error is shown in the sync status.
  return {
    kind: 'retry',
    reason: 'client-error',
    status: response.status,
    message: errorText,
    retryAfterMs: null,
  };
}

export function describeNetworkError(error: unknown): string {
  if (error instanceof Error) {
    if (error.name === 'TimeoutError' || error.name === 'AbortError')
      return 'The server did not answer in time';
    return `No connection to the server (${error.message})`;
  }
  return 'No connection to the server';
}
