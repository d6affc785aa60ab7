// A pg-Pool-shaped wrapper around one PGlite instance, so Kysely's own PostgresDialect
// (and therefore one code path) drives both the embedded database and a real server. It also
// drives a PGlite in a short-lived child process (embedded-process.ts), which answers the
// same `query` calls.
// PGlite is a single connection: connect() waits for a mutex and the client keeps it until
// release(), so a Kysely transaction owns the database from BEGIN to COMMIT and nothing
// else interleaves with it.
import type { PGlite } from '@electric-sql/pglite';
import type { PostgresPool, PostgresPoolClient, PostgresQueryResult } from 'kysely';

type Command = PostgresQueryResult<unknown>['command'];

/** What the pool needs of a PGlite: its query method. */
export type PgliteQueries = Pick<PGlite, 'query'>;

export interface PgliteLikePoolOptions {
  /**
   * How long connect() waits for the single connection before failing. A wait this long
   * almost always means code inside a transaction used `db` instead of the transaction.
   */
  acquireTimeoutMs?: number;
}

export class PglitePool implements PostgresPool {
  readonly options = {};
  #pglite: PgliteQueries;
  #acquireTimeoutMs: number;
  #held = false;
  #waiters: Array<{ grant: () => void; fail: (error: Error) => void }> = [];
  #ended = false;

  constructor(pglite: PgliteQueries, opts: PgliteLikePoolOptions = {}) {
    this.#pglite = pglite;
    this.#acquireTimeoutMs = opts.acquireTimeoutMs ?? 30_000;
  }

  async connect(): Promise<PostgresPoolClient> {
    if (this.#ended) throw new Error('The embedded database has been closed');
    await this.#acquire();
    return this.#client();
  }

  async end(): Promise<void> {
    this.#ended = true;
    for (const waiter of this.#waiters.splice(0))
      waiter.fail(new Error('The embedded database has been closed'));
  }

  #acquire(): Promise<void> {
    if (!this.#held) {
      this.#held = true;
      return Promise.resolve();
    }
    return new Promise<void>((resolve, reject) => {
      const waiter = {
        grant: (): void => {
          clearTimeout(timer);
          resolve();
        },
        fail: (error: Error): void => {
          clearTimeout(timer);
          reject(error);
        },
      };
      const timer = setTimeout(() => {
        const i = this.#waiters.indexOf(waiter);
        if (i >= 0) this.#waiters.splice(i, 1);
        reject(
          new Error(
            `Timed out after ${this.#acquireTimeoutMs} ms waiting for the embedded database connection ` +
              '(is code inside a transaction using `db` instead of the transaction object?)',
          ),
        );
      }, this.#acquireTimeoutMs);
      this.#waiters.push(waiter);
    });
  }

  #releaseLock(): void {
    const next = this.#waiters.shift();
    if (next) next.grant();
    else this.#held = false;
  }

  #client(): PostgresPoolClient {
    const pglite = this.#pglite;
    let released = false;
    const query = async <R>(
      sql: string,
      parameters: ReadonlyArray<unknown>,
    ): Promise<PostgresQueryResult<R>> => {
      if (released) throw new Error('Query on a released embedded database connection');
      const result = await pglite.query<R>(sql, parameters.slice());
      return {
        command: (result.command ?? 'SELECT') as Command,
        rowCount: result.rowCount ?? result.affectedRows ?? result.rows.length,
        rows: result.rows,
      };
    };
    const client = {
      query,
      release: (destroy?: boolean): void => {
        if (released) return;
        released = true;
        if (destroy) {
          // Kysely discards a connection whose ROLLBACK failed; the next user must not
          // inherit an open transaction, so end it before handing the connection on.
          pglite
            .query('rollback')
            .catch(() => undefined)
            .finally(() => this.#releaseLock());
          return;
        }
        this.#releaseLock();
      },
    };
    // Kysely's interface overloads query() with a cursor form we never offer (no `cursor`
    // in the dialect config), so streaming is unavailable on both drivers alike.
    return client as unknown as PostgresPoolClient;
  }
}
