// docs/adding-a-record-kind.md shows real code: its first TypeScript block is the marked
// region of adding-a-record-kind.example.ts (which the typecheck compiles), and the kind it
// defines joins the app's kinds in a registry, typed like them.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, expectTypeOf, it } from 'vitest';
import type { MutationOf, RecordMapOf } from '../../src/platform/record-types';
import { createRegistry } from '../../src/platform/registry';
import { APP_RECORDS } from '../../src/records/registry';
import { inventoryCountRecord } from './adding-a-record-kind.example';

const read = (path: string): string =>
  readFileSync(fileURLToPath(new URL(path, import.meta.url)), 'utf8');

describe('docs/adding-a-record-kind.md', () => {
  it('shows the example file’s code, imports included', () => {
    const doc = read('../../../docs/adding-a-record-kind.md');
    const block = /```ts\n([\s\S]*?)```/.exec(doc)?.[1];
    const region = /\/\/ #region example\n([\s\S]*?)\/\/ #endregion example/.exec(
      read('./adding-a-record-kind.example.ts'),
    )?.[1];
    expect(region).toBeDefined();
    expect(block).toBe(region);
  });

  it('defines a kind that joins the app’s registry, typed like the others', () => {
    const records = [...APP_RECORDS, inventoryCountRecord] as const;
    const registry = createRegistry(records);
    expect(registry.get('inventoryCount').sqlTable).toBe('inventory_counts');
    expectTypeOf<
      RecordMapOf<typeof records>['inventoryCount']['quantity']
    >().toEqualTypeOf<number>();
    // An upsert names only the fields it changes.
    const change: MutationOf<typeof records> = {
      name: 'inventoryCount.upsert',
      args: { id: '7d0c7a3e-4f39-4f55-9d35-1f1f3f8f0b6a', fields: { quantity: 3 } },
    };
    expect(registry.parseMutation({ ...envelope, ...change }).args).toEqual(change.args);
  });
});

const envelope = {
  mutationId: '0b7d5a8e-8f0a-4d8e-9a57-6c0f3c1d2e3f',
  deviceId: '3a1e6f2b-5c4d-4e8f-9a0b-1c2d3e4f5a6b',
  seq: 1,
  actorUserId: 1,
  protocolVersion: 1,
  schemaVersion: 4,
  clientTime: '2026-11-28T05:00:00.000Z',
  baseVersion: null,
  entityIds: ['7d0c7a3e-4f39-4f55-9d35-1f1f3f8f0b6a'],
};
