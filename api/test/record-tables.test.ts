// The record kinds' tables, held to their one definition: by the compiler (the Kysely table
// types, api/src/plugins/app/record-tables.ts; the type tests below keep that check from
// passing vacuously) and on the migrated database (the migrations make exactly the platform's
// tables and one table per registered kind, each with a column per record field).
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, expectTypeOf, it } from 'vitest';
import { z } from 'zod';
import { PLATFORM_TABLES, type Database } from '@rescuelog/db/schema';
import { createTestDatabase, type TestDatabaseHandle } from '@rescuelog/db/testing';
import { defineRecord } from '@rescuelog/sync-protocol/platform/record';
import { ownedRecordSchema } from '@rescuelog/sync-protocol/platform/values';
import { appRegistry, type APP_RECORDS } from '@rescuelog/sync-protocol/records/registry';
import type { TableProblemsOf } from '../src/plugins/app/record-tables';

const toSnake = (name: string): string => name.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);

describe('the compiler’s check of the table types', () => {
  it('finds nothing wrong with the app’s tables', () => {
    expectTypeOf<TableProblemsOf<typeof APP_RECORDS, Database>>().toEqualTypeOf<never>();
  });

  it('names a field without a column, a column without a field, and a nullability mismatch', () => {
    type VitalSigns = Database['vitalSigns'];
    type Broken = Omit<Database, 'vitalSigns'> & {
      vitalSigns: Omit<VitalSigns, 'notes' | 'voidedAt'> & { voidedAt: Date; extra: string };
    };
    expectTypeOf<TableProblemsOf<typeof APP_RECORDS, Broken>>().toEqualTypeOf<
      | 'vitalSign.notes: the table vitalSigns has no column for this field (db/src/schema.ts)'
      | 'vitalSign.voidedAt: the record and the column vitalSigns.voidedAt differ in whether it may be null'
      | 'vitalSign: the column vitalSigns.extra is no field of its record'
    >();
  });

  it('names a kind whose table is a table that is not synced (a platform table in the way)', () => {
    const inventoryItem = defineRecord({
      kind: 'inventoryItem',
      label: 'inventory item',
      table: 'uploads',
      sqlTable: 'uploads',
      record: ownedRecordSchema({ description: z.string() }),
      defaults: {},
      lww: true,
      access: { module: 'medicalInventory', logModule: 'medicalInventory', viewAction: 'read' },
      device: { indexes: 'userId' },
      mutators: [],
    });
    expectTypeOf<TableProblemsOf<readonly [typeof inventoryItem], Database>>().toExtend<
      | "inventoryItem: Database['uploads'] is not a synced table (no uuid id, version, updatedAt and deletedAt): another table of that name is in the way"
      | `Database['${string}'] is neither in PLATFORM_TABLES (db/src/schema.ts) nor the table of a registered kind`
    >();
    expect(inventoryItem.kind).toBe('inventoryItem');
  });
});

describe('the migrated database', () => {
  let h: TestDatabaseHandle;
  beforeAll(async () => {
    h = await createTestDatabase();
  });
  afterAll(() => h?.close());

  it('holds the platform’s tables and one table per registered kind, nothing else', async () => {
    const { rows } = await sql<{ tableName: string }>`
      select table_name from information_schema.tables
      where table_schema = current_schema() and table_name not like 'kysely_%'
      order by table_name`.execute(h.db);
    const expected = [
      ...PLATFORM_TABLES.map(toSnake),
      ...appRegistry.definitions.map((d) => d.sqlTable),
    ];
    expect(rows.map((r) => r.tableName).sort()).toEqual(expected.sort());
  });

  it('has a column for every field of every kind, and no other but the field versions', async () => {
    const { rows } = await sql<{ tableName: string; columnName: string }>`
      select table_name, column_name from information_schema.columns
      where table_schema = current_schema()`.execute(h.db);
    for (const def of appRegistry.definitions) {
      const record: unknown = def.record;
      if (!(record instanceof z.ZodObject)) throw new Error(`${def.kind}: not an object schema`);
      const columns = rows.filter((r) => r.tableName === def.sqlTable).map((r) => r.columnName);
      const fields = Object.keys(record.shape).map(toSnake);
      expect(columns.filter((c) => c !== 'field_versions').sort(), def.kind).toEqual(fields.sort());
    }
  });
});
