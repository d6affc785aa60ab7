// One process at a time on an embedded database folder. PGlite is PostgreSQL in this process:
// a second process opening the same folder (a second `npm start`, or `npm run migrate` while
// the server runs) would write the same files with no coordination and corrupt patient
// records. So the folder is claimed by a lock file beside it, created exclusively, holding
// the owner's pid and host. A lock whose process is gone (a crash, a power cut) is taken
// over; a live one refuses with a message that says what to do.
import { readFileSync } from 'node:fs';
import { open, readFile, rm, stat } from 'node:fs/promises';
import { hostname } from 'node:os';
import path from 'node:path';

interface LockContent {
  pid: number;
  host: string;
  startedAt: string;
  /** Linux's id of the current boot: a lock from an earlier boot is stale whatever its pid
   * names now (after a power cut the pid may belong to another program). */
  bootId?: string;
}

function readBootId(): string | undefined {
  try {
    return readFileSync('/proc/sys/kernel/random/boot_id', 'utf8').trim() || undefined;
  } catch {
    return undefined; // not Linux
  }
}
const BOOT_ID = readBootId();

function isLockContent(value: unknown): value is LockContent {
  if (typeof value !== 'object' || value === null) return false;
  const v = value as Record<string, unknown>;
  return (
    typeof v.pid === 'number' &&
    Number.isInteger(v.pid) &&
    v.pid > 0 &&
    typeof v.host === 'string' &&
    typeof v.startedAt === 'string' &&
    (v.bootId === undefined || typeof v.bootId === 'string')
  );
}

/** An unreadable lock younger than this may be one another process is writing right now. */
const FRESH_LOCK_MS = 5_000;

export class DataDirLockedError extends Error {
  readonly code = 'DATA_DIR_LOCKED';
  constructor(
    readonly folder: string,
    readonly owner: LockContent,
  ) {
    super(
      `The embedded database in ${folder} is in use by another RescueLog process ` +
        `(pid ${String(owner.pid)} on ${owner.host}, since ${owner.startedAt}). ` +
        'Stop that process first (Ctrl+C in its terminal), or give this one another DATA_DIR.',
    );
    this.name = 'DataDirLockedError';
  }
}

export interface DataDirLock {
  readonly path: string;
  /** Removes the lock file if it is still this process's. Safe to call twice. */
  release(): Promise<void>;
}

/** The lock files this process holds now (absolute paths). */
const held = new Set<string>();

/** Whether a process with this pid exists on this machine. */
function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: it exists but belongs to someone else.
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

async function readOwner(lockPath: string): Promise<LockContent | null> {
  try {
    const parsed: unknown = JSON.parse(await readFile(lockPath, 'utf8'));
    return isLockContent(parsed) ? parsed : null;
  } catch {
    return null;
  }
}

/** Claims `<folder>.lock` for this process, or throws DataDirLockedError. */
export async function lockDataDir(folder: string): Promise<DataDirLock> {
  const lockPath = `${path.resolve(folder)}.lock`;
  const mine: LockContent = {
    pid: process.pid,
    host: hostname(),
    startedAt: new Date().toISOString(),
    ...(BOOT_ID ? { bootId: BOOT_ID } : {}),
  };
  for (let attempt = 0; attempt < 3; attempt++) {
    try {
      const file = await open(lockPath, 'wx');
      try {
        await file.writeFile(JSON.stringify(mine));
      } finally {
        await file.close();
      }
      let released = false;
      held.add(lockPath);
      return {
        path: lockPath,
        release: async () => {
          if (released) return;
          released = true;
          try {
            const owner = await readOwner(lockPath);
            if (owner && owner.pid === mine.pid && owner.startedAt === mine.startedAt)
              await rm(lockPath, { force: true });
          } finally {
            held.delete(lockPath);
          }
        },
      };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    }
    const owner = await readOwner(lockPath);
    // A lock from another host (a shared folder) cannot be checked: it is respected. One naming
    // this process that it does not hold was left by an earlier run that had the same pid (a
    // restarted container numbers its processes the same way again): it is stale.
    if (owner) {
      const earlierBoot =
        owner.host === mine.host &&
        owner.bootId !== undefined &&
        mine.bootId !== undefined &&
        owner.bootId !== mine.bootId;
      const live =
        owner.host !== mine.host ||
        (!earlierBoot && (owner.pid === mine.pid ? held.has(lockPath) : processAlive(owner.pid)));
      if (live) throw new DataDirLockedError(folder, owner);
    }
    if (!owner) {
      const age = await stat(lockPath).then(
        (s) => Date.now() - s.mtimeMs,
        () => Infinity,
      );
      if (age < FRESH_LOCK_MS)
        throw new Error(
          `The embedded database in ${folder} is being opened by another process just now. Try again in a few seconds.`,
        );
    }
    // Left by a process that is gone, or unreadable and old (cut off while being written): take over.
    await rm(lockPath, { force: true });
  }
  throw new Error(`Could not claim ${lockPath}: another process keeps replacing it.`);
}
