// The notification job (docs/decisions/028), one per API instance, the same code on the
// embedded database and on PostgreSQL: every `pollMs` (and at once when this instance creates
// a notification) it
//   1. claims due notifications one at a time and fans each out (deliveries + push queue);
//   2. claims batches of queued pushes and sends them, at most `concurrency` at a time,
//      recording each batch's outcomes in one transaction (sent, gone -> subscription deleted,
//      retry with backoff, failed after the last attempt);
//   3. marks notifications whose queue has drained 'sent'.
// Claims use FOR UPDATE SKIP LOCKED and leases (notification-queue-repository.ts), so any
// number of instances can run it and an instance that dies mid-send leaves nothing behind.
import type { FastifyBaseLogger } from 'fastify';
import type { Kysely } from 'kysely';
import type { Database } from '@rescuelog/db/schema';
import { mapLimited } from '../../lib/map-limited';
import * as queue from '../../repositories/notification-queue-repository';
import { DELIVERY_BY_PRIORITY, buildPayload, topicFor } from './push-payload';
import type { PushReceipts } from './push-receipts';
import type { PushResult, PushSender } from './push-sender';

export interface DispatcherSettings {
  /** How often an idle instance looks for due work (default 2 s). */
  pollMs: number;
  /** Pushes in flight at once per instance (default 32). */
  concurrency: number;
  /** Pushes claimed per batch (default 64); a batch's outcomes are written together. */
  batchSize: number;
  /** Lease on a claimed notification or push; past it another instance may take it over. */
  leaseSeconds: number;
  /** A "send now" is the creating request's to fan out; the job takes it after this long. */
  pendingGraceSeconds: number;
  /** Wait before attempt n + 1 after attempt n failed; its length + 1 is the attempt limit. */
  retryDelaysMs: readonly number[];
  /** The longest Retry-After honoured. */
  maxRetryAfterMs: number;
}

export const DEFAULT_DISPATCHER_SETTINGS: DispatcherSettings = {
  pollMs: 2000,
  concurrency: 32,
  batchSize: 64,
  leaseSeconds: 120,
  pendingGraceSeconds: 10,
  // 5 attempts over about 13 minutes.
  retryDelaysMs: [10_000, 30_000, 120_000, 600_000],
  maxRetryAfterMs: 15 * 60_000,
};

export class NotificationDispatcher {
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<void> | undefined;
  private again = false;
  private stopped = true;
  /** What this instance did since it started (tests, logs). */
  readonly stats = { fannedOut: 0, pushesSent: 0, pushesAttempted: 0 };

  constructor(
    private readonly db: Kysely<Database>,
    private readonly sender: PushSender,
    private readonly receipts: PushReceipts,
    private readonly log: FastifyBaseLogger,
    readonly settings: DispatcherSettings = DEFAULT_DISPATCHER_SETTINGS,
  ) {}

  start(): void {
    this.stopped = false;
    this.kick();
  }

  /** Runs the job now (or right after the run in progress). */
  kick(): void {
    if (this.stopped) return;
    if (this.running) {
      this.again = true;
      return;
    }
    clearTimeout(this.timer);
    this.running = this.loop().finally(() => {
      this.running = undefined;
      this.schedule();
    });
  }

  /**
   * "Send now": the request that created the notification fans it out itself, so the inbox
   * entries exist when the administrator's request returns; the pushes follow in the job.
   * If this fails (or the job is stopped), the notification stays pending and the job takes it.
   */
  async fanOutNow(id: number): Promise<void> {
    if (this.stopped) return;
    try {
      if (await queue.claimPendingNotification(this.db, id, this.settings.leaseSeconds))
        if (await queue.fanOut(this.db, id)) this.stats.fannedOut += 1;
    } catch (error) {
      this.log.warn({ err: error, notificationId: id }, 'fan-out failed; the job retries it');
    }
    this.kick();
  }

  /** Resolves once no run is in progress (tests and close). */
  async idle(): Promise<void> {
    while (this.running) await this.running;
  }

  async stop(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.timer);
    await this.idle();
  }

  private schedule(): void {
    if (this.stopped) return;
    clearTimeout(this.timer);
    this.timer = setTimeout(() => this.kick(), this.again ? 0 : this.settings.pollMs);
    this.timer.unref();
  }

  private async loop(): Promise<void> {
    do {
      this.again = false;
      try {
        await this.runOnce();
      } catch (error) {
        // The database is away, or a bug: log it and try again at the next tick.
        this.log.warn({ err: error }, 'notification job failed; it runs again shortly');
      }
    } while (this.again && !this.stopped);
  }

  /** One pass: fan out what is due, send what is queued, finish what drained. */
  async runOnce(): Promise<void> {
    for (;;) {
      if (this.stopped) return;
      const claimed = await queue.claimDueNotification(
        this.db,
        this.settings.leaseSeconds,
        this.settings.pendingGraceSeconds,
      );
      if (!claimed) break;
      if (await queue.fanOut(this.db, claimed.id)) this.stats.fannedOut += 1;
    }
    for (;;) {
      if (this.stopped) return;
      const jobs = await queue.claimPushes(
        this.db,
        this.settings.batchSize,
        this.settings.leaseSeconds,
      );
      if (jobs.length === 0) break;
      const outcomes = await mapLimited(jobs, this.settings.concurrency, (job) => this.push(job));
      await queue.recordPushOutcomes(this.db, outcomes);
      this.stats.pushesAttempted += outcomes.length;
      this.stats.pushesSent += outcomes.filter((o) => o.state === 'sent').length;
      if (jobs.length < this.settings.batchSize) break;
    }
    await queue.finishDrainedNotifications(this.db);
  }

  private async push(job: queue.PushJob): Promise<queue.PushOutcome> {
    const base = { jobId: job.id, deliveryId: job.deliveryId };
    if (job.endpoint === null || job.p256dh === null || job.auth === null)
      return { ...base, state: 'gone', statusCode: null, error: 'The device unsubscribed' };
    const payload = buildPayload({
      notificationId: job.notificationId,
      title: job.title,
      message: job.message,
      type: job.type,
      priority: job.priority,
      url: job.url,
      icon: job.icon,
      badge: job.badge,
      sound: job.sound,
      createdAt: job.createdAt,
      receipt: this.receipts.sign(job.deliveryId),
    });
    let result: PushResult;
    try {
      result = await this.sender.send(
        { endpoint: job.endpoint, p256dh: job.p256dh, auth: job.auth },
        payload,
        { ...DELIVERY_BY_PRIORITY[job.priority], topic: topicFor(job.notificationId) },
      );
    } catch (error) {
      result = {
        outcome: 'retry',
        statusCode: null,
        error: error instanceof Error ? error.message : String(error),
      };
    }
    return this.outcome(job, result);
  }

  private outcome(job: queue.PushJob, result: PushResult): queue.PushOutcome {
    const base = { jobId: job.id, deliveryId: job.deliveryId };
    switch (result.outcome) {
      case 'sent':
        return { ...base, state: 'sent', statusCode: result.statusCode };
      case 'gone':
        return {
          ...base,
          state: 'gone',
          statusCode: result.statusCode,
          error: `${result.error} (the device's subscription ended; it was removed)`,
          subscriptionId: job.subscriptionId,
        };
      case 'failed':
        return { ...base, state: 'failed', statusCode: result.statusCode, error: result.error };
      case 'retry': {
        const delays = this.settings.retryDelaysMs;
        if (job.attempts > delays.length)
          return { ...base, state: 'failed', statusCode: result.statusCode, error: result.error };
        const planned = delays[job.attempts - 1] ?? delays[delays.length - 1] ?? 0;
        const retryInMs = Math.min(
          Math.max(planned, result.retryAfterMs ?? 0),
          this.settings.maxRetryAfterMs,
        );
        return {
          ...base,
          state: 'queued',
          statusCode: result.statusCode,
          error: result.error,
          retryInMs,
        };
      }
    }
  }
}
