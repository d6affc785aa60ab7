// Decision 048: on PostgreSQL a statement the server runs again and again is prepared once per
// connection and then planned from PostgreSQL's plan cache; the answers stay the same, a
// parameterless text is never prepared, and a statement whose table changed under it works
// again after the one failure PostgreSQL gives.
import { sql, type Kysely } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../src/schema';
import { MAX_PER_CONNECTION, PREPARE_AFTER } from '../src/statement-cache';
import { createTestDatabase, type TestDatabaseHandle } from '../src/testing';
import { insertUser } from './helpers';

const serverUrl = process.env.DATABASE_URL;

/** The prepared statements of the connection that runs this, with their text. */
async function preparedHere(db: Kysely<Database>): Promise<string[]> {
  const { rows } = await sql<{
    statement: string;
  }>`select statement from pg_prepared_statements where statement like ${'%probe%'}`.execute(db);
  return rows.map((row) => row.statement);
}

describe.runIf(serverUrl)('prepared statements on PostgreSQL (decision 048)', () => {
  let handle: TestDatabaseHandle;
  beforeAll(async () => {
    handle = await createTestDatabase();
    await insertUser(handle.db, 'probe-one@example.org');
    await insertUser(handle.db, 'probe-two@example.org');
  });
  afterAll(async () => {
    await handle.close();
  });

  it('prepares a statement run again and again, once per connection, with the same answers', async () => {
    await handle.db.connection().execute(async (db) => {
      const probe = (email: string) =>
        db
          .selectFrom('users')
          .select(['email', sql<string>`'probe'`.as('tag')])
          .where('email', '=', email)
          .execute();
      const answers = [];
      for (let run = 0; run < PREPARE_AFTER + 3; run += 1)
        answers.push(await probe(run % 2 ? 'probe-one@example.org' : 'probe-two@example.org'));
      for (const [run, rows] of answers.entries())
        expect(rows, `run ${String(run)}`).toEqual([
          { email: run % 2 ? 'probe-one@example.org' : 'probe-two@example.org', tag: 'probe' },
        ]);
      const prepared = await preparedHere(db);
      expect(prepared).toHaveLength(1);
      expect(prepared[0]).toContain('"email" = $');
    });
  });

  it('never prepares a statement without parameters', async () => {
    await handle.db.connection().execute(async (db) => {
      for (let run = 0; run < PREPARE_AFTER + 3; run += 1)
        await sql`select 'probe-plain' as tag`.execute(db);
      expect(await preparedHere(db)).not.toContainEqual(expect.stringContaining('probe-plain'));
    });
  });

  it('after a column change under a prepared select *, fails once and then answers the new shape, on every connection', async () => {
    await sql`create table probe_shape (id int primary key, label text)`.execute(handle.db);
    await sql`insert into probe_shape values (1, 'one')`.execute(handle.db);
    const read = (db: Kysely<Database>) =>
      sql<
        Record<string, unknown>
      >`select *, 'probe' as tag from probe_shape where id = ${1}`.execute(db);
    const outcome = async (db: Kysely<Database>): Promise<string> => {
      try {
        const { rows } = await read(db);
        return Object.keys(rows[0] ?? {}).join(',');
      } catch (error) {
        return `error ${String((error as { code?: string }).code)}`;
      }
    };
    // Two connections at once, each with the statement prepared.
    await handle.db.connection().execute(async (first) => {
      await handle.db.connection().execute(async (second) => {
        for (let run = 0; run < PREPARE_AFTER + 1; run += 1) {
          await read(first);
          await read(second);
        }
        expect(await preparedHere(first)).toContainEqual(expect.stringContaining('probe_shape'));
        expect(await preparedHere(second)).toContainEqual(expect.stringContaining('probe_shape'));
        await sql`alter table probe_shape add column extra text default 'x'`.execute(first);
        // PostgreSQL answers 0A000 ("cached plan must not change result type") once; from then
        // on the text goes unnamed on every connection, so the other one never meets it.
        expect(await outcome(first)).toBe('error 0A000');
        expect(await outcome(second)).toBe('id,label,extra,tag');
        expect(await outcome(first)).toBe('id,label,extra,tag');
      });
    });
  });

  it('keeps at most MAX_PER_CONNECTION statements on one connection', async () => {
    await handle.db.connection().execute(async (db) => {
      const before = (await preparedHere(db)).length;
      for (let shape = 0; shape < MAX_PER_CONNECTION + 5; shape += 1)
        for (let run = 0; run < PREPARE_AFTER; run += 1)
          await sql`select ${shape} as n, 'probe' as tag, ${sql.raw(`'${String(shape)}'`)} as shape`.execute(
            db,
          );
      const after = await preparedHere(db);
      expect(after.length).toBeLessThanOrEqual(MAX_PER_CONNECTION);
      expect(after.length).toBeGreaterThan(before);
    });
  });
});
