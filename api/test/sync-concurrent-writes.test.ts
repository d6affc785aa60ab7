// Pushes run concurrently (decision 033): writes commit out of version order, and a pull's
// cursor must still never pass a change that commits later with a smaller version (the safe
// horizon, services/sync/sync-tables.ts). Pushes of one device, and pushes of one record,
// still take their turns. The interleavings need a second connection holding a transaction
// open, which only a PostgreSQL server has; the pull-while-pushing check also runs on the
// embedded database (one connection: the writes are then serial).
import { RawNode, sql, type KyselyPlugin, type QueryId, type Transaction } from 'kysely';
import type { Database } from '@rescuelog/db/schema';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PullResponse } from '@rescuelog/sync-protocol/platform/push-pull';
import { RejectionCode } from '@rescuelog/sync-protocol/platform/rejections';
import { pullChanges } from '../src/services/sync/pull-service';
import { beginSyncWrite, syncHorizon, TICKET_BASE } from '../src/services/sync/sync-tables';
import {
  buildSyncApp,
  completeCaseVital,
  Device,
  humanId,
  OWN_CASES_ONLY,
  pull,
  pullAll,
  syncUser,
  uuid,
  type SyncUser,
} from './sync-fixtures';
import type { TestApp } from './helpers';

const onPostgres = process.env.DATABASE_URL !== undefined;

/** What a device holds after pulling: each record's latest version and patient name. */
type Replica = Map<string, { version: bigint; patientName: unknown }>;

function apply(replica: Replica, changes: PullResponse['changes']): void {
  for (const change of changes) {
    const version = BigInt(change.version);
    const known = replica.get(change.id);
    if (known && known.version >= version) continue;
    const record = change.data;
    replica.set(change.id, { version, patientName: record?.patientName });
  }
}

describe('sync writes running concurrently', () => {
  let t: TestApp;
  let alice: SyncUser;
  let bob: SyncUser;
  let admin: SyncUser;

  beforeAll(async () => {
    t = await buildSyncApp();
    alice = await syncUser(t);
    bob = await syncUser(t);
    admin = await syncUser(t, {}, 'administrator');
  });
  afterAll(() => t.close());

  async function caseVersion(id: string): Promise<string> {
    const row = await t.db
      .selectFrom('cases')
      .select('version')
      .where('id', '=', id)
      .executeTakeFirstOrThrow();
    return String(row.version);
  }

  it.skipIf(!onPostgres)(
    'a pull holds its cursor below a write that took its version first and commits last',
    async () => {
      const device = new Device(alice);
      const held = uuid();
      await device.push(
        device.m('case.upsert', { id: held, humanId: humanId('C'), fields: { patientName: 'A' } }),
      );
      const { cursor: start } = await pullAll(bob.client);

      // Another writer (a conflict resolution, a case reopened: any sync write) takes its
      // ticket and a version for the case, and stays open.
      let release = (): void => undefined;
      const released = new Promise<void>((resolve) => {
        release = resolve;
      });
      let wrote = (_version: string): void => undefined;
      const written = new Promise<string>((resolve) => {
        wrote = resolve;
      });
      const writer = t.db.transaction().execute(async (tx) => {
        await beginSyncWrite(tx);
        const row = await tx
          .updateTable('cases')
          .set({ patientName: 'A, held back' })
          .where('id', '=', held)
          .returning('version')
          .executeTakeFirstOrThrow();
        wrote(String(row.version));
        await released;
      });
      try {
        const heldVersion = BigInt(await written);
        // A push that starts later takes a larger version and commits first.
        const later = uuid();
        await device.push(
          device.m('case.upsert', {
            id: later,
            humanId: humanId('C'),
            fields: { patientName: 'B' },
          }),
        );
        const laterVersion = BigInt(await caseVersion(later));
        expect(laterVersion).toBeGreaterThan(heldVersion);
        // Without the horizon a pull would answer from its snapshot, which holds the later
        // change and not the held one: its cursor would pass the held version.
        const naive = await t.db
          .transaction()
          .setIsolationLevel('repeatable read')
          .execute(async (tx) => {
            const { rows } = await sql<{
              top: string;
            }>`select max(version)::text as top from cases where version > ${start}`.execute(tx);
            return BigInt(rows[0]?.top ?? '0');
          });
        expect(naive).toBeGreaterThanOrEqual(laterVersion);

        const page = await pull(bob.client, start);
        expect(BigInt(page.cursor)).toBeLessThan(heldVersion);
        expect(page.changes.map((c) => c.id)).not.toContain(later);
        expect(page.hasMore).toBe(false);
        release();
        await writer;
        const rest = await pullAll(bob.client, page.cursor);
        const replica: Replica = new Map();
        apply(replica, [...page.changes, ...rest.changes]);
        expect(replica.get(held)).toEqual({ version: heldVersion, patientName: 'A, held back' });
        expect(replica.get(later)).toEqual({ version: laterVersion, patientName: 'B' });
      } finally {
        release();
        await writer.catch(() => undefined);
      }
    },
  );

  /** Runs `open` in a transaction of its own connection and keeps it open until the returned
   * release is called (then it rolls back). */
  async function holdOpen(
    open: (tx: Transaction<Database>) => Promise<void>,
  ): Promise<{ release: () => Promise<void> }> {
    let done = (): void => undefined;
    const finished = new Promise<void>((resolve) => {
      done = resolve;
    });
    let opened = (): void => undefined;
    const ready = new Promise<void>((resolve) => {
      opened = resolve;
    });
    const holder = t.db
      .transaction()
      .execute(async (tx) => {
        await open(tx);
        opened();
        await finished;
        throw new Error('rolled back');
      })
      .catch(() => undefined);
    await ready;
    return {
      release: async () => {
        done();
        await holder;
      },
    };
  }

  it.skipIf(!onPostgres)(
    'the horizon reads the sequence first, then the tickets: a ticket taken between the two reads holds it',
    async () => {
      // The horizon's argument needs (1) the sequence's last value read before (2) the tickets
      // held (sync-tables.ts syncHorizon). Another connection holds the sequence locked
      // (ALTER SEQUENCE … OWNER takes an ACCESS EXCLUSIVE lock), so the horizon waits at the
      // read of the sequence; meanwhile a third connection takes a ticket below the last
      // value, then the sequence is let go. Read in this order, the horizon sees the ticket
      // (the ticket's value, 1); with the tickets read first it would not (last value + 1).
      const device = new Device(alice);
      await device.push(
        device.m('case.upsert', {
          id: uuid(),
          humanId: humanId('C'),
          fields: { patientName: 'A' },
        }),
      );
      const locked = await holdOpen(async (tx) => {
        await sql`alter sequence sync_version_seq owner to current_user`.execute(tx);
      });
      let ticket: { release: () => Promise<void> } | undefined;
      try {
        const horizon = syncHorizon(t.db);
        // Until the horizon waits for the sequence's lock.
        for (let i = 0; ; i++) {
          const { rows } = await sql<{ n: number }>`select count(*)::int as n from pg_stat_activity
            where datname = current_database() and wait_event_type = 'Lock'
              and query like '%sync_horizon%'`.execute(t.db);
          if ((rows[0]?.n ?? 0) > 0) break;
          if (i > 200) throw new Error('The horizon never waited for the sequence');
          await new Promise((resolve) => setTimeout(resolve, 10));
        }
        ticket = await holdOpen(async (tx) => {
          await sql`select pg_advisory_xact_lock(${String(TICKET_BASE + 1n)}::bigint)`.execute(tx);
        });
        await locked.release();
        expect(await horizon).toBe(1n);
      } finally {
        await locked.release();
        await ticket?.release();
      }
      // With no ticket held, the horizon is the last value handed out + 1.
      const { rows } = await sql<{
        last: string;
      }>`select last_value::text as last from sync_version_seq`.execute(t.db);
      expect(await syncHorizon(t.db)).toBe(BigInt(rows[0]?.last ?? '0') + 1n);
    },
  );

  it.skipIf(!onPostgres)(
    'a page is one snapshot: a row that becomes visible while the pull runs is on the page with its change, or not at all',
    async () => {
      // Carol sees only her own cases and what is under them. While her pull runs, between its
      // first read of the page and the next statement, Alice's case is given to Carol: the
      // vital sign under it (an older version, below the horizon) becomes hers to see. The
      // answer must then agree with itself: every version on the page (its cursor, its count,
      // the audit's ids) has its change in the body. A page whose versions and rows came from
      // two snapshots, or whose JSON covered only the kinds seen first, could name the vital
      // sign and not send it, and the cursor would pass it.
      // (This fails with readPage's JSON left to the kinds the first read saw: the page
      // names the vital sign, the body has only Carol's case.)
      const carol = await syncUser(t, OWN_CASES_ONLY);
      const alices = new Device(alice);
      const given = uuid();
      const vital = completeCaseVital(given);
      await alices.push(
        alices.m('case.upsert', { id: given, humanId: humanId('C'), fields: { patientName: 'A' } }),
        alices.m('vitalSign.record', vital),
      );
      const own = uuid();
      const carols = new Device(carol);
      await carols.push(
        carols.m('case.upsert', { id: own, humanId: humanId('C'), fields: { patientName: 'C' } }),
      );
      // Once the statement after the horizon's has answered.
      let horizon: QueryId | undefined;
      let state: 'before' | 'horizon read' | 'given' = 'before';
      const between: KyselyPlugin = {
        transformQuery: (args) => {
          if (RawNode.is(args.node) && args.node.sqlFragments.join('').includes('sync_horizon'))
            horizon = args.queryId;
          return args.node;
        },
        transformResult: async (args) => {
          if (args.queryId === horizon) state = 'horizon read';
          else if (state === 'horizon read') {
            state = 'given';
            await t.db
              .updateTable('cases')
              .set({ userId: carol.id })
              .where('id', '=', given)
              .execute();
          }
          return args.result;
        },
      };
      const deviceId = uuid();
      const page = await pullChanges(
        t.db.withPlugin(between),
        t.app.records,
        { id: carol.id, role: 'member', permissions: OWN_CASES_ONLY },
        { cursor: null, limit: 100 },
        { origin: { ip: null, userAgent: null }, deviceId, cursor: null },
      );
      expect(state).toBe('given');
      // The page was read twice (the vital sign's kind came onto it): one audit entry, of the
      // page as answered (decision 041; fails with the entry written by the first read too).
      const audit = await t.db
        .selectFrom('auditLog')
        .select('details')
        .where('action', '=', 'sync.pull')
        .where('entityId', '=', deviceId)
        .execute();
      expect(audit.map((a) => a.details)).toEqual([
        {
          cursor: null,
          nextCursor: page.cursor,
          count: 2,
          ids: { vitalSign: [vital.id], case: [own] },
        },
      ]);
      const body = JSON.parse(page.body) as PullResponse;
      // This implementation reads the page after the kinds, so it holds the vital sign; one
      // that answered from the first read would hold only Carol's case, which is as right.
      expect(body.changes.map((c) => c.id)).toEqual([vital.id, own]);
      expect(page.count).toBe(body.changes.length);
      expect(page.ids).toEqual({ vitalSign: [vital.id], case: [own] });
      expect(body.cursor).toBe(body.changes.at(-1)?.version);
    },
  );

  it('every puller ends with every record in its final state while pushes commit out of order', async () => {
    // On PostgreSQL a case written as "slow" then waits 40 ms after taking its version, so
    // pushes that started later commit first (a trigger of the test database only).
    if (onPostgres) {
      await sql`create or replace function test_commit_later() returns trigger
        language plpgsql as $$ begin
          if new.patient_name like '%slow%' then perform pg_sleep(0.04); end if;
          return null;
        end $$`.execute(t.db);
      await sql`create trigger test_commit_later after insert or update on cases
        for each row execute function test_commit_later()`.execute(t.db);
    }
    try {
      const { cursor: start } = await pullAll(alice.client);
      const owners = [alice, alice, bob, bob, alice, bob];
      const created = new Set<string>();
      const pushing = owners.map(async (owner, d) => {
        const device = new Device(owner);
        const mine: string[] = [];
        for (let i = 0; i < 6; i++) {
          const batch = [];
          for (let k = 0; k < 1 + (i % 2); k++) {
            const id = uuid();
            mine.push(id);
            created.add(id);
            batch.push(
              device.m('case.upsert', {
                id,
                humanId: humanId('C'),
                fields: {
                  patientName: `d${String(d)} p${String(i)} c${String(k)}${(d + i) % 3 === 0 ? ' slow' : ''}`,
                },
              }),
            );
          }
          // And a later edit of one of this device's earlier cases.
          const earlier = mine[Math.floor(mine.length / 3)];
          if (earlier !== undefined && i > 0)
            batch.push(
              device.m('case.upsert', {
                id: earlier,
                fields: { patientName: `d${String(d)} edit ${String(i)}` },
              }),
            );
          const res = await device.push(...batch);
          expect(res.results.map((r) => r.status)).toEqual(batch.map(() => 'applied'));
        }
      });
      let done = false;
      const pullers = [alice, bob, alice, bob].map(async (user) => {
        const replica: Replica = new Map();
        let cursor = start;
        while (!done) {
          const page = await pull(user.client, cursor, 2);
          apply(replica, page.changes);
          cursor = page.cursor;
        }
        const rest = await pullAll(user.client, cursor);
        apply(replica, rest.changes);
        return replica;
      });
      await Promise.all(pushing);
      done = true;
      const replicas = await Promise.all(pullers);
      const rows = await t.db
        .selectFrom('cases')
        .select(['id', 'version', 'patientName'])
        .where('id', 'in', [...created])
        .execute();
      expect(rows).toHaveLength(created.size);
      for (const replica of replicas)
        for (const row of rows)
          expect({ id: row.id, ...replica.get(row.id) }).toEqual({
            id: row.id,
            version: BigInt(row.version),
            patientName: row.patientName,
          });
    } finally {
      if (onPostgres) {
        await sql`drop trigger test_commit_later on cases`.execute(t.db);
        await sql`drop function test_commit_later()`.execute(t.db);
      }
    }
  });

  it.skipIf(!onPostgres)(
    'one batch sent four times at once by one device is applied once',
    async () => {
      const device = new Device(alice);
      const id = uuid();
      const batch = [
        device.m('case.upsert', { id, humanId: humanId('C'), fields: { patientName: 'Once' } }),
        device.m('case.upsert', { id, fields: { patientName: 'Once, edited' } }),
      ];
      const answers = await Promise.all([1, 2, 3, 4].map(() => device.push(...batch)));
      const statuses = answers.map((a) => a.results.map((r) => r.status).join());
      expect(statuses.filter((s) => s === 'applied,applied')).toHaveLength(1);
      expect(statuses.filter((s) => s === 'duplicate,duplicate')).toHaveLength(3);
      for (const a of answers) expect(a.lastAppliedSeq).toBe(2);
      const handled = await t.db
        .selectFrom('appliedMutations')
        .select('seq')
        .where('deviceId', '=', device.deviceId)
        .execute();
      expect(handled.map((h) => Number(h.seq)).sort()).toEqual([1, 2]);
      const audit = await t.db
        .selectFrom('auditLog')
        .select('action')
        .where('entityId', '=', id)
        .where('action', '=', 'sync.case.upsert')
        .execute();
      expect(audit).toHaveLength(2);
      const row = await t.db
        .selectFrom('cases')
        .select('patientName')
        .where('id', '=', id)
        .executeTakeFirstOrThrow();
      expect(row.patientName).toBe('Once, edited');
    },
  );

  it.skipIf(!onPostgres)(
    'a known device sending one batch with a refused change several times at once: every answer repeats the refusal',
    async () => {
      // The push's first statement locks the device's row and reads its handled mutations and
      // rejections (push-bookkeeping.ts openPush). A push that waited there for another one
      // of the device must not answer from reads older than what that push committed.
      const device = new Device(alice);
      const id = uuid();
      await device.push(
        device.m('case.upsert', { id, humanId: humanId('C'), fields: { patientName: 'Known' } }),
      );
      for (let round = 0; round < 3; round++) {
        const batch = [
          device.m('case.upsert', { id, fields: { gcsEyeOpening: 9 } }),
          device.m('case.upsert', { id, fields: { patientName: `Round ${String(round)}` } }),
        ];
        const answers = await Promise.all([1, 2, 3, 4].map(() => device.push(...batch)));
        for (const a of answers) {
          expect(a.results.map((r) => [r.status, r.code])).toEqual([
            ['rejected', RejectionCode.VALIDATION_FAILED],
            [expect.stringMatching(/^(applied|duplicate)$/), undefined],
          ]);
        }
        expect(answers.filter((a) => a.results[1]?.status === 'applied')).toHaveLength(1);
      }
      const rejections = await t.db
        .selectFrom('syncRejections')
        .select('seq')
        .where('deviceId', '=', device.deviceId)
        .execute();
      expect(rejections).toHaveLength(3);
    },
  );

  it.skipIf(!onPostgres)(
    'two people changing one field from the same base at once: the later write wins and the conflict is kept',
    async () => {
      const aliceDevice = new Device(alice);
      const adminDevice = new Device(admin);
      for (let round = 0; round < 3; round++) {
        const id = uuid();
        await aliceDevice.push(
          aliceDevice.m('case.upsert', {
            id,
            humanId: humanId('C'),
            fields: { patientName: 'Initial' },
          }),
        );
        const base = await caseVersion(id);
        const [fromAlice, fromAdmin] = await Promise.all([
          aliceDevice.push(
            aliceDevice.m(
              'case.upsert',
              { id, fields: { patientName: `Alice ${String(round)}` } },
              { baseVersion: base },
            ),
          ),
          adminDevice.push(
            adminDevice.m(
              'case.upsert',
              { id, fields: { patientName: `Admin ${String(round)}` } },
              { baseVersion: base },
            ),
          ),
        ]);
        expect(fromAlice.results[0]?.status).toBe('applied');
        expect(fromAdmin.results[0]?.status).toBe('applied');
        // Whichever went second replaced the other's newer value: exactly that one reports it,
        // and the conflict kept names the value the case now holds as the client's.
        const reported = [fromAlice, fromAdmin].map((r) => r.results[0]?.conflicts?.length ?? 0);
        expect(reported.sort()).toEqual([0, 1]);
        const conflicts = await t.db
          .selectFrom('syncConflicts')
          .select(['field', 'serverValue', 'clientValue'])
          .where('entityId', '=', id)
          .execute();
        const row = await t.db
          .selectFrom('cases')
          .select(['patientName'])
          .where('id', '=', id)
          .executeTakeFirstOrThrow();
        expect(conflicts).toHaveLength(1);
        expect(conflicts[0]?.field).toBe('patientName');
        expect(conflicts[0]?.clientValue).toBe(row.patientName);
        expect([`Alice ${String(round)}`, `Admin ${String(round)}`]).toContain(
          conflicts[0]?.serverValue,
        );
      }
    },
  );
});
