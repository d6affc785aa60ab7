// The in-process session and user cache (docs/decisions/026-session-cache.md). Authentication
// reads a session row and a user row on every request; this keeps both in memory and drops
// them when the database says they changed:
// - triggers (migration 2026-11-25T0500-auth-epoch) send NOTIFY "<epoch>:<kind>:<ids>" on
//   every committed change to users, roles or sessions (not on a session touch);
// - every instance LISTENs (its own connection on PostgreSQL, in-process on PGlite) and drops
//   what the notification names; a gap in the epochs drops everything;
// - every POLL_MS the instance reads the epoch; a value it was not told about drops
//   everything (a missed notification). The cache serves nothing while it is not listening or
//   its last successful epoch check is older than STALE_BOUND_MS, so a missed notification
//   can serve stale data for at most STALE_BOUND_MS (2 s).
// An entry is stored only when the epoch read in the same statement (one snapshot) is not
// older than the newest epoch this instance knows, so a load that raced a change is not kept.
// After (re)listening, the first epoch read decides where the cache starts: a read begun before
// listening started again is not trusted, and changes notified while that read is in flight
// count too (its snapshot may predate them).
// A session entry also remembers the signed cookie that named it (decision 030): while the
// entry is served, a request bearing exactly that cookie skips the cookie's HMAC; whatever
// drops the entry (logout, a notification, an epoch gap, a lost listener) drops the cookie.
import type { FastifyBaseLogger } from 'fastify';
import { sql, type Kysely, type RawBuilder } from 'kysely';
import type { Database } from '@rescuelog/db/schema';
import { notificationsFor } from '@rescuelog/db/notifications';

export const AUTH_CHANNEL = 'rescuelog_auth';
export const AUTH_EPOCH_POLL_MS = 1000;
/** The longest a missed notification can go unnoticed while the cache still serves. */
export const AUTH_STALE_BOUND_MS = 2000;
const MAX_ENTRIES = 10_000;
/** How long a write waits for its own notification before dropping everything instead. */
const CATCH_UP_WAIT_MS = 50;

/** `(select epoch from auth_epoch)` as text: select it beside the cached row, same snapshot. */
export function epochColumn(): RawBuilder<string> {
  return sql<string>`(select epoch::text from auth_epoch)`;
}

export interface AuthCacheOptions {
  pollMs?: number;
  staleBoundMs?: number;
}

interface Notice {
  epoch: number;
  kind: 'u' | 's' | '*';
  ids: number[];
}

function parseNotice(payload: string): Notice | null {
  const [epochText, kind, idsText = ''] = payload.split(':', 3);
  const epoch = Number(epochText);
  if (!Number.isSafeInteger(epoch) || (kind !== 'u' && kind !== 's' && kind !== '*')) return null;
  const ids = idsText === '' ? [] : idsText.split(',').map(Number);
  if (ids.some((id) => !Number.isSafeInteger(id))) return null;
  return { epoch, kind, ids };
}

export class AuthCache<S extends { userId: number }, U> {
  private readonly sessions = new Map<string, { value: S; cookie: string | undefined }>();
  /** Signed cookie value -> session id, for the entries that have one. */
  private readonly cookies = new Map<string, string>();
  private readonly users = new Map<number, U>();
  private knownEpoch: number | null = null;
  /** The newest epoch notified while the first epoch read after (re)listening was in flight. */
  private heardWhileUnknown: number | null = null;
  /** Bumped when listening starts or stops: an epoch read begun before proves nothing after. */
  private generation = 0;
  private pollingGeneration = 0;
  private repoll = false;
  private stopped = false;
  private verifiedAt = 0;
  private listening = false;
  private timer: NodeJS.Timeout | undefined;
  private unsubscribe: (() => Promise<void>) | undefined;
  private polling: Promise<void> | undefined;
  private waiters: Array<{ epoch: number; resolve: () => void }> = [];
  private readonly pollMs: number;
  private readonly staleBoundMs: number;

  constructor(
    private readonly db: Kysely<Database>,
    private readonly log: FastifyBaseLogger,
    options: AuthCacheOptions = {},
  ) {
    this.pollMs = options.pollMs ?? AUTH_EPOCH_POLL_MS;
    this.staleBoundMs = options.staleBoundMs ?? AUTH_STALE_BOUND_MS;
  }

  /** Starts listening and polling. Without a notification source the cache stays off. */
  async start(): Promise<void> {
    const source = notificationsFor(this.db);
    if (!source) {
      this.log.info('no database notifications: the session and user cache is off');
      return;
    }
    this.unsubscribe = await source.subscribe(AUTH_CHANNEL, {
      onNotification: (payload) => this.onNotification(payload),
      onListening: () => {
        // Anything sent while not listening is lost: start from a fresh epoch read.
        this.flush();
        this.knownEpoch = null;
        this.heardWhileUnknown = null;
        this.generation += 1;
        this.listening = true;
        this.poll();
      },
      onLost: (error) => {
        this.listening = false;
        this.generation += 1;
        this.flush();
        this.log.warn({ err: error }, 'session cache: notification connection lost');
      },
    });
    await this.polling;
    this.timer = setInterval(() => this.poll(), this.pollMs);
    this.timer.unref();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    clearInterval(this.timer);
    this.listening = false;
    this.flush();
    await this.polling;
    await this.unsubscribe?.();
  }

  /** True when entries may be served: listening, and the epoch was confirmed recently. */
  usable(): boolean {
    return (
      this.listening &&
      this.knownEpoch !== null &&
      Date.now() - this.verifiedAt <= this.staleBoundMs
    );
  }

  session(sid: string): S | undefined {
    return this.usable() ? this.sessions.get(sid)?.value : undefined;
  }

  /**
   * The session entry whose signed cookie is exactly `cookie`, with its id: the cookie was
   * verified when the entry was stored and the entry is still served, so its HMAC need not be
   * computed again.
   */
  sessionByCookie(cookie: string): { sid: string; value: S } | undefined {
    if (!this.usable()) return undefined;
    const sid = this.cookies.get(cookie);
    if (sid === undefined) return undefined;
    const entry = this.sessions.get(sid);
    return entry ? { sid, value: entry.value } : undefined;
  }

  user(id: number): U | undefined {
    return this.usable() ? this.users.get(id) : undefined;
  }

  /**
   * `epoch`: read in the same statement as the row (epochColumn). `cookie`: the signed cookie
   * value whose signature was verified to name `sid` (sessionByCookie finds it).
   */
  putSession(sid: string, value: S, epoch: string, cookie?: string): void {
    if (!this.fresh(epoch)) return;
    this.dropSession(sid);
    if (this.sessions.size >= MAX_ENTRIES) {
      const oldest = this.sessions.keys().next();
      if (!oldest.done) this.dropSession(oldest.value);
    }
    this.sessions.set(sid, { value, cookie });
    if (cookie !== undefined) this.cookies.set(cookie, sid);
  }

  putUser(id: number, value: U, epoch: string): void {
    if (this.fresh(epoch)) bounded(this.users, id, value);
  }

  dropSession(sid: string): void {
    const entry = this.sessions.get(sid);
    if (!entry) return;
    this.sessions.delete(sid);
    if (entry.cookie !== undefined) this.cookies.delete(entry.cookie);
  }

  dropSessionsOf(userId: number): void {
    for (const [sid, entry] of this.sessions)
      if (entry.value.userId === userId) this.dropSession(sid);
  }

  /**
   * After a write on this instance: its notification may still be on the way back, so the
   * next request could be served from an entry the write just made stale. Reads the epoch
   * and waits briefly for the notifications up to it; if they do not come, drops everything.
   */
  async catchUp(): Promise<void> {
    if (!this.usable() || (this.sessions.size === 0 && this.users.size === 0)) return;
    let row: { epoch: string } | undefined;
    try {
      row = await this.db
        .selectFrom('authEpoch')
        .select(sql<string>`epoch::text`.as('epoch'))
        .executeTakeFirst();
    } catch {
      this.flush();
      return;
    }
    const epoch = Number(row?.epoch ?? Number.NaN);
    if (!Number.isSafeInteger(epoch)) {
      this.flush();
      return;
    }
    if (this.knownEpoch !== null && this.knownEpoch >= epoch) return;
    const arrived = await new Promise<boolean>((resolve) => {
      const timer = setTimeout(() => {
        this.waiters = this.waiters.filter((w) => w !== waiter);
        resolve(false);
      }, CATCH_UP_WAIT_MS);
      const waiter = {
        epoch,
        resolve: () => {
          clearTimeout(timer);
          resolve(true);
        },
      };
      this.waiters.push(waiter);
    });
    if (!arrived) this.advance(epoch, true);
  }

  private fresh(epochText: string): boolean {
    const epoch = Number(epochText);
    return this.usable() && this.knownEpoch !== null && epoch >= this.knownEpoch;
  }

  /** Drops every entry. */
  flush(): void {
    this.sessions.clear();
    this.cookies.clear();
    this.users.clear();
  }

  private advance(epoch: number, flush: boolean): void {
    if (flush) this.flush();
    if (this.knownEpoch === null || epoch > this.knownEpoch) this.knownEpoch = epoch;
    const known = this.knownEpoch;
    const done = this.waiters.filter((w) => w.epoch <= known);
    if (done.length === 0) return;
    this.waiters = this.waiters.filter((w) => w.epoch > known);
    for (const waiter of done) waiter.resolve();
  }

  private onNotification(payload: string): void {
    const notice = parseNotice(payload);
    if (!notice) {
      this.flush();
      this.log.warn({ payload }, 'session cache: unreadable notification');
      return;
    }
    if (this.knownEpoch === null) {
      // Not serving yet: the first epoch read may have begun before this change committed
      // (its snapshot misses it); it takes the newest epoch heard here as well.
      if (this.heardWhileUnknown === null || notice.epoch > this.heardWhileUnknown)
        this.heardWhileUnknown = notice.epoch;
      return;
    }
    // Epochs come in commit order: a jump means one was missed.
    const gap = notice.epoch > this.knownEpoch + 1;
    if (notice.kind === '*') this.users.clear();
    else if (notice.kind === 'u') for (const id of notice.ids) this.users.delete(id);
    else for (const id of notice.ids) this.dropSessionsOf(id);
    this.advance(notice.epoch, gap);
  }

  private poll(): void {
    if (this.stopped) return;
    if (this.polling) {
      // A read begun before listening started (or stopped) again cannot confirm anything
      // now: read again once it is done.
      if (this.pollingGeneration !== this.generation) this.repoll = true;
      return;
    }
    const startedAt = Date.now();
    const generation = this.generation;
    this.pollingGeneration = generation;
    this.polling = this.db
      .selectFrom('authEpoch')
      .select(sql<string>`epoch::text`.as('epoch'))
      .executeTakeFirst()
      .then((row) => {
        if (generation !== this.generation) return;
        let epoch = Number(row?.epoch ?? Number.NaN);
        if (!Number.isSafeInteger(epoch)) throw new Error('auth_epoch has no row');
        if (this.knownEpoch === null && this.heardWhileUnknown !== null) {
          // Changes notified while this read was in flight may be newer than what it saw.
          epoch = Math.max(epoch, this.heardWhileUnknown);
          this.heardWhileUnknown = null;
        }
        // A newer epoch than the notifications told: one may be missing (or in flight).
        if (this.knownEpoch === null || epoch > this.knownEpoch) this.advance(epoch, true);
        if (this.listening) this.verifiedAt = startedAt;
      })
      .catch((error: unknown) => {
        this.log.warn({ err: error }, 'session cache: the epoch could not be read');
      })
      .finally(() => {
        this.polling = undefined;
        if (this.repoll) {
          this.repoll = false;
          this.poll();
        }
      });
  }
}

function bounded<K, V>(map: Map<K, V>, key: K, value: V): void {
  map.delete(key);
  if (map.size >= MAX_ENTRIES) {
    const oldest = map.keys().next();
    if (!oldest.done) map.delete(oldest.value);
  }
  map.set(key, value);
}
