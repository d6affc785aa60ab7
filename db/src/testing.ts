// Test databases: in-memory PGlite when DATABASE_URL is unset; otherwise a fresh, uniquely
// named database on that server, dropped again by close(). Either way migrated and empty.
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { createEmbeddedDatabase, createPostgresDatabase } from './connect';
import type { DatabaseHandle } from './connect';
import { migrateToLatest } from './migrate';

export interface TestDatabaseOptions {
  /** Defaults to process.env.DATABASE_URL. */
  databaseUrl?: string | undefined;
  /** Skip migrations (for migration tests). Default true. */
  migrate?: boolean;
}

export interface TestDatabaseHandle extends DatabaseHandle {
  /** For the postgres kind, the URL of the created database; undefined when embedded. */
  databaseUrl: string | undefined;
}

/** Creates an empty database `name` on the server of `serverUrl`; returns its URL. */
async function createServerDatabase(serverUrl: string, name: string): Promise<string> {
  const admin = new pg.Client({ connectionString: serverUrl });
  await admin.connect();
  try {
    await admin.query(`create database "${name}"`);
  } finally {
    await admin.end();
  }
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return url.toString();
}

async function dropServerDatabase(serverUrl: string, name: string): Promise<void> {
  const admin = new pg.Client({ connectionString: serverUrl });
  await admin.connect();
  try {
    await admin.query(`drop database if exists "${name}" with (force)`);
  } finally {
    await admin.end();
  }
}

export async function createTestDatabase(
  opts: TestDatabaseOptions = {},
): Promise<TestDatabaseHandle> {
  const serverUrl = 'databaseUrl' in opts ? opts.databaseUrl : process.env.DATABASE_URL;
  const shouldMigrate = opts.migrate ?? true;
  if (!serverUrl) {
    const handle = await createEmbeddedDatabase(undefined);
    if (shouldMigrate) await migrateToLatest(handle.db);
    return { ...handle, databaseUrl: undefined };
  }
  const name = `test_${randomBytes(6).toString('hex')}`;
  const url = await createServerDatabase(serverUrl, name);
  const handle = await createPostgresDatabase(url, { poolSize: 5 });
  const close = async (): Promise<void> => {
    await handle.close();
    await dropServerDatabase(serverUrl, name);
  };
  try {
    if (shouldMigrate) await migrateToLatest(handle.db);
  } catch (error) {
    await close();
    throw error;
  }
  return { ...handle, databaseUrl: url, close };
}
