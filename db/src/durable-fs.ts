// An embedded database whose acknowledged commits reach the disk (decision 034).
//
// PGlite 0.5 on Node keeps a data folder in real files (Emscripten's NODEFS: every write is a
// `fs.writeSync` into the folder, so a commit is in the operating system's page cache when it
// returns and survives a killed process). But nothing ever reaches the disk itself: PGlite
// starts PostgreSQL with `-F` (fsync off), and even with fsync on, NODEFS has no fsync
// operation, so PostgreSQL's fsync() is a no-op and its fdatasync() is a stub in Emscripten's
// syscall layer. A power cut, a kernel panic or a pulled disk could then lose commits the
// server acknowledged, or tear pages a checkpoint had written (and whose log it recycled).
//
// Three changes make PostgreSQL's own durability rules hold again:
// - NODEFS gets the fsync operation it lacks: `fs.fsyncSync` on the real file (below).
// - PostgreSQL starts without `-F` (EMBEDDED_START_PARAMS): fsync on, so a commit flushes its
//   log before returning, and a checkpoint flushes the tables before recycling the log.
// - wal_sync_method = fsync (connect.ts): PostgreSQL's default, fdatasync, would call
//   Emscripten's stub and flush nothing.
// A new folder's files are copied out of initdb's memory without any flush, so after it is
// created the folder is flushed once as a whole (flushFolder).
import { open, readdir } from 'node:fs/promises';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import type { NodeFS } from '@electric-sql/pglite/nodefs';

/** PGlite's start parameters without `-F`: PostgreSQL runs with fsync on. */
export const EMBEDDED_START_PARAMS: readonly string[] = PGlite.defaultStartParams.filter(
  (param) => param !== '-F',
);

/**
 * Makes a NodeFS for a data folder whose files PostgreSQL can fsync: Emscripten's fsync(2)
 * calls the stream's fsync operation when there is one, and NODEFS has none. A failure
 * becomes an errno (PostgreSQL then stops rather than carry on unsure).
 *
 * Plain JavaScript source, because the short-lived database process (embedded-process.ts)
 * runs it too and has no TypeScript; this is its one definition, evaluated here and there.
 * It receives PGlite's NodeFS class and looks up node:fs itself.
 */
export const DURABLE_NODEFS_SOURCE = `(NodeFS, dataDir) => {
  class DurableNodeFS extends NodeFS {
    async init(pg, opts) {
      const result = await super.init(pg, opts);
      result.emscriptenOpts.preRun = [
        ...(result.emscriptenOpts.preRun ?? []),
        (mod) => {
          const nodefs = mod.NODEFS;
          const { fsyncSync } = process.getBuiltinModule('node:fs');
          nodefs.stream_ops.fsync = (stream) => {
            nodefs.tryFSOperation(() => fsyncSync(stream.nfd));
            return 0;
          };
        },
      ];
      return result;
    }
  }
  return new DurableNodeFS(dataDir);
}`;

/** A NodeFS for `dataDir` whose files PostgreSQL flushes to the disk (DURABLE_NODEFS_SOURCE). */
export const createDurableNodeFS = new Function(`return ${DURABLE_NODEFS_SOURCE}`)() as (
  NodeFSClass: typeof NodeFS,
  dataDir: string,
) => NodeFS;

/**
 * Flushes every file and folder under `dir` to the disk (fsync each), children before their
 * parent so that the names are durable too. For a newly created database folder: initdb's
 * files are written without a flush, and PostgreSQL only flushes what it changes later.
 */
export async function flushFolder(dir: string): Promise<void> {
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    const target = path.join(dir, entry.name);
    if (entry.isDirectory()) await flushFolder(target);
    else if (entry.isFile()) await flushFile(target);
  }
  await flushFile(dir);
}

async function flushFile(target: string): Promise<void> {
  const handle = await open(target, 'r');
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
}
