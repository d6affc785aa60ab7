import type { Kysely } from 'kysely';
import type { Database } from '../src/schema';

let counter = 0;

/** Inserts a user with a unique email; returns its id. */
export async function insertUser(db: Kysely<Database>, email?: string): Promise<number> {
  counter += 1;
  const row = await db
    .insertInto('users')
    .values({
      email: email ?? `user${counter}-${Date.now()}@example.org`,
      passwordHash: 'hash',
      fullName: 'Test User',
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

/** The SQLSTATE of a database error (pg and PGlite both expose `code`). */
export async function sqlState(promise: Promise<unknown>): Promise<string> {
  try {
    await promise;
  } catch (error) {
    if (error && typeof error === 'object' && 'code' in error && typeof error.code === 'string')
      return error.code;
    throw error;
  }
  throw new Error('Expected the statement to fail, but it succeeded');
}
