// The app registry's types come from its one list (records/registry.ts), and a test registry
// built from the app's kinds and a throwaway kind is typed the same way. A kind's tables are
// its own: a clash names both kinds.
import { describe, expect, expectTypeOf, it } from 'vitest';
import { z } from 'zod';
import type { CaseRecord } from '../../src/cases/case-schema';
import type { CaseAddendumRecord } from '../../src/cases/case-addendum';
import type { VitalSignRecord } from '../../src/cases/vital-sign';
import type { ConflictRecord } from '../../src/platform/conflict-record';
import { defineRecord, type RecordDefinition } from '../../src/platform/record';
import type { MutationOf, RecordMapOf } from '../../src/platform/record-types';
import { createRegistry } from '../../src/platform/registry';
import { deleteMutator, upsertMutator } from '../../src/platform/verbs';
import { ownedRecordSchema } from '../../src/platform/values';
import {
  APP_RECORDS,
  type AppMutationArgs,
  type SyncEntity,
  type SyncRecordMap,
} from '../../src/records/registry';

const noteFields = z.strictObject({ text: z.string().max(200) });
const noteKind = {
  kind: 'fieldNote',
  label: 'field note',
  table: 'fieldNotes',
  sqlTable: 'field_notes',
  record: ownedRecordSchema(noteFields.shape),
  defaults: {},
  lww: true,
  access: { module: 'newCase', logModule: 'casesLogged', viewAction: 'view' },
  device: { indexes: 'userId' },
} as const;
const noteRecord = defineRecord({
  ...noteKind,
  mutators: [upsertMutator(noteKind, noteFields), deleteMutator(noteKind)],
});

describe('the app registry types', () => {
  it('are derived from APP_RECORDS: each kind its record, and the conflicts', () => {
    expectTypeOf<SyncRecordMap['case']>().toEqualTypeOf<CaseRecord>();
    expectTypeOf<SyncRecordMap['vitalSign']>().toEqualTypeOf<VitalSignRecord>();
    expectTypeOf<SyncRecordMap['caseAddendum']>().toEqualTypeOf<CaseAddendumRecord>();
    expectTypeOf<SyncRecordMap['syncConflict']>().toEqualTypeOf<ConflictRecord>();
    expectTypeOf<SyncEntity>().toEqualTypeOf<
      | 'case'
      | 'vitalSign'
      | 'cprSession'
      | 'cprEvent'
      | 'incidentReport'
      | 'mciIncident'
      | 'mciCasualty'
      | 'caseAddendum'
      | 'sopVersion'
      | 'sopAcknowledgement'
      | 'inventoryItem'
      | 'inventoryBatch'
      | 'inventoryMovement'
      | 'mciTriage'
      | 'incidentReportAddendum'
      | 'syncConflict'
    >();
    expectTypeOf<AppMutationArgs<'case.delete'>>().toEqualTypeOf<{ id: string }>();
  });

  it('type a test registry of the app kinds and a throwaway kind alike', () => {
    const records = [...APP_RECORDS, noteRecord] as const;
    const registry = createRegistry(records);
    expect(registry.kinds).toContain('fieldNote');
    type Map = RecordMapOf<typeof records>;
    expectTypeOf<Map['fieldNote']['text']>().toEqualTypeOf<string>();
    expectTypeOf<Map['case']>().toEqualTypeOf<CaseRecord>();
    const save: MutationOf<typeof records> = {
      name: 'fieldNote.upsert',
      args: { id: 'x', fields: { text: 'Road closed' } },
    };
    expect(save.name).toBe('fieldNote.upsert');
    const wrong: MutationOf<typeof records> = {
      name: 'fieldNote.upsert',
      // @ts-expect-error a field the kind does not have
      args: { id: 'x', fields: { txt: 'x' } },
    };
    expect(wrong).toBeDefined();
  });
});

describe('a kind whose tables clash', () => {
  const renamed = (changes: Partial<RecordDefinition>): RecordDefinition => ({
    ...noteRecord,
    kind: 'otherNote',
    mutators: [],
    ...changes,
  });

  it('is refused with both kinds named when another kind uses its table', () => {
    expect(() =>
      createRegistry([...APP_RECORDS, renamed({ table: 'cases', sqlTable: 'cases' })]),
    ).toThrow('Record kinds case and otherNote both use the table cases');
    expect(() => createRegistry([noteRecord, renamed({})])).toThrow(
      'Record kinds fieldNote and otherNote both use the table fieldNotes',
    );
    expect(() =>
      createRegistry([renamed({ table: 'syncConflicts', sqlTable: 'sync_conflicts' })]),
    ).toThrow('Record kinds otherNote and syncConflict both use the table syncConflicts');
  });

  it('is refused when its table and sqlTable are two names', () => {
    expect(() =>
      createRegistry([renamed({ table: 'inventoryItems', sqlTable: 'medical_inventory' })]),
    ).toThrow(
      'otherNote: its table inventoryItems and its sqlTable medical_inventory must be one name (inventory_items in SQL)',
    );
  });

  it('is refused when its name is another kind’s', () => {
    expect(() => createRegistry([...APP_RECORDS, renamed({ kind: 'case' })])).toThrow(
      'Record kind case is defined twice',
    );
  });
});
