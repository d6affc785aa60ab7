// The sync loop of one open app: drain the outbox, then pull, under the drain lock; on a
// retryable failure wait (exponential backoff with jitter, or the server's Retry-After, never
// more than a minute) and try again, probing GET /api/ready meanwhile so a server that comes
// back is used at once; on 401/403 pause until the user signs in; on 426 stop until the app
// is updated. The status it reports is what the always-visible sync indicator shows.
// Framework-free: the web app wraps it in a store, tests drive it directly. Decision 016.
import { DEFAULT_BACKOFF, retryDelay, type BackoffPolicy } from './backoff';
import { drainOutbox, type DrainOutcome } from './drain';
import { createDrainLock, type DrainLock } from './drain-lock';
import type { SyncDatabase } from './local-db';
import { pullChanges, type PullOutcome } from './pull';
import type { RetryReason, SyncTransport } from './transport';

export type SyncTrigger =
  | 'app-start'
  | 'online'
  | 'visible'
  | 'timer'
  | 'retry'
  | 'local-change'
  | 'sign-in'
  | 'worker-start'
  | 'background-sync'
  | 'manual'
  /** A health probe saw the server come back while the engine was backing off. */
  | 'health';

export type SyncPhase = 'idle' | 'syncing' | 'backoff' | 'auth-required' | 'update-required';

export interface SyncStatus {
  phase: SyncPhase;
  /** The last failure, in words a responder can act on; null after a clean sync. */
  lastError: string | null;
  /** Consecutive failed attempts (drives the backoff). */
  failures: number;
  /** When the engine retries by itself (epoch ms), while in backoff. */
  nextRetryAt: number | null;
  /** Last time this engine drained and pulled without error (epoch ms). */
  lastSyncAt: number | null;
  /** The last attempt got no answer at all (no signal): offline, an ordinary state, not a
   * failure to report. Kept while the next attempt runs. */
  unreachable: boolean;
}

export interface SyncEngineOptions {
  db: SyncDatabase;
  transport: SyncTransport;
  lock?: DrainLock;
  batchSize?: number;
  pullLimit?: number;
  /** Pull after a successful drain (the service worker only drains). */
  pull?: boolean;
  /** What the signed-in user may see now, read at every pull (pull.ts PullOptions.accessKey). */
  accessKey?: () => string | null;
  backoff?: BackoffPolicy;
  random?: () => number;
  now?: () => number;
  setTimer?: (fn: () => void, ms: number) => unknown;
  clearTimer?: (handle: unknown) => void;
  /** How often to probe the server (transport.ready) while backing off; 15 s by default. */
  probeIntervalMs?: number;
  /** Whether the device has a network at all; no probes without one (the `online` event
   * wakes the engine instead). navigator.onLine by default. */
  isOnline?: () => boolean;
}

export const DEFAULT_PROBE_INTERVAL_MS = 15_000;

/** Failures after which the server may be down or unreachable, so a probe can tell when it is
 * back. Not a 429 or a 4xx: the server answered, it is up. */
const PROBED_REASONS: ReadonlySet<RetryReason | 'not-acknowledged'> = new Set([
  'network',
  'server-error',
  'captive-portal',
  'bad-response',
]);

function browserOnline(): boolean {
  const nav = (globalThis as { navigator?: { onLine?: boolean } }).navigator;
  return nav?.onLine !== false;
}

type Listener = (status: SyncStatus) => void;

type Outcome = DrainOutcome | PullOutcome;

export class SyncEngine {
  private status: SyncStatus = {
    phase: 'idle',
    lastError: null,
    failures: 0,
    nextRetryAt: null,
    lastSyncAt: null,
    unreachable: false,
  };
  private readonly listeners = new Set<Listener>();
  private readonly lock: DrainLock;
  private running: Promise<SyncStatus> | null = null;
  /** A trigger that arrived while a sync was running; it runs once more afterwards. */
  private rerun: SyncTrigger | null = null;
  private timer: unknown = null;
  private probeTimer: unknown = null;
  /** A probe found the server down during this run of failures: the next probe that finds it
   * ready is news, and syncs at once. */
  private probeSawDown = false;
  /** Counts attempts, so a probe answer that arrives after another attempt began is dropped. */
  private attempts = 0;
  private stopped = false;
  private readonly now: () => number;
  private readonly setTimer: (fn: () => void, ms: number) => unknown;
  private readonly clearTimer: (handle: unknown) => void;
  private readonly isOnline: () => boolean;

  constructor(private readonly options: SyncEngineOptions) {
    this.lock = options.lock ?? createDrainLock(options.db);
    this.now = options.now ?? Date.now;
    this.setTimer = options.setTimer ?? ((fn, ms) => setTimeout(fn, ms));
    this.clearTimer =
      options.clearTimer ?? ((handle) => clearTimeout(handle as ReturnType<typeof setTimeout>));
    this.isOnline = options.isOnline ?? browserOnline;
  }

  getStatus(): SyncStatus {
    return this.status;
  }

  subscribe(listener: Listener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  private set(next: Partial<SyncStatus>): void {
    this.status = { ...this.status, ...next };
    for (const listener of this.listeners) listener(this.status);
  }

  /** Runs a sync now unless paused (or, for the periodic timer, while backing off). Calls
   * during a running sync make it run once more afterwards instead of overlapping. */
  sync(trigger: SyncTrigger): Promise<SyncStatus> {
    if (this.stopped) return Promise.resolve(this.status);
    if (this.status.phase === 'update-required') return Promise.resolve(this.status);
    if (this.status.phase === 'auth-required' && trigger !== 'sign-in')
      return Promise.resolve(this.status);
    if (
      trigger === 'timer' &&
      this.status.nextRetryAt !== null &&
      this.status.nextRetryAt > this.now()
    ) {
      return Promise.resolve(this.status);
    }
    if (this.running) {
      // A forcing trigger (online, manual…) wins over a waiting timer.
      if (this.rerun === null || this.rerun === 'timer' || this.rerun === 'retry')
        this.rerun = trigger;
      return this.running;
    }
    this.running = this.runLoop().finally(() => {
      this.running = null;
    });
    return this.running;
  }

  /** After the user signed in again: leave the auth pause and sync. */
  resume(): Promise<SyncStatus> {
    if (this.status.phase === 'auth-required') this.set({ phase: 'idle', lastError: null });
    return this.sync('sign-in');
  }

  stop(): void {
    this.stopped = true;
    this.cancelTimer();
    this.listeners.clear();
  }

  private cancelTimer(): void {
    if (this.timer !== null) this.clearTimer(this.timer);
    this.timer = null;
    if (this.probeTimer !== null) this.clearTimer(this.probeTimer);
    this.probeTimer = null;
  }

  /** Schedules the next probe while backing off, unless the retry itself comes first. */
  private scheduleProbe(): void {
    if (this.stopped || !this.options.transport.ready) return;
    const interval = this.options.probeIntervalMs ?? DEFAULT_PROBE_INTERVAL_MS;
    const { phase, nextRetryAt } = this.status;
    if (phase !== 'backoff' || nextRetryAt === null || this.now() + interval >= nextRetryAt) return;
    this.probeTimer = this.setTimer(() => {
      this.probeTimer = null;
      void this.probe();
    }, interval);
  }

  private async probe(): Promise<void> {
    const { transport } = this.options;
    if (this.stopped || this.status.phase !== 'backoff' || !transport.ready) return;
    if (!this.isOnline()) {
      this.scheduleProbe();
      return;
    }
    const attempt = this.attempts;
    let up: boolean;
    try {
      up = await transport.ready();
    } catch {
      up = false;
    }
    // A sync (online, visible, Sync now, the retry) may have started meanwhile.
    if (this.stopped || this.status.phase !== 'backoff' || this.attempts !== attempt) return;
    if (!up) {
      this.probeSawDown = true;
      this.scheduleProbe();
      return;
    }
    if (this.probeSawDown) {
      this.probeSawDown = false;
      void this.sync('health');
    }
    // Ready without having been seen down: the server is up and the failure is something a
    // probe cannot see (a push-only fault, a slow push). Probing on would only turn every
    // probe into a push; the backoff's own retry decides.
  }

  private async runLoop(): Promise<SyncStatus> {
    for (;;) {
      this.rerun = null;
      await this.runOnce();
      const next = this.rerun as SyncTrigger | null;
      if (next === null || this.stopped) break;
      const { phase } = this.status;
      if (phase === 'update-required' || (phase === 'auth-required' && next !== 'sign-in')) break;
      // The network may have healed since the running attempt failed ('online', 'manual');
      // a timer tick does not cut a backoff short.
      if (phase === 'backoff' && (next === 'timer' || next === 'retry')) break;
    }
    return this.status;
  }

  private async runOnce(): Promise<void> {
    this.attempts += 1;
    this.cancelTimer();
    const phaseBefore = this.status.phase;
    this.set({ phase: 'syncing', nextRetryAt: null });
    let outcome: Outcome;
    try {
      const result = await this.lock.run(async () => {
        const drained = await drainOutbox({
          db: this.options.db,
          transport: this.options.transport,
          ...(this.options.batchSize ? { batchSize: this.options.batchSize } : {}),
        });
        if (drained.kind !== 'drained' || this.options.pull === false) return drained;
        return pullChanges({
          db: this.options.db,
          transport: this.options.transport,
          ...(this.options.pullLimit ? { limit: this.options.pullLimit } : {}),
          ...(this.options.accessKey ? { accessKey: this.options.accessKey() } : {}),
        });
      });
      if (!result.acquired) {
        // Another tab or the worker is draining right now; it empties the outbox.
        this.set({ phase: phaseBefore === 'syncing' ? 'idle' : phaseBefore });
        return;
      }
      outcome = result.value;
    } catch (error) {
      // IndexedDB failures (quota, a closed database): report and retry like a network error.
      outcome = {
        kind: 'retry',
        reason: 'client-error',
        status: null,
        message: error instanceof Error ? error.message : String(error),
        retryAfterMs: null,
        changes: 0,
      };
    }
    this.handle(outcome);
  }

  private handle(outcome: Outcome): void {
    switch (outcome.kind) {
      case 'drained':
      case 'pulled':
        this.probeSawDown = false;
        this.set({
          phase: 'idle',
          lastError: null,
          failures: 0,
          nextRetryAt: null,
          lastSyncAt: this.now(),
          unreachable: false,
        });
        return;
      case 'auth-required':
        this.set({
          phase: 'auth-required',
          lastError: outcome.message,
          nextRetryAt: null,
          unreachable: false,
        });
        return;
      case 'update-required':
        this.set({
          phase: 'update-required',
          lastError: outcome.message,
          nextRetryAt: null,
          unreachable: false,
        });
        return;
      case 'retry': {
        const failures = this.status.failures + 1;
        const delay = retryDelay(
          failures,
          outcome.retryAfterMs,
          this.options.backoff ?? DEFAULT_BACKOFF,
          this.options.random,
        );
        const nextRetryAt = this.now() + delay;
        this.set({
          phase: 'backoff',
          lastError: outcome.message,
          failures,
          nextRetryAt,
          unreachable: outcome.reason === 'network',
        });
        if (!this.stopped) {
          this.timer = this.setTimer(() => {
            this.timer = null;
            void this.sync('retry');
          }, delay);
          if (PROBED_REASONS.has(outcome.reason)) this.scheduleProbe();
        }
        return;
      }
    }
  }
}
