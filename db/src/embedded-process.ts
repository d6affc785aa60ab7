// A short-lived PGlite in a child process, for the work that grows an embedded database's
// memory once and for good: creating a data folder (initdb) and running migrations.
//
// PGlite's heap is a WebAssembly memory, which can grow but never shrink, and the process's
// C allocator keeps what the engine's compilers and initdb freed (measured: a server that
// created its folder in a worker thread held ~190 MiB more than one that reopened it). Work
// done in a child process is given back to the system, all of it, when the child exits.
// The child runs only PGlite; the caller keeps its own code (the migrations are TypeScript of
// this package) and drives the child's database through a Kysely whose single connection
// forwards each statement over the IPC channel (a pool like pglite-pool.ts's, over the wire).
//
// The caller must hold the folder's lock (data-dir-lock.ts) and must not have the folder open
// itself: one PostgreSQL at a time on a data folder.
import { spawn } from 'node:child_process';
import type { Results } from '@electric-sql/pglite';
import { DURABLE_NODEFS_SOURCE } from './durable-fs';
import type { PgliteQueries } from './pglite-pool';
import { pgTextOids } from './type-parsers';

export interface EmbeddedOpenOptions {
  /** Lines written to the folder's postgresql.conf (connect.ts EMBEDDED_SETTINGS). */
  settings: readonly string[];
  /** initdb's arguments when the folder is new. */
  initdbArgs: readonly string[];
  /** PostgreSQL's start parameters (durable-fs.ts EMBEDDED_START_PARAMS: fsync on). */
  startParams: readonly string[];
}

/** A database error from the child, with the fields PGlite and pg give one (code, …). */
interface WireError {
  message: string;
  fields: Record<string, string | number | undefined>;
}

type FromChild =
  | { type: 'ready' }
  | { type: 'failed'; error: WireError }
  | { type: 'result'; id: number; rows: unknown[]; affectedRows?: number; error?: undefined }
  | { type: 'result'; id: number; error: WireError };

// The child's program: plain JavaScript that imports only PGlite (by the resolved URLs the
// parent sends), so it runs the same from the bundled server and from TypeScript tests.
const CHILD_SOURCE = `
const send = (message) =>
  new Promise((resolve, reject) => process.send(message, (error) => (error ? reject(error) : resolve())));
const describe = (error) => {
  const fields = {};
  if (error && typeof error === 'object')
    for (const [key, value] of Object.entries(error))
      if (typeof value === 'string' || typeof value === 'number') fields[key] = value;
  return { message: error instanceof Error ? error.message : String(error), fields };
};
let db;
let queue = Promise.resolve();
// The parent gone (a crash, a kill): close the database rather than leave it half written.
process.on('disconnect', () => {
  queue = queue.then(async () => {
    if (db && !db.closed) await db.close();
    process.exit(0);
  });
});
process.on('message', (message) => {
  queue = queue.then(async () => {
    if (message.type === 'open') {
      try {
        const { PGlite } = await import(message.pglite);
        const { NodeFS } = await import(message.nodefs);
        const { pg_trgm } = await import(message.pgTrgm);
        const createDurableNodeFS = new Function('return ' + message.durableNodefs)();
        db = await PGlite.create({
          fs: createDurableNodeFS(NodeFS, message.dir),
          parsers: Object.fromEntries(message.textOids.map((oid) => [oid, (value) => value])),
          extensions: { pg_trgm },
          postgresqlconf: message.settings,
          initDbStartParams: message.initdbArgs,
          startParams: message.startParams,
        });
        await send({ type: 'ready' });
      } catch (error) {
        await send({ type: 'failed', error: describe(error) });
        process.exit(1);
      }
    } else if (message.type === 'query') {
      try {
        const result = await db.query(message.sql, message.params);
        await send({ type: 'result', id: message.id, rows: result.rows, affectedRows: result.affectedRows });
      } catch (error) {
        await send({ type: 'result', id: message.id, error: describe(error) });
      }
    } else if (message.type === 'close') {
      await db.close();
      process.disconnect();
    }
  });
});
`;

function toError(wire: WireError): Error {
  return Object.assign(new Error(wire.message), wire.fields);
}

export interface ShortLivedEmbeddedDatabase extends PgliteQueries {
  /** Closes the database and waits for the process to exit; rejects if it did not end well. */
  close(): Promise<void>;
}

/**
 * Opens the PGlite data folder `pgliteDir` (creating the database when the folder holds none)
 * in a child process. Statements sent through `query` run there, one at a time; `close`
 * closes it and waits for the process to exit. If opening fails, the process is gone and
 * the promise rejects with the reason.
 */
export async function openShortLivedEmbeddedDatabase(
  pgliteDir: string,
  open: EmbeddedOpenOptions,
): Promise<ShortLivedEmbeddedDatabase> {
  const child = spawn(process.execPath, ['--input-type=module', '--eval', CHILD_SOURCE], {
    serialization: 'advanced',
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  const exited = new Promise<number | null>((resolve) => {
    child.once('exit', (code) => resolve(code));
    child.once('error', () => resolve(null));
  });
  let nextId = 1;
  const waiting = new Map<
    number,
    { resolve: (r: FromChild) => void; reject: (e: Error) => void }
  >();
  let ready: { resolve: () => void; reject: (e: Error) => void } | undefined;
  const opened = new Promise<void>((resolve, reject) => {
    ready = { resolve, reject };
  });
  let closing = false;
  void exited.then((code) => {
    const reason = new Error(
      `The embedded database process ended unexpectedly (exit code ${String(code)})`,
    );
    ready?.reject(reason);
    for (const waiter of waiting.values()) waiter.reject(reason);
    waiting.clear();
  });
  child.on('message', (raw) => {
    const message = raw as FromChild;
    if (message.type === 'ready') ready?.resolve();
    else if (message.type === 'failed')
      ready?.reject(new Error(`Could not open the embedded database: ${message.error.message}`));
    else {
      waiting.get(message.id)?.resolve(message);
      waiting.delete(message.id);
    }
  });
  const stop = async (): Promise<void> => {
    if (child.exitCode === null && child.signalCode === null) child.kill();
    await exited;
  };

  child.send({
    type: 'open',
    pglite: import.meta.resolve('@electric-sql/pglite'),
    nodefs: import.meta.resolve('@electric-sql/pglite/nodefs'),
    pgTrgm: import.meta.resolve('@electric-sql/pglite/contrib/pg_trgm'),
    // The same durable file system as the server's instance (durable-fs.ts).
    durableNodefs: DURABLE_NODEFS_SOURCE,
    dir: pgliteDir,
    settings: [...open.settings],
    initdbArgs: [...open.initdbArgs],
    startParams: [...open.startParams],
    textOids: [...pgTextOids],
  });
  try {
    await opened;
  } catch (error) {
    await stop();
    throw error;
  }

  return {
    async query<R>(sql: string, params?: unknown[]): Promise<Results<R>> {
      if (closing) throw new Error('Query on a closed embedded database process');
      const id = nextId++;
      const answer = await new Promise<FromChild>((resolve, reject) => {
        waiting.set(id, { resolve, reject });
        child.send({ type: 'query', id, sql, params: params ?? [] });
      });
      if (answer.type !== 'result') throw new Error('Unexpected answer from the database process');
      if (answer.error) throw toError(answer.error);
      return {
        rows: answer.rows as R[],
        fields: [],
        ...(answer.affectedRows === undefined ? {} : { affectedRows: answer.affectedRows }),
      };
    },
    async close(): Promise<void> {
      if (closing) return;
      closing = true;
      child.send({ type: 'close' });
      const code = await exited;
      if (code !== 0)
        throw new Error(`The embedded database process ended with exit code ${String(code)}`);
    },
  };
}
