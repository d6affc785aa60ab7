// Server-side prepared statements for the statements a PostgreSQL server runs again and again
// (decision 048). Kysely sends every query as an unnamed statement, so PostgreSQL parses and
// plans it at every execution; for the sync pull's queries, one union over every record kind,
// planning cost 1–4 ms against 0.06–0.7 ms of execution (pg_stat_statements under the load
// bench). A statement whose text this pool has run PREPARE_AFTER times is from then on sent
// as a named statement on each connection that runs it: PostgreSQL keeps it for the
// connection's life and, after its own five custom plans, a generic plan when that plan is
// as cheap (plan_cache_mode auto). The same idea as pgjdbc's prepareThreshold.
// Only statements with parameters are named (a parameterless text goes by the simple query
// protocol, which also carries the migrations' multi-statement scripts), at most
// MAX_PER_CONNECTION per connection, so statements whose text varies (IN lists of every
// length) cannot grow a backend without bound. PGlite is not wrapped: it is one in-process
// connection and plans are not what its requests spend (decision 040).
import { createHash } from 'node:crypto';
import type { PostgresPool, PostgresPoolClient } from 'kysely';
import type pg from 'pg';

/** Executions of one text (by any connection of the pool) before it is named. */
export const PREPARE_AFTER = 3;
/** Named statements one connection keeps at most. */
export const MAX_PER_CONNECTION = 200;
/** Texts counted at most; when full, the counts start again (hot texts come back at once). */
const MAX_COUNTED = 2000;
/**
 * PostgreSQL's answers that a named statement can no longer be used as prepared: a table it
 * reads changed its columns under it ("cached plan must not change result type", 0A000), or
 * the connection lost it (26000). The text is then sent unnamed on every connection of the
 * pool: each connection holds its own copy of the stale statement, and a request retried on
 * another one must not meet it again.
 */
const STALE_STATEMENT_CODES = new Set(['0A000', '26000']);

interface Counted {
  runs: number;
  name: string | undefined;
}

function errorCode(error: unknown): string | undefined {
  if (typeof error !== 'object' || error === null || !('code' in error)) return undefined;
  return typeof error.code === 'string' ? error.code : undefined;
}

/** `pool` for Kysely's PostgresDialect, naming its hot statements (see above). */
export function withStatementCache(pool: pg.Pool): PostgresPool {
  const counted = new Map<string, Counted>();
  /** Texts whose named form went stale: sent unnamed from then on (only grows on such errors). */
  const unnamed = new Set<string>();

  function nameFor(text: string, values: readonly unknown[]): string | undefined {
    if (values.length === 0) return undefined;
    let entry = counted.get(text);
    if (!entry) {
      if (counted.size >= MAX_COUNTED) counted.clear();
      entry = { runs: 0, name: undefined };
      counted.set(text, entry);
    }
    entry.runs += 1;
    if (entry.runs < PREPARE_AFTER) return undefined;
    entry.name ??= `rl_${createHash('sha1').update(text).digest('hex').slice(0, 24)}`;
    return entry.name;
  }

  const wrappers = new WeakMap<pg.PoolClient, PostgresPoolClient>();

  /** One wrapper per connection for its life: Kysely keys its own connection state by it. */
  function wrap(client: pg.PoolClient): PostgresPoolClient {
    const known = wrappers.get(client);
    if (known) return known;
    const named = new Set<string>();
    const query = async (text: string, values: readonly unknown[]): Promise<pg.QueryResult> => {
      let name = unnamed.has(text) ? undefined : nameFor(text, values);
      if (name !== undefined && !named.has(text)) {
        if (named.size >= MAX_PER_CONNECTION) name = undefined;
        else named.add(text);
      }
      if (name === undefined) return client.query(text, [...values]);
      try {
        return await client.query({ name, text, values: [...values] });
      } catch (error) {
        const code = errorCode(error);
        if (code !== undefined && STALE_STATEMENT_CODES.has(code)) {
          named.delete(text);
          unnamed.add(text);
        }
        throw error;
      }
    };
    const wrapper: PostgresPoolClient & { processID?: number } = {
      // Kysely passes (text, parameters) only: it streams no query through a cursor here.
      query: query as unknown as PostgresPoolClient['query'],
      release: (destroy?: boolean) => {
        client.release(destroy);
      },
    };
    // Kysely reads the backend's pid to cancel a query (an undocumented member of pg's Client).
    const pid = (client as { processID?: unknown }).processID;
    if (typeof pid === 'number') wrapper.processID = pid;
    wrappers.set(client, wrapper);
    return wrapper;
  }

  return {
    connect: async () => wrap(await pool.connect()),
    end: () => pool.end(),
    options: pool.options,
  };
}
