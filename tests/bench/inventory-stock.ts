// Medical inventory benchmark, server side (issue 38): the stock of every item, derived from
// the movements (decision 060: never stored), over 2,000 items and 100,000 movements, on the
// embedded PGlite and, when DATABASE_URL is set, on PostgreSQL (a throw-away database on that
// server, dropped again). Target: p95 ≤ 50 ms. Reports only; never fails on a slow machine.
//   npx tsx tests/bench/inventory-stock.ts     (BENCH_ITEMS, BENCH_MOVEMENTS, BENCH_RUNS)
import { fileURLToPath } from 'node:url';
import { sql } from 'kysely';
import { createTestDatabase } from '@rescuelog/db/testing';
import { round, table, writeResult } from './support';

const ITEMS = Number(process.env.BENCH_ITEMS ?? 2_000);
const MOVEMENTS = Number(process.env.BENCH_MOVEMENTS ?? 100_000);
const RUNS = Number(process.env.BENCH_RUNS ?? 50);
const TARGET_P95_MS = 50;

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? Number.NaN;
}

async function benchOn(label: string, databaseUrl: string | undefined) {
  const handle = await createTestDatabase({ databaseUrl });
  try {
    const db = handle.db;
    await sql`insert into users (id, email, password_hash, full_name, status)
      overriding system value values (1, 'bench@example.org', 'x', 'Bench', 'approved')`.execute(
      db,
    );
    await sql`insert into inventory_items (id, description, minimum_qty, unit, user_id)
      select gen_random_uuid(), 'Item ' || g, 1 + g % 10, 'pieces', 1
      from generate_series(1, ${ITEMS}) g`.execute(db);
    await sql`insert into inventory_movements (id, item_id, quantity, reason, at, user_id)
      select gen_random_uuid(), i.id, case when g % 3 = 0 then 5 else -1 end,
        case when g % 3 = 0 then 'received' else 'used' end, now() - (g || ' seconds')::interval, 1
      from generate_series(1, ${MOVEMENTS}) g
      join (select id, row_number() over (order by id) as n from inventory_items) i
        on i.n = 1 + g % ${ITEMS}`.execute(db);
    await sql`analyze`.execute(db);
    const query = sql<{ itemId: string; stock: string }>`
      select i.id as item_id, coalesce(s.stock, 0) as stock from inventory_items i
      left join (select item_id, sum(quantity) as stock from inventory_movements group by item_id) s
        on s.item_id = i.id
      where i.deleted_at is null`;
    for (let i = 0; i < 5; i++) await query.execute(db);
    const times: number[] = [];
    let rows = 0;
    for (let i = 0; i < RUNS; i++) {
      const started = performance.now();
      rows = (await query.execute(db)).rows.length;
      times.push(performance.now() - started);
    }
    times.sort((a, b) => a - b);
    return {
      database: label,
      items: rows,
      movements: MOVEMENTS,
      p50Ms: round(percentile(times, 50)),
      p95Ms: round(percentile(times, 95)),
      targetP95Ms: TARGET_P95_MS,
    };
  } finally {
    await handle.close();
  }
}

export async function runInventoryStockBench(): Promise<void> {
  console.log(
    `\nInventory: the stock of every item (${String(ITEMS)} items, ${String(MOVEMENTS)} movements)`,
  );
  const results = [await benchOn('PGlite', undefined)];
  if (process.env.DATABASE_URL) results.push(await benchOn('PostgreSQL', process.env.DATABASE_URL));
  table(results);
  console.log(`written to ${writeResult('inventory-stock', results)}`);
}

if (process.argv[1] === fileURLToPath(import.meta.url)) await runInventoryStockBench();
