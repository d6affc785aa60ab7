// Cookie sessions stored in PostgreSQL (table `sessions`), so several API instances share
// them. The cookie is HttpOnly, SameSite=Lax, scoped to /api, Secure over TLS, and signed
// (lib/session-cookie.ts). Timeouts (System Settings, unless the app is built with fixed
// ones) are enforced here, on the server, whatever the browser does with the cookie:
// - inactivity: a session not used for `inactivityMs` is dead;
// - absolute: a session older than `absoluteMs` is dead however active it is.
// Anonymous visitors get no row; login and registration create one with a fresh id
// (regenerate), which also destroys the previous row.
//
// The read path (decision 030): a signed-in session is served from the in-process cache
// (lib/auth-cache.ts, decision 026) keyed by its exact signed cookie, so a request whose
// session is cached costs no HMAC, no statement and no promise. Otherwise the cookie's HMAC is
// checked once and the row read from the database (and cached with that cookie).
import cookie from '@fastify/cookie';
import type { FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { sql, type Kysely } from 'kysely';
import type { Database, JsonValue } from '@rescuelog/db/schema';
import type { User } from '@rescuelog/sync-protocol/accounts/users';
import { AuthCache, epochColumn, type AuthCacheOptions } from '../../lib/auth-cache';
import { newSessionId, SessionCookieSigner } from '../../lib/session-cookie';

export interface SessionTimeouts {
  inactivityMs: number;
  absoluteMs: number;
  /** How often expired sessions and rate-limit windows are deleted. */
  cleanupIntervalMs: number;
  /** A read moves last_seen_at on only when it is older than this (not a write per read). */
  touchAfterMs: number;
}

export const DEFAULT_SESSION_TIMEOUTS: SessionTimeouts = {
  inactivityMs: 12 * 60 * 60 * 1000,
  absoluteMs: 7 * 24 * 60 * 60 * 1000,
  cleanupIntervalMs: 15 * 60 * 1000,
  touchAfterMs: 60 * 1000,
};

export const SESSION_COOKIE = 'rescuelog_session';
export const SESSION_COOKIE_PATH = '/api';
/** The cookie's own lifetime: the longest session System Settings allow (720 hours). */
const SESSION_COOKIE_MAX_AGE_MS = 720 * 60 * 60 * 1000;

/** What a session row's `data` holds. */
export interface SessionData {
  userId?: number;
  /** Where the session was started (the profile's list of devices shows them). */
  userAgent?: string | undefined;
  ip?: string | undefined;
  /** Set by the store when the row exists but timed out; authentication answers SESSION_EXPIRED. */
  expired?: boolean;
}

declare module 'fastify' {
  interface FastifyContextConfig {
    /**
     * The route never changes a user, a role or a session (a session's touch aside), so after
     * it nothing the cache holds can be stale on this instance: no catch-up (decision 039).
     */
    authUnchanged?: boolean;
  }
  interface FastifyRequest {
    /** The request's session under /api (the cookie's path); not set on other paths. */
    session: RequestSession;
  }
  interface FastifyInstance {
    sessionService: SessionService;
    /** The in-process session and user cache (lib/auth-cache.ts, docs/decisions/026). */
    authCache: AppAuthCache;
  }
}

/** A live session as the cache keeps it; times are the database clock's, in ms. */
export interface CachedSession {
  userId: number;
  /** Frozen: shared by every request of the session (RequestSession copies before a change). */
  data: Readonly<SessionData>;
  createdAt: number;
  lastSeenAt: number;
  expiresAt: number;
  /** database clock minus this process's clock when the row was read. */
  clockOffsetMs: number;
}

/** What authentication keeps per user (plugins/app/authentication.ts fills it). */
export interface CachedUser {
  status: string;
  user: User;
}

export type AppAuthCache = AuthCache<CachedSession, CachedUser>;

export interface SessionService {
  /** Ends every session of a user (suspension, password change). Returns how many ended. */
  endSessionsForUser(userId: number): Promise<number>;
  /** Deletes sessions past their timeouts and stale rate-limit windows. */
  cleanupExpired(): Promise<void>;
}

type Timeouts = Pick<SessionTimeouts, 'inactivityMs' | 'absoluteMs'>;

/** Timeouts now: fixed, or from System Settings (which change them without a restart). */
export interface SessionTimeoutsSource {
  /** Synchronously, when known (the settings' cached copy); otherwise undefined. */
  peek(): Timeouts | undefined;
  get(): Promise<Timeouts>;
}

function fixedTimeouts(timeouts: Timeouts): SessionTimeoutsSource {
  return { peek: () => timeouts, get: () => Promise.resolve(timeouts) };
}

const EXPIRED: Readonly<SessionData> = Object.freeze({ expired: true });

/** The `sessions` table, with the cache in front of its reads. */
export class SessionStore {
  private readonly timeouts: SessionTimeoutsSource;

  constructor(
    private readonly db: Kysely<Database>,
    timeouts: Timeouts | SessionTimeoutsSource,
    private readonly cache?: AppAuthCache,
    /** Writing last_seen_at on every request would make every read a write. */
    private readonly touchAfterMs: number = DEFAULT_SESSION_TIMEOUTS.touchAfterMs,
  ) {
    this.timeouts = 'get' in timeouts ? timeouts : fixedTimeouts(timeouts);
  }

  /**
   * The hot path: the live, cached session whose signed cookie is exactly `cookie`, when no
   * touch is due; otherwise undefined (then `load` decides, with the database).
   */
  cached(cookie: string): { sid: string; data: Readonly<SessionData> } | undefined {
    const hit = this.cache?.sessionByCookie(cookie);
    if (!hit) return undefined;
    const timeouts = this.timeouts.peek();
    if (!timeouts) return undefined;
    const entry = hit.value;
    const now = Date.now() + entry.clockOffsetMs;
    const fresh =
      entry.expiresAt > now &&
      now - entry.lastSeenAt <= this.touchAfterMs &&
      now - entry.lastSeenAt < timeouts.inactivityMs &&
      now - entry.createdAt < timeouts.absoluteMs;
    return fresh ? { sid: hit.sid, data: entry.data } : undefined;
  }

  /**
   * The session `sid` (whose signed cookie `cookie` was verified), from the cache or the
   * database: its data, the EXPIRED marker for a row past its timeouts (deleted here), or
   * null when there is no such session.
   */
  async load(sid: string, cookie: string): Promise<Readonly<SessionData> | null> {
    const { inactivityMs, absoluteMs } = await this.timeouts.get();
    const cached = this.cache?.session(sid);
    if (cached) {
      const now = Date.now() + cached.clockOffsetMs;
      const alive =
        cached.expiresAt > now &&
        now - cached.lastSeenAt < inactivityMs &&
        now - cached.createdAt < absoluteMs;
      // A dead one goes the database way below, which deletes it and answers the marker.
      if (alive) {
        if (now - cached.lastSeenAt <= this.touchAfterMs) return cached.data;
        const touched = await this.touch(sid, inactivityMs, absoluteMs);
        if (!touched) {
          this.cache?.dropSession(sid);
          return null;
        }
        cached.lastSeenAt = touched.lastSeenAt.getTime();
        cached.expiresAt = touched.expiresAt.getTime();
        return cached.data;
      }
      this.cache?.dropSession(sid);
    }
    const row = await this.db
      .selectFrom('sessions')
      .select(['data', 'createdAt', 'lastSeenAt', 'expiresAt', 'userId'])
      .select(sql<Date>`now()`.as('now'))
      .select(epochColumn().as('epoch'))
      .where('sid', '=', sid)
      .executeTakeFirst();
    if (!row) return null;
    const now = row.now.getTime();
    const alive =
      row.expiresAt.getTime() > now &&
      now - row.lastSeenAt.getTime() < inactivityMs &&
      now - row.createdAt.getTime() < absoluteMs;
    if (!alive) {
      await this.db.deleteFrom('sessions').where('sid', '=', sid).execute();
      // Only the marker survives: the user id of a dead session must not be used.
      return EXPIRED;
    }
    let lastSeenAt = row.lastSeenAt.getTime();
    let expiresAt = row.expiresAt.getTime();
    if (now - lastSeenAt > this.touchAfterMs) {
      const touched = await this.touch(sid, inactivityMs, absoluteMs);
      if (!touched) return null;
      lastSeenAt = touched.lastSeenAt.getTime();
      expiresAt = touched.expiresAt.getTime();
    }
    const data = sessionData(row.data);
    // Only signed-in sessions are kept: they are the ones every request reads.
    if (this.cache && typeof row.userId === 'number' && data.userId === row.userId) {
      this.cache.putSession(
        sid,
        {
          userId: row.userId,
          data,
          createdAt: row.createdAt.getTime(),
          lastSeenAt,
          expiresAt,
          clockOffsetMs: now - Date.now(),
        },
        row.epoch,
        cookie,
      );
    }
    return data;
  }

  async save(sid: string, data: Readonly<SessionData>): Promise<void> {
    this.cache?.dropSession(sid);
    const json: Record<string, JsonValue> = {};
    if (typeof data.userId === 'number') json.userId = data.userId;
    if (typeof data.userAgent === 'string') json.userAgent = data.userAgent;
    if (typeof data.ip === 'string') json.ip = data.ip;
    const userId = typeof data.userId === 'number' ? data.userId : null;
    const { inactivityMs, absoluteMs } = await this.timeouts.get();
    await this.db
      .insertInto('sessions')
      .values({
        sid,
        userId,
        data: json,
        // The database clock decides every timeout, so instances with skewed clocks agree.
        expiresAt: sql`now() + ${Math.min(inactivityMs, absoluteMs)} * interval '1 millisecond'`,
      })
      .onConflict((oc) =>
        oc.column('sid').doUpdateSet({
          userId,
          data: json,
          lastSeenAt: sql`now()`,
          expiresAt: sql`least(now() + ${inactivityMs} * interval '1 millisecond', sessions.created_at + ${absoluteMs} * interval '1 millisecond')`,
        }),
      )
      .execute();
  }

  async destroy(sid: string): Promise<void> {
    this.cache?.dropSession(sid);
    await this.db.deleteFrom('sessions').where('sid', '=', sid).execute();
  }

  /** Moves last_seen_at and the expiry on; undefined when the row is gone. */
  private async touch(
    sid: string,
    inactivityMs: number,
    absoluteMs: number,
  ): Promise<{ lastSeenAt: Date; expiresAt: Date } | undefined> {
    return this.db
      .updateTable('sessions')
      .set({
        lastSeenAt: sql`now()`,
        expiresAt: sql`least(now() + ${inactivityMs} * interval '1 millisecond', created_at + ${absoluteMs} * interval '1 millisecond')`,
      })
      .where('sid', '=', sid)
      .returning(['lastSeenAt', 'expiresAt'])
      .executeTakeFirst();
  }
}

/** The known fields of a stored `data` object (rows written before decision 030 hold more). */
function sessionData(stored: Record<string, JsonValue>): Readonly<SessionData> {
  const data: SessionData = {};
  if (typeof stored.userId === 'number') data.userId = stored.userId;
  if (typeof stored.userAgent === 'string') data.userAgent = stored.userAgent;
  if (typeof stored.ip === 'string') data.ip = stored.ip;
  return Object.freeze(data);
}

/**
 * A request's session. `data` may be the cache's frozen object; the first change copies it.
 * Changes are saved, and the cookie set, when the response is sent.
 */
export class RequestSession {
  #id: string | undefined;
  #data: Readonly<SessionData>;
  #modified = false;
  #ended = false;

  constructor(
    private readonly store: SessionStore,
    /** The id the request's cookie named, when that session exists (or existed: EXPIRED). */
    readonly restoredId: string | undefined,
    data: Readonly<SessionData>,
  ) {
    this.#id = restoredId;
    this.#data = data;
  }

  /** The session id (a new one, not yet stored, for an anonymous request). */
  get sessionId(): string {
    return (this.#id ??= newSessionId());
  }

  /** True once something was set (or the id regenerated) and not yet saved. */
  get modified(): boolean {
    return this.#modified && !this.#ended;
  }

  get ended(): boolean {
    return this.#ended;
  }

  get data(): Readonly<SessionData> {
    return this.#data;
  }

  get<K extends keyof SessionData>(key: K): SessionData[K] {
    return this.#data[key];
  }

  set<K extends keyof SessionData>(key: K, value: SessionData[K]): void {
    if (this.#ended) throw new Error('the session has ended');
    this.#data = { ...this.#data, [key]: value };
    this.#modified = true;
  }

  /** A new id and no data (sign-in: the id from before can never name this session). */
  async regenerate(): Promise<void> {
    if (this.restoredId !== undefined) await this.store.destroy(this.restoredId);
    this.#id = newSessionId();
    this.#data = {};
    this.#modified = true;
    this.#ended = false;
  }

  /** Deletes the session's row (and cache entry); nothing is saved for this request. */
  async destroy(): Promise<void> {
    if (this.#id !== undefined) await this.store.destroy(this.#id);
    this.#data = {};
    this.#ended = true;
  }

  markSaved(): void {
    this.#modified = false;
  }
}

const ANONYMOUS: Readonly<SessionData> = Object.freeze({});

/** True when `url`'s path is the cookie's path or below it (the browser sends it only there). */
function underCookiePath(url: string): boolean {
  if (!url.startsWith(SESSION_COOKIE_PATH)) return false;
  const next = url.charCodeAt(SESSION_COOKIE_PATH.length);
  // end of string, '/', or '?'
  return Number.isNaN(next) || next === 47 || next === 63;
}

export const sessionPlugin = fp<{
  timeouts?: Partial<SessionTimeouts> | undefined;
  cache?: AuthCacheOptions | undefined;
}>(
  async (fastify, options) => {
    const timeouts: SessionTimeouts = { ...DEFAULT_SESSION_TIMEOUTS, ...options.timeouts };
    const cache: AppAuthCache = new AuthCache(fastify.db, fastify.log, options.cache);
    fastify.decorate('authCache', cache);
    const fromSettings = (settings: {
      sessionInactivityMinutes: number;
      sessionAbsoluteHours: number;
    }): Timeouts => ({
      inactivityMs: options.timeouts?.inactivityMs ?? settings.sessionInactivityMinutes * 60_000,
      absoluteMs: options.timeouts?.absoluteMs ?? settings.sessionAbsoluteHours * 3_600_000,
    });
    // Timeouts given by the caller (tests) are fixed; otherwise System Settings decide.
    const store = new SessionStore(
      fastify.db,
      {
        peek() {
          const settings = fastify.settings.peek();
          return settings ? fromSettings(settings) : undefined;
        },
        get: async () => fromSettings(await fastify.settings.get()),
      },
      cache,
      timeouts.touchAfterMs,
    );
    const signer = new SessionCookieSigner(fastify.config.sessionSecret);
    // true (https origin), false, or 'auto' behind a trusted proxy: Secure when the proxy says
    // the request was https.
    const cookieSecure = fastify.config.cookieSecure;
    // The browser may keep the cookie as long as the longest absolute timeout the settings
    // allow; the server decides sooner.
    const cookieMaxAgeMs = options.timeouts?.absoluteMs ?? SESSION_COOKIE_MAX_AGE_MS;

    await fastify.register(cookie);
    fastify.decorateRequest('session', null as unknown as RequestSession);

    // Resolves the cookie to a session. Synchronous when the session is cached.
    fastify.addHook('onRequest', (request, _reply, done) => {
      if (!underCookiePath(request.url)) {
        done();
        return;
      }
      const value = request.cookies[SESSION_COOKIE];
      if (value === undefined || value === '') {
        request.session = new RequestSession(store, undefined, ANONYMOUS);
        done();
        return;
      }
      const hit = store.cached(value);
      if (hit) {
        request.session = new RequestSession(store, hit.sid, hit.data);
        done();
        return;
      }
      const sid = signer.verify(value);
      if (sid === undefined) {
        request.session = new RequestSession(store, undefined, ANONYMOUS);
        done();
        return;
      }
      store.load(sid, value).then(
        (data) => {
          request.session =
            data === null
              ? new RequestSession(store, undefined, ANONYMOUS)
              : new RequestSession(store, sid, data);
          done();
        },
        (error: unknown) => {
          done(error as Error);
        },
      );
    });

    // Saves a changed session and sets its cookie; clears a cookie that named no session.
    fastify.addHook('onSend', (request, reply, _payload, done) => {
      const session = request.session as RequestSession | null;
      if (!session) {
        done();
        return;
      }
      const sent = request.cookies[SESSION_COOKIE];
      // @fastify/session's rule, kept: no session cookie is set on a plain-http request
      // when it must be Secure (auth.ts warns about it), and nothing is stored for it.
      const https = request.protocol === 'https';
      const insecure = cookieSecure === true && !https;
      if (!session.modified || insecure) {
        if (sent !== undefined && session.restoredId === undefined && !session.ended)
          clearSessionCookie(reply);
        done();
        return;
      }
      const sid = session.sessionId;
      store.save(sid, session.data).then(
        () => {
          session.markSaved();
          void reply.setCookie(SESSION_COOKIE, signer.sign(sid), {
            path: SESSION_COOKIE_PATH,
            httpOnly: true,
            sameSite: 'lax',
            secure: cookieSecure === 'auto' ? https : cookieSecure,
            expires: new Date(Date.now() + cookieMaxAgeMs),
          });
          done();
        },
        (error: unknown) => {
          done(error as Error);
        },
      );
    });

    const sessionService: SessionService = {
      async endSessionsForUser(userId) {
        cache.dropSessionsOf(userId);
        const result = await fastify.db
          .deleteFrom('sessions')
          .where('userId', '=', userId)
          .executeTakeFirst();
        return Number(result.numDeletedRows);
      },
      async cleanupExpired() {
        await fastify.db
          .deleteFrom('sessions')
          .where('expiresAt', '<=', sql<Date>`now()`)
          .execute();
        await fastify.db
          .deleteFrom('rateLimits')
          .where('expiresAt', '<=', sql<Date>`now()`)
          .execute();
      },
    };
    fastify.decorate('sessionService', sessionService);

    let running: Promise<void> = Promise.resolve();
    const runCleanup = (): void => {
      running = sessionService
        .cleanupExpired()
        .catch((error: unknown) => fastify.log.warn({ err: error }, 'session cleanup failed'));
    };
    let timer: NodeJS.Timeout | undefined;
    // After a write, the next request (on this instance) must not see what the write changed
    // from the cache: wait for the write's own notification (lib/auth-cache.ts catchUp).
    fastify.addHook('onSend', (request, _reply, _payload, done) => {
      if (
        request.method === 'GET' ||
        request.method === 'HEAD' ||
        request.routeOptions.config.authUnchanged === true
      ) {
        done();
        return;
      }
      cache.catchUp().then(() => done(), done);
    });
    fastify.addHook('onReady', async () => {
      await cache.start();
      runCleanup();
      timer = setInterval(runCleanup, timeouts.cleanupIntervalMs);
      timer.unref();
    });
    fastify.addHook('onClose', async () => {
      if (timer) clearInterval(timer);
      await running;
      await cache.stop();
    });
  },
  { name: 'session', dependencies: ['env', 'database', 'settings'] },
);

/** Tells the browser to forget the session cookie. */
export function clearSessionCookie(reply: FastifyReply): void {
  void reply.clearCookie(SESSION_COOKIE, { path: SESSION_COOKIE_PATH });
}

/** The request's session when it names a stored one (not anonymous, not ended). */
export function currentSession(request: FastifyRequest): RequestSession | undefined {
  const session = request.session as RequestSession | null;
  return session && !session.ended ? session : undefined;
}
