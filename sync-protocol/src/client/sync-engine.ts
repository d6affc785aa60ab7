// The sync loop of one open app: drain the outbox, then pull, under the drain lock; on a
// retryable failure wait (exponential backoff with jitter) and try again; on 401/403 pause
// until the user signs in; on 426 stop until the app is updated. The status it reports is
// what the always-visible sync indicator shows. Framework-free: the web app wraps it in a
// store, tests drive it directly.
import { backoffDelay, DEFAULT_BACKOFF, type BackoffPolicy } from './backoff';
import { drainOutbox, type DrainOutcome } from './drain';
import { createDrainLock, type DrainLock } from './drain-lock';
import type { SyncDatabase } from './local-db';
import { pullChanges, type PullOutcome } from './pull';
import type { SyncTransport } from './transport';

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
  | 'manual';

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
}

export interface SyncEngineOptions {
  db: SyncDatabase;
  transport: SyncTransport;
  lock?: DrainLock;
  batchSize?: number;
  pullLimit?: number;
  /** Pull after a successful drain (the service worker only drains). */
  pull?: boolean;
  backoff?: BackoffPolicy;
  random?: () => number;
  now?: () => number;
  setTimer?: (fn: () => void, ms: number) => unknown;
  clearTimer?: (handle: unknown) => void;
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
  };
  private readonly listeners = new Set<Listener>();
  private readonly lock: DrainLock;
  private running: Promise<SyncStatus> | null = null;
  /** A trigger that arrived while a sync was running; it runs once more afterwards. */
  private rerun: SyncTrigger | null = null;
  private timer: unknown = null;
  private stopped = false;
  private readonly now: () => number;
  private readonly setTimer: (fn: () => void, ms: number) => unknown;
  private readonly clearTimer: (handle: unknown) => void;

  constructor(private readonly options: SyncEngineOptions) {
    this.lock = options.lock ?? createDrainLock(options.db);
    this.now = options.now ?? Date.now;
    this.setTimer = options.setTimer ?? ((fn, ms) => setTimeout(fn, ms));
    this.clearTimer =
      options.clearTimer ?? ((handle) => clearTimeout(handle as ReturnType<typeof setTimeout>));
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
        this.set({
          phase: 'idle',
          lastError: null,
          failures: 0,
          nextRetryAt: null,
          lastSyncAt: this.now(),
        });
        return;
      case 'auth-required':
        this.set({ phase: 'auth-required', lastError: outcome.message, nextRetryAt: null });
        return;
      case 'update-required':
        this.set({ phase: 'update-required', lastError: outcome.message, nextRetryAt: null });
        return;
      case 'retry': {
        const failures = this.status.failures + 1;
        const delay = Math.max(
          outcome.retryAfterMs ?? 0,
          backoffDelay(failures, this.options.backoff ?? DEFAULT_BACKOFF, this.options.random),
        );
        const nextRetryAt = this.now() + delay;
        this.set({ phase: 'backoff', lastError: outcome.message, failures, nextRetryAt });
        if (!this.stopped) {
          this.timer = this.setTimer(() => {
            this.timer = null;
            void this.sync('retry');
          }, delay);
        }
        return;
      }
    }
  }
}
