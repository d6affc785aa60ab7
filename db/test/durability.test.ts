// An acknowledged write is never lost (decision 034).
//
// 1. A process that writes to an embedded folder the way the server does is killed (SIGKILL)
//    right after acknowledging writes, many times over; each restart on the same folder finds
//    every acknowledged write.
// 2. A power cut cannot be simulated here: after a SIGKILL the operating system still holds
//    what the process wrote in its page cache and writes it later, so test 1 passes even when
//    nothing is ever flushed to the disk (it did before decision 034). What a power cut needs is
//    that a commit is flushed to the disk before it returns, and that a checkpoint flushes the
//    tables before the log that covers them is recycled: test 2 watches PGlite's file system
//    for those flushes (fsync of the real files) with the server's own options.
import { spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { PGlite } from '@electric-sql/pglite';
import { afterEach, describe, expect, it } from 'vitest';
import { embeddedPgliteOptions } from '../src/connect';

const serverUrl = process.env.DATABASE_URL;
const dbDir = path.dirname(path.dirname(fileURLToPath(import.meta.url)));
const FIXTURE = path.join('test', 'fixtures', 'acknowledge-writes.ts');

interface Round {
  /** The rows of earlier rounds the process found when it started. */
  found: string[];
  /** The writes it acknowledged before it was killed. */
  acknowledged: string[];
}

/** Runs the writing process on `dataDir`, kills it (SIGKILL) after `kill` acknowledgements. */
function killedRound(dataDir: string, round: string, kill: number): Promise<Round> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', FIXTURE, dataDir, round], {
      cwd: dbDir,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let found: string[] | undefined;
    const acknowledged: string[] = [];
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    createInterface({ input: child.stdout }).on('line', (line) => {
      if (line.startsWith('found ')) found = JSON.parse(line.slice('found '.length)) as string[];
      else if (line.startsWith('ack ')) {
        acknowledged.push(line.slice('ack '.length));
        if (acknowledged.length === kill) child.kill('SIGKILL');
      }
    });
    child.on('exit', (code, signal) => {
      if (signal === 'SIGKILL' && found) resolve({ found, acknowledged });
      else reject(new Error(`round ${round} ended with ${String(code ?? signal)}: ${stderr}`));
    });
    // The last round acknowledges nothing: it only reports what it found.
    if (kill === 0)
      child.stdout.once('data', () => {
        child.kill('SIGKILL');
      });
  });
}

describe.skipIf(serverUrl)('acknowledged writes on the embedded database', () => {
  let dataDir: string | undefined;
  afterEach(async () => {
    if (dataDir) await rm(dataDir, { recursive: true, force: true });
    dataDir = undefined;
  });

  it('survive the process being killed right after it acknowledged them, round after round', async () => {
    dataDir = await mkdtemp(path.join(tmpdir(), 'rescuelog-kill-'));
    const acknowledged: string[] = [];
    // How many acknowledgements each round waits for before the kill: one (killed while the
    // second write is under way), a few, many. Each round reopens the folder (seconds).
    const kills = [1, 3, 40, 1, 150, 2, 0];
    for (const [round, kill] of kills.entries()) {
      const result = await killedRound(dataDir, String(round), kill);
      expect(result.found).toEqual(expect.arrayContaining(acknowledged));
      // The kill lands a moment after the line that asked for it: a few more may come first.
      expect(result.acknowledged.length).toBeGreaterThanOrEqual(kill);
      acknowledged.push(...result.acknowledged);
    }
    expect(acknowledged.length).toBeGreaterThanOrEqual(197);
  }, 300_000);

  it('are flushed to the disk before the commit returns, and tables before the log is recycled', async () => {
    dataDir = await mkdtemp(path.join(tmpdir(), 'rescuelog-fsync-'));
    const pgliteDir = path.join(dataDir, 'pglite');
    const pglite = await PGlite.create(embeddedPgliteOptions(pgliteDir));
    try {
      // Watch the file system's flushes (each still runs: this only records the file's name).
      const streamOps = (
        pglite.Module.NODEFS as unknown as {
          stream_ops: { fsync?: (stream: { path: string; nfd: number }) => number };
        }
      ).stream_ops;
      const fsync = streamOps.fsync;
      expect(fsync, 'PGlite’s NODEFS can flush a file').toBeTypeOf('function');
      const flushed: string[] = [];
      streamOps.fsync = (stream) => {
        flushed.push(stream.path);
        return fsync?.(stream) ?? 0;
      };
      await pglite.exec('create table acknowledged (id int primary key, note text)');

      flushed.length = 0;
      await pglite.query(`insert into acknowledged values (1, 'a patient record')`);
      expect(flushed.some((file) => file.includes('/pg_wal/'))).toBe(true);

      flushed.length = 0;
      await pglite.transaction(async (tx) => {
        await tx.query(`insert into acknowledged values (2, 'another')`);
        await tx.query(`update acknowledged set note = 'edited' where id = 1`);
      });
      expect(flushed.some((file) => file.includes('/pg_wal/'))).toBe(true);

      // A checkpoint flushes the table it writes out (base/<database>/<table file>) and the
      // control file that moves the log's start past what it covered.
      flushed.length = 0;
      await pglite.exec('checkpoint');
      const { rows } = await pglite.query<{ file: string }>(
        `select pg_relation_filepath('acknowledged') as file`,
      );
      const tableFile = rows[0]?.file ?? 'missing';
      expect(flushed.some((file) => file.endsWith(`/${tableFile}`))).toBe(true);
      expect(flushed.some((file) => file.endsWith('/global/pg_control'))).toBe(true);
    } finally {
      await pglite.close();
    }
  });
});
