// One web push, per the standard: `web-push` encrypts the payload (aes128gcm, RFC 8291) and
// makes the VAPID signature (RFC 8292); this module carries the request itself, so it
// controls where the request may go (endpoint-policy.ts: checked again before every send, and
// at connect time by the socket's lookup), keeps connections to each push service alive, caps
// the time and the answer it reads, and sorts the answer into sent / gone / retry / failed.
// The VAPID header (an ES256 JWT per push service origin) is cached for 12 hours instead of
// being signed for every push: signing is most of web-push's cost per message.
import http from 'node:http';
import https from 'node:https';
import webpush from 'web-push';
import type { VapidConfig } from '../../config';
import {
  EndpointAddressError,
  checkEndpoint,
  guardedLookup,
  type EndpointPolicy,
} from './endpoint-policy';
import type { DeliveryOptions } from './push-payload';

export interface PushTarget {
  endpoint: string;
  p256dh: string;
  auth: string;
}

export type PushResult =
  | { outcome: 'sent'; statusCode: number }
  /** 404/410: the subscription is gone for good; delete it. */
  | { outcome: 'gone'; statusCode: number; error: string }
  /** Worth trying again later (429, 5xx, network); `retryAfterMs` from Retry-After. */
  | { outcome: 'retry'; statusCode: number | null; error: string; retryAfterMs?: number }
  /** Trying again will not help (a refused endpoint, 400/401/403/413). */
  | { outcome: 'failed'; statusCode: number | null; error: string };

export interface PushSenderOptions {
  vapid: VapidConfig;
  policy: EndpointPolicy;
  /** Give up on one push after this long (default 10 s). */
  timeoutMs?: number;
  /** Open connections per push service origin (default 64). */
  maxSockets?: number;
}

const VAPID_LIFETIME_S = 12 * 60 * 60;
const VAPID_REFRESH_MS = 60 * 60 * 1000;
const MAX_ANSWER_BYTES = 1024;

function retryAfterMs(header: string | string[] | undefined): number | undefined {
  const value = Array.isArray(header) ? header[0] : header;
  if (value === undefined) return undefined;
  if (/^\d+$/.test(value.trim())) return Number(value.trim()) * 1000;
  const date = Date.parse(value);
  return Number.isNaN(date) ? undefined : Math.max(0, date - Date.now());
}

function describe(statusCode: number, body: string): string {
  const detail = body.replace(/\s+/g, ' ').trim().slice(0, 120);
  return `Push service answered ${String(statusCode)}${detail ? `: ${detail}` : ''}`;
}

export class PushSender {
  private readonly vapid: VapidConfig;
  private readonly policy: EndpointPolicy;
  private readonly timeoutMs: number;
  private readonly httpsAgent: https.Agent;
  private readonly httpAgent: http.Agent;
  private readonly vapidHeaders = new Map<string, { value: string; renewAt: number }>();

  constructor(options: PushSenderOptions) {
    this.vapid = options.vapid;
    this.policy = options.policy;
    this.timeoutMs = options.timeoutMs ?? 10_000;
    const lookup = guardedLookup(options.policy);
    const agentOptions = { keepAlive: true, maxSockets: options.maxSockets ?? 64, lookup };
    this.httpsAgent = new https.Agent(agentOptions);
    this.httpAgent = new http.Agent(agentOptions);
  }

  private authorization(endpoint: URL): string {
    const audience = endpoint.origin;
    const cached = this.vapidHeaders.get(audience);
    if (cached && cached.renewAt > Date.now()) return cached.value;
    const expiration = Math.floor(Date.now() / 1000) + VAPID_LIFETIME_S;
    const headers = webpush.getVapidHeaders(
      audience,
      this.vapid.subject,
      this.vapid.publicKey,
      this.vapid.privateKey,
      'aes128gcm',
      expiration,
    );
    const value = String(headers.Authorization);
    this.vapidHeaders.set(audience, {
      value,
      renewAt: Date.now() + VAPID_LIFETIME_S * 1000 - VAPID_REFRESH_MS,
    });
    return value;
  }

  async send(target: PushTarget, payload: string, options: DeliveryOptions & { topic?: string }) {
    const refused = checkEndpoint(target.endpoint, this.policy);
    if (refused !== undefined)
      return { outcome: 'failed', statusCode: null, error: refused } satisfies PushResult;
    const url = new URL(target.endpoint);
    let request: { headers: Record<string, string | number>; body: Buffer | null };
    try {
      const details = webpush.generateRequestDetails(
        { endpoint: target.endpoint, keys: { p256dh: target.p256dh, auth: target.auth } },
        payload,
        {
          TTL: options.ttlSeconds,
          urgency: options.urgency,
          ...(options.topic ? { topic: options.topic } : {}),
          contentEncoding: 'aes128gcm',
          headers: { Authorization: this.authorization(url) },
        },
      );
      request = {
        headers: details.headers as Record<string, string | number>,
        body: (details.body as Buffer | null) ?? null,
      };
    } catch (error) {
      // Keys the browser gave us that are not a P-256 point / 16-byte secret.
      return {
        outcome: 'failed',
        statusCode: null,
        error: `The subscription's keys are not usable: ${error instanceof Error ? error.message : String(error)}`,
      } satisfies PushResult;
    }
    return this.post(url, request.headers, request.body);
  }

  private post(
    url: URL,
    headers: Record<string, string | number>,
    body: Buffer | null,
  ): Promise<PushResult> {
    const client = url.protocol === 'http:' ? http : https;
    const agent = url.protocol === 'http:' ? this.httpAgent : this.httpsAgent;
    return new Promise<PushResult>((resolve) => {
      const req = client.request(
        url,
        { method: 'POST', headers, agent, timeout: this.timeoutMs },
        (res) => {
          const chunks: Buffer[] = [];
          let size = 0;
          res.on('data', (chunk: Buffer) => {
            if (size < MAX_ANSWER_BYTES) chunks.push(chunk);
            size += chunk.length;
          });
          res.on('error', () => undefined);
          res.on('end', () => {
            const status = res.statusCode ?? 0;
            const text = Buffer.concat(chunks).toString('utf8').slice(0, MAX_ANSWER_BYTES);
            if (status >= 200 && status < 300) resolve({ outcome: 'sent', statusCode: status });
            else if (status === 404 || status === 410)
              resolve({ outcome: 'gone', statusCode: status, error: describe(status, text) });
            else if (status === 408 || status === 429 || status >= 500) {
              const after = retryAfterMs(res.headers['retry-after']);
              resolve({
                outcome: 'retry',
                statusCode: status,
                error: describe(status, text),
                ...(after !== undefined ? { retryAfterMs: after } : {}),
              });
            } else
              resolve({ outcome: 'failed', statusCode: status, error: describe(status, text) });
          });
        },
      );
      req.on('timeout', () =>
        req.destroy(new Error(`No answer within ${String(this.timeoutMs)} ms`)),
      );
      req.on('error', (error: Error) => {
        if (error instanceof EndpointAddressError)
          resolve({ outcome: 'failed', statusCode: null, error: error.message });
        else
          resolve({
            outcome: 'retry',
            statusCode: null,
            error: `Push service unreachable: ${error.message}`,
          });
      });
      req.end(body ?? undefined);
    });
  }

  close(): void {
    this.httpsAgent.destroy();
    this.httpAgent.destroy();
  }
}
