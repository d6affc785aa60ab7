// LISTEN for either driver. A Kysely instance made by connect.ts carries a NotificationSource
// (looked up with `notificationsFor(db)`); each `subscribe` is its own listener: on a server,
// its own pg connection (so two app instances sharing a pool still listen independently), on
// the embedded database a PGlite listener in this process.
// The subscriber is told when it is listening and when it stops (a dropped connection): while
// not listening, notifications may be missed, and a cache that depends on them must not serve.
import type { PGlite } from '@electric-sql/pglite';
import pg from 'pg';
import type { PglitePool } from './pglite-pool';

export interface NotificationHandlers {
  onNotification(payload: string): void;
  /** Listening (again): anything sent before this moment may have been missed. */
  onListening(): void;
  /** No longer listening (connection lost); a reconnect follows unless unsubscribed. */
  onLost(error: unknown): void;
}

export interface NotificationSource {
  subscribe(channel: string, handlers: NotificationHandlers): Promise<() => Promise<void>>;
}

const sources = new WeakMap<object, NotificationSource>();

export function registerNotificationSource(db: object, source: NotificationSource): void {
  sources.set(db, source);
}

export function notificationsFor(db: object): NotificationSource | undefined {
  return sources.get(db);
}

const RECONNECT_DELAYS_MS = [100, 500, 1000, 2000, 5000] as const;

function quoteIdent(name: string): string {
  if (!/^[a-z_][a-z0-9_]*$/.test(name)) throw new Error(`Unsafe channel name: ${name}`);
  return `"${name}"`;
}

/** A dedicated connection per subscription, reconnecting with backoff until unsubscribed. */
export function postgresNotificationSource(
  databaseUrl: string,
  types: pg.CustomTypesConfig,
): NotificationSource {
  return {
    async subscribe(channel, handlers) {
      let stopped = false;
      let client: pg.Client | undefined;
      let attempt = 0;
      let retry: NodeJS.Timeout | undefined;

      const connect = async (): Promise<void> => {
        const next = new pg.Client({ connectionString: databaseUrl, types });
        let lostReported = false;
        const lost = (error: unknown): void => {
          if (lostReported) return;
          lostReported = true;
          if (client === next) client = undefined;
          next.end().catch(() => undefined);
          if (stopped) return;
          handlers.onLost(error);
          const delay = RECONNECT_DELAYS_MS[Math.min(attempt, RECONNECT_DELAYS_MS.length - 1)];
          attempt += 1;
          retry = setTimeout(() => {
            connect().catch(() => undefined);
          }, delay);
          retry.unref();
        };
        next.on('error', lost);
        next.on('end', () => lost(new Error('notification connection ended')));
        next.on('notification', (message) => {
          if (message.channel === channel) handlers.onNotification(message.payload ?? '');
        });
        try {
          await next.connect();
          await next.query(`listen ${quoteIdent(channel)}`);
        } catch (error) {
          lost(error);
          throw error;
        }
        if (stopped) {
          await next.end().catch(() => undefined);
          return;
        }
        client = next;
        attempt = 0;
        handlers.onListening();
      };

      // A first connection that fails is retried like a lost one (onLost was called): the
      // subscriber simply is not listening yet, which must not stop the server starting.
      await connect().catch(() => undefined);
      return async () => {
        stopped = true;
        clearTimeout(retry);
        const current = client;
        client = undefined;
        if (current) await current.end().catch(() => undefined);
      };
    },
  };
}

/**
 * PGlite listeners in this process. LISTEN runs while holding the pool's single connection,
 * so it never lands inside (and is never rolled back with) another caller's transaction.
 */
export function embeddedNotificationSource(pglite: PGlite, pool: PglitePool): NotificationSource {
  return {
    async subscribe(channel, handlers) {
      const held = await pool.connect();
      let unlisten: (() => Promise<void>) | undefined;
      try {
        unlisten = await pglite.listen(channel, (payload) => handlers.onNotification(payload));
      } finally {
        held.release();
      }
      handlers.onListening();
      return async () => {
        if (pglite.closed || !unlisten) return;
        const again = await pool.connect().catch(() => undefined);
        if (!again) return;
        try {
          await unlisten();
        } finally {
          again.release();
        }
      };
    },
  };
}
