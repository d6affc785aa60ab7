// Cookie sessions stored in PostgreSQL (table `sessions`), so several API instances share
// them. The cookie is HttpOnly, SameSite=Lax, scoped to /api, and Secure over TLS.
// Timeouts (System Settings, unless the app is built with fixed ones) are enforced here, on
// the server, whatever the browser does with the cookie:
// - inactivity: a session not used for `inactivityMs` is dead;
// - absolute: a session older than `absoluteMs` is dead however active it is.
// Anonymous visitors get no row (saveUninitialized: false); login and registration create
// one with a fresh id (regenerate), which also destroys the previous row.
import cookie from '@fastify/cookie';
import session, { type SessionStore } from '@fastify/session';
import type { Session } from 'fastify';
import fp from 'fastify-plugin';
import { sql, type Kysely } from 'kysely';
import type { Database, JsonValue } from '@rescuelog/db/schema';
import type { User } from '@rescuelog/sync-protocol/users';
import { AuthCache, epochColumn, type AuthCacheOptions } from '../../lib/auth-cache';

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
/** The cookie's own lifetime: the longest session System Settings allow (720 hours). */
const SESSION_COOKIE_MAX_AGE_MS = 720 * 60 * 60 * 1000;

declare module 'fastify' {
  interface Session {
    userId?: number;
    /** Where the session was started (the profile's list of devices shows them). */
    userAgent?: string | undefined;
    ip?: string | undefined;
    /** Set by the store when the row exists but timed out; the session hook answers SESSION_EXPIRED. */
    expired?: boolean;
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
  data: Session;
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

type StoredSession = Session;
type Callback = (error?: unknown) => void;

/** The express-session style store @fastify/session expects, on top of Kysely. */
export type SessionTimeoutsSource = () => Promise<
  Pick<SessionTimeouts, 'inactivityMs' | 'absoluteMs'>
>;

export class PgSessionStore implements SessionStore {
  private readonly timeouts: SessionTimeoutsSource;

  /** `timeouts`: fixed, or read on each use (System Settings change them without a restart). */
  constructor(
    private readonly db: Kysely<Database>,
    timeouts: SessionTimeouts | SessionTimeoutsSource,
    private readonly cache?: AppAuthCache,
    /** Writing last_seen_at on every request would make every read a write. */
    private readonly touchAfterMs: number = DEFAULT_SESSION_TIMEOUTS.touchAfterMs,
  ) {
    this.timeouts = typeof timeouts === 'function' ? timeouts : () => Promise.resolve(timeouts);
  }

  set(sid: string, data: StoredSession, callback: Callback): void {
    this.cache?.dropSession(sid);
    this.save(sid, data).then(() => callback(), callback);
  }

  private async save(sid: string, data: StoredSession): Promise<void> {
    const json = JSON.parse(JSON.stringify(data)) as Record<string, JsonValue>;
    const userId = typeof data.userId === 'number' ? data.userId : null;
    const { inactivityMs, absoluteMs } = await this.timeouts();
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

  get(sid: string, callback: (error: unknown, result?: Session | null) => void): void {
    this.load(sid).then(
      (result) => callback(null, result),
      (error: unknown) => callback(error),
    );
  }

  destroy(sid: string, callback: Callback): void {
    this.cache?.dropSession(sid);
    this.db
      .deleteFrom('sessions')
      .where('sid', '=', sid)
      .execute()
      .then(() => callback(), callback);
  }

  private async load(sid: string): Promise<StoredSession | null> {
    const { inactivityMs, absoluteMs } = await this.timeouts();
    const cached = this.cache?.session(sid);
    if (cached) {
      const now = Date.now() + cached.clockOffsetMs;
      const alive =
        cached.expiresAt > now &&
        now - cached.lastSeenAt < inactivityMs &&
        now - cached.createdAt < absoluteMs;
      // A dead one goes the database way below, which deletes it and answers the marker.
      if (alive) {
        if (now - cached.lastSeenAt <= this.touchAfterMs) return copySession(cached.data);
        const touched = await this.touch(sid, inactivityMs, absoluteMs);
        if (!touched) {
          this.cache?.dropSession(sid);
          return null;
        }
        cached.lastSeenAt = touched.lastSeenAt.getTime();
        cached.expiresAt = touched.expiresAt.getTime();
        return copySession(cached.data);
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
      return { expired: true, cookie: { originalMaxAge: null } } as StoredSession;
    }
    let lastSeenAt = row.lastSeenAt.getTime();
    let expiresAt = row.expiresAt.getTime();
    if (now - lastSeenAt > this.touchAfterMs) {
      const touched = await this.touch(sid, inactivityMs, absoluteMs);
      if (!touched) return null;
      lastSeenAt = touched.lastSeenAt.getTime();
      expiresAt = touched.expiresAt.getTime();
    }
    const data = row.data as unknown as StoredSession;
    // Only signed-in sessions are kept: they are the ones every request reads.
    if (this.cache && typeof row.userId === 'number' && data.userId === row.userId) {
      this.cache.putSession(
        sid,
        {
          userId: row.userId,
          data: copySession(data),
          createdAt: row.createdAt.getTime(),
          lastSeenAt,
          expiresAt,
          clockOffsetMs: now - Date.now(),
        },
        row.epoch,
      );
    }
    return data;
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

/** A copy @fastify/session may change without changing the cached one. */
function copySession(data: StoredSession): StoredSession {
  const copy = { ...data } as StoredSession;
  if (typeof data.cookie === 'object' && data.cookie !== null)
    (copy as { cookie: unknown }).cookie = { ...data.cookie };
  return copy;
}

export const sessionPlugin = fp<{
  timeouts?: Partial<SessionTimeouts> | undefined;
  cache?: AuthCacheOptions | undefined;
}>(
  async (fastify, options) => {
    const timeouts: SessionTimeouts = { ...DEFAULT_SESSION_TIMEOUTS, ...options.timeouts };
    const cache: AppAuthCache = new AuthCache(fastify.db, fastify.log, options.cache);
    fastify.decorate('authCache', cache);
    // Timeouts given by the caller (tests) are fixed; otherwise System Settings decide.
    const store = new PgSessionStore(
      fastify.db,
      async () => {
        const settings = await fastify.settings.get();
        return {
          inactivityMs:
            options.timeouts?.inactivityMs ?? settings.sessionInactivityMinutes * 60_000,
          absoluteMs: options.timeouts?.absoluteMs ?? settings.sessionAbsoluteHours * 3_600_000,
        };
      },
      cache,
      timeouts.touchAfterMs,
    );

    await fastify.register(cookie);
    await fastify.register(session, {
      secret: fastify.config.sessionSecret,
      cookieName: SESSION_COOKIE,
      store,
      saveUninitialized: false,
      // The row is touched by the store; re-sending the cookie on every response is not needed.
      rolling: false,
      cookie: {
        path: '/api',
        httpOnly: true,
        sameSite: 'lax',
        secure: fastify.config.cookieSecure,
        // The browser may keep it as long as the longest absolute timeout the settings allow;
        // the server decides sooner.
        maxAge: options.timeouts?.absoluteMs ?? SESSION_COOKIE_MAX_AGE_MS,
      },
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
    fastify.addHook('onSend', async (request) => {
      if (request.method !== 'GET' && request.method !== 'HEAD') await cache.catchUp();
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
