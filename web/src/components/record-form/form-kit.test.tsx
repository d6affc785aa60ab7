// The kit, tried as a new kind's screen would use it: a throwaway kind defined here (not in
// the app's registry) gets a working form from its field layout alone, over a real device
// database (fake-indexeddb) opened with a registry that holds it. What is typed is saved on
// the device with its outbox entry; a value the kind's schema refuses is answered on its
// field; a locked record is read-only; a wrong field name does not compile.
import 'fake-indexeddb/auto';
import { readOutbox } from '@rescuelog/sync-protocol/client/outbox';
import { SyncDatabase } from '@rescuelog/sync-protocol/client/local-db';
import { int, nShort } from '@rescuelog/sync-protocol/platform/field-types';
import { defineRecord, type RecordDefinition } from '@rescuelog/sync-protocol/platform/record';
import { createRegistry } from '@rescuelog/sync-protocol/platform/registry';
import { RejectionCode } from '@rescuelog/sync-protocol/platform/rejections';
import { ownedRecordSchema } from '@rescuelog/sync-protocol/platform/values';
import { upsertMutator } from '@rescuelog/sync-protocol/platform/verbs';
import { render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createRecord } from '@/lib/records/record-writes';
import { startSyncSession, stopSyncSession } from '@/lib/sync/sync-session';
import { makeUser } from '@/test/fixtures';
import { signedInAs } from '@/test/render-app';
import { server } from '@/test/server';
import { formKit } from './form-kit';

// ---- The throwaway kind: its definition, as a kind's file in sync-protocol would hold it.
const gadgetFieldShape = {
  name: nShort,
  /** Three capital letters, so the schema has something to refuse. */
  code: z
    .string()
    .regex(/^[A-Z]{3}$/, 'Use three capital letters')
    .nullable(),
  count: int(0, 10).nullable(),
  colour: z.enum(['red', 'blue']).nullable(),
  checked: z.boolean(),
  status: z.enum(['open', 'locked']),
};
const gadgetRecordSchema = ownedRecordSchema(gadgetFieldShape);
type GadgetRecord = z.output<typeof gadgetRecordSchema>;
const gadgetKind = {
  kind: 'gadget',
  label: 'gadget',
  table: 'gadgets',
  sqlTable: 'gadgets',
  record: gadgetRecordSchema,
  defaults: { checked: false, status: 'open' } as Partial<GadgetRecord>,
  lww: true,
  lock: { isLocked: (row) => row.status === 'locked', code: RejectionCode.INVALID_STATE },
  access: { module: 'cprLogger', logModule: 'cprLogs', viewAction: 'view' },
  device: { indexes: 'userId' },
} as const satisfies Omit<RecordDefinition<GadgetRecord>, 'mutators'>;
const gadgetRecord = defineRecord({
  ...gadgetKind,
  mutators: [upsertMutator(gadgetKind, z.strictObject(gadgetFieldShape).partial())],
});
const registry = createRegistry([gadgetRecord]);

// ---- The gadget's form: the kit typed for the kind, and the field layout. Nothing else.
const Gadget = formKit(gadgetRecord);

function GadgetForm({ id }: { id: string }) {
  return (
    <Gadget.Form id={id}>
      <Gadget.TextField field="name" label="Name" />
      <Gadget.TextField field="code" label="Code" />
      <Gadget.NumberField field="count" label="Count" min={0} max={10} />
      <Gadget.Choice
        field="colour"
        label="Colour"
        options={[
          { value: 'red', label: 'Red' },
          { value: 'blue', label: 'Blue' },
        ]}
      />
      <Gadget.Checkbox field="checked" label="Checked" />
    </Gadget.Form>
  );
}

/** Never rendered: the lines that must not compile (tsc runs over test files). */
export function WrongFields() {
  return (
    <Gadget.Form id="x">
      {/* @ts-expect-error: a typo in a field name is a type error */}
      <Gadget.TextField field="nmae" label="Name" />
      {/* @ts-expect-error: a number field on a text input is a type error */}
      <Gadget.TextField field="count" label="Count" />
      {/* @ts-expect-error: an option the field's enum does not hold is a type error */}
      <Gadget.Choice field="colour" label="Colour" options={[{ value: 'green', label: 'G' }]} />
      {/* @ts-expect-error: a field that may not be null cannot offer "not recorded" */}
      <Gadget.Choice field="status" label="Status" options={[{ value: 'open', label: 'Open' }]} />
      <Gadget.Choice
        field="status"
        label="Status"
        clearable={false}
        options={[{ value: 'open', label: 'Open' }]}
      />
    </Gadget.Form>
  );
}

const USER = makeUser({ id: 4711 });
let db: SyncDatabase | undefined;

/** The user's device, its database built from the test's registry; the sync API unreachable. */
function deviceWithGadgets() {
  server.use(
    http.post('/api/sync/push', () => HttpResponse.error()),
    http.post('/api/sync/pull', () => HttpResponse.error()),
  );
  signedInAs(USER);
  const session = startSyncSession(USER.id, {
    openDatabase: (userId) => new SyncDatabase(userId, { registry, version: 2, history: [] }),
  });
  if (!session) throw new Error('no IndexedDB in the test environment');
  db = session.db;
  return session;
}

afterEach(async () => {
  stopSyncSession();
  await db?.delete();
  db = undefined;
});

async function upserts(id: string): Promise<unknown[]> {
  if (!db) return [];
  return (await readOutbox(db))
    .filter((e) => e.mutation.name === 'gadget.upsert')
    .map((e) => e.mutation.args as { id: string; fields: unknown })
    .filter((args) => args.id === id)
    .map((args) => args.fields);
}

describe('a kind defined in a test gets a working form from the kit', () => {
  it('saves what is typed and tapped on the device, one change each', async () => {
    deviceWithGadgets();
    const { id } = await createRecord('gadget', { name: 'First' });
    const user = userEvent.setup();
    render(<GadgetForm id={id} />);
    const name = await screen.findByLabelText('Name');
    await waitFor(() => expect(name).toHaveValue('First'));
    expect(name).toHaveAttribute('id', 'field-name');

    await user.clear(name);
    await user.type(name, 'Pump');
    await user.tab();
    await user.click(screen.getByLabelText('Blue'));
    await user.click(screen.getByLabelText('Checked'));

    await waitFor(async () =>
      expect(await upserts(id)).toEqual([
        { name: 'First' },
        { name: 'Pump' },
        { colour: 'blue' },
        { checked: true },
      ]),
    );
    expect(await db?.records('gadget').get(id)).toMatchObject({
      name: 'Pump',
      colour: 'blue',
      checked: true,
      status: 'open',
    });
  });

  it("answers a value the kind's schema refuses on its field, and stores nothing", async () => {
    deviceWithGadgets();
    const { id } = await createRecord('gadget', {});
    const user = userEvent.setup();
    render(<GadgetForm id={id} />);
    const code = await screen.findByLabelText('Code');
    await user.type(code, 'ab1');
    await user.tab();
    expect(await screen.findByText('Use three capital letters')).toBeInTheDocument();
    expect(code).toHaveAttribute('aria-invalid', 'true');
    expect(await upserts(id)).toEqual([{}]);
  });

  it("is read-only while the kind's lock holds the record", async () => {
    deviceWithGadgets();
    const { id } = await createRecord('gadget', { name: 'Sealed', status: 'locked' });
    render(<GadgetForm id={id} />);
    const name = await screen.findByLabelText('Name');
    await waitFor(() => expect(name).toHaveValue('Sealed'));
    expect(name).toHaveAttribute('readonly');
    expect(screen.getByLabelText('Red')).toBeDisabled();
    expect(screen.getByLabelText('Checked')).toBeDisabled();
  });

  it('says so when the record is not on this device', async () => {
    deviceWithGadgets();
    render(<GadgetForm id={crypto.randomUUID()} />);
    expect(await screen.findByText(/This gadget is not stored on this device/)).toBeVisible();
  });
});
