// An in-memory stand-in for the sync API used by the engine's unit tests: it implements the
// push contract (per-device last applied seq, duplicates, gap stops the batch, rejections)
// and a versioned pull, and can be told to fail in the ways real networks do. The engine is
// also tested against the real API over HTTP in api/test/sync-client-engine.test.ts.
import { CASE_FIELD_DEFAULTS, CASE_FIELDS, type CaseRecord } from '../../src/cases/case-schema';
import { appRegistry } from '../../src/records/registry';
import { generateHumanId } from '../../src/platform/human-id';
import { type ParsedMutation } from '../../src/platform/registry';
import {
  pullRequestSchema,
  pushRequestSchema,
  type MutationResult,
  type SyncChange,
} from '../../src/platform/push-pull';
import type { SyncTransport, TransportResponse } from '../../src/client/transport';

export type Fault =
  | { kind: 'network' }
  | { kind: 'status'; status: number; body?: unknown }
  | { kind: 'captive-portal' }
  /** The server commits, then the connection dies before the answer arrives. */
  | { kind: 'lost-after-commit' };

/** A complete case record as the server would return it (every column present). */
export function fullCase(
  id: string,
  caseId: string,
  overrides: Partial<CaseRecord> = {},
): Record<string, unknown> {
  return {
    ...Object.fromEntries(CASE_FIELDS.map((f) => [f, null])),
    ...CASE_FIELD_DEFAULTS,
    id,
    caseId,
    status: 'in_progress',
    createdAt: '2026-11-21T05:00:00.000Z',
    completedAt: null,
    userId: 7,
    updatedBy: 7,
    version: '0',
    updatedAt: '2026-11-21T05:00:00.000Z',
    deletedAt: null,
    ...overrides,
  };
}

function json(status: number, body: unknown): TransportResponse {
  return {
    status,
    contentType: 'application/json; charset=utf-8',
    retryAfter: null,
    body: JSON.stringify(body),
  };
}

export class FakeSyncServer implements SyncTransport {
  readonly lastApplied = new Map<string, number>();
  readonly applied: ParsedMutation[] = [];
  /** Seqs of every push the server handled (not those a fault stopped). */
  readonly pushes: number[][] = [];
  /** Every request that reached the transport, faulted or not. */
  readonly requests: string[] = [];
  readonly rejectIds = new Set<string>();
  /** Faults consumed one per request, before the request is handled. */
  readonly faults: Fault[] = [];
  /** A fault applied to every request while set. */
  persistentFault: Fault | null = null;
  concurrent = 0;
  maxConcurrent = 0;
  /** Milliseconds every request takes (to let concurrent drainers overlap). */
  latencyMs = 0;
  private version = 0;
  readonly records = new Map<string, SyncChange>();

  /** Puts a record on the server as if another device had written it. */
  serverWrite(change: Omit<SyncChange, 'version'>): string {
    this.version += 1;
    const version = String(this.version);
    const data = change.data === null ? null : { ...change.data, version };
    this.records.set(change.id, { ...change, version, data } as SyncChange);
    return version;
  }

  /** Puts a live case on the server as another device would have written it: a whole case
   * record (fullCase) with `fields` over it, under `caseId` or a new case number. */
  serverWriteCase(id: string, fields: Partial<CaseRecord> = {}, caseId?: string): string {
    return this.serverWrite({
      entity: 'case',
      id,
      deleted: false,
      data: fullCase(id, caseId ?? generateHumanId('C'), fields),
    } as Omit<SyncChange, 'version'>);
  }

  async post(path: string, body: unknown): Promise<TransportResponse> {
    this.requests.push(path);
    this.concurrent += 1;
    this.maxConcurrent = Math.max(this.maxConcurrent, this.concurrent);
    try {
      if (this.latencyMs > 0) await new Promise((r) => setTimeout(r, this.latencyMs));
      const fault = this.faults.shift() ?? this.persistentFault;
      if (fault?.kind === 'network') throw new TypeError('fetch failed');
      if (fault?.kind === 'status')
        return json(
          fault.status,
          fault.body ?? { error: 'Internal Server Error', code: 'INTERNAL' },
        );
      if (fault?.kind === 'captive-portal') {
        return {
          status: 200,
          contentType: 'text/html',
          retryAfter: null,
          body: '<html><body>Sign in to FreeWiFi</body></html>',
        };
      }
      const response = path === '/api/sync/push' ? this.push(body) : this.pull(body);
      if (fault?.kind === 'lost-after-commit') throw new TypeError('network connection was lost');
      return response;
    } finally {
      this.concurrent -= 1;
    }
  }

  private push(body: unknown): TransportResponse {
    const request = pushRequestSchema.parse(body);
    this.pushes.push(request.mutations.map((m) => m.seq));
    let last = this.lastApplied.get(request.deviceId) ?? 0;
    const results: MutationResult[] = [];
    for (const raw of request.mutations) {
      if (raw.seq <= last) {
        results.push({ seq: raw.seq, mutationId: raw.mutationId, status: 'duplicate' });
        continue;
      }
      if (raw.seq > last + 1) break;
      const mutation = appRegistry.parseMutation(raw);
      last = raw.seq;
      if (this.rejectIds.has(mutation.mutationId)) {
        results.push({
          seq: raw.seq,
          mutationId: raw.mutationId,
          status: 'rejected',
          code: 'CASE_LOCKED',
          message: 'The case is completed; only addenda can be added.',
        });
        continue;
      }
      this.applied.push(mutation);
      if (mutation.name === 'case.upsert') {
        const args = mutation.args as {
          id: string;
          humanId?: string;
          fields: Record<string, unknown>;
        };
        const existing = this.records.get(args.id);
        const data = {
          ...(existing?.data ?? fullCase(args.id, args.humanId ?? 'C-0000-0000-0000')),
          ...args.fields,
        };
        this.serverWrite({ entity: 'case', id: args.id, deleted: false, data } as Omit<
          SyncChange,
          'version'
        >);
      }
      results.push({ seq: raw.seq, mutationId: raw.mutationId, status: 'applied' });
    }
    this.lastApplied.set(request.deviceId, last);
    // Like the real server: its state of every record a rejected or duplicate mutation names.
    const undo = new Set(
      results
        .filter((r) => r.status !== 'applied')
        .flatMap(
          (r) => request.mutations.find((m) => m.mutationId === r.mutationId)?.entityIds ?? [],
        )
        .filter((id): id is string => typeof id === 'string'),
    );
    const records = [...undo].flatMap((id) => {
      const record = this.records.get(id);
      return record ? [record] : [];
    });
    return json(200, { lastAppliedSeq: last, results, ...(records.length > 0 ? { records } : {}) });
  }

  private pull(body: unknown): TransportResponse {
    const request = pullRequestSchema.parse(body);
    const since = request.cursor === null ? 0 : Number(request.cursor);
    const changes = [...this.records.values()]
      .filter((c) => Number(c.version) > since)
      .sort((a, b) => Number(a.version) - Number(b.version));
    const page = changes.slice(0, request.limit);
    const cursor = page.length > 0 ? page[page.length - 1]!.version : String(since);
    return json(200, { cursor, hasMore: changes.length > page.length, changes: page });
  }
}
