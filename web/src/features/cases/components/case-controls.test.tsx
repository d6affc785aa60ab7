import 'fake-indexeddb/auto';
import type { CaseFields } from '@rescuelog/sync-protocol/cases/case-schema';
import {
  act,
  fireEvent,
  render,
  renderHook,
  screen,
  waitFor,
  within,
} from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { ReactNode } from 'react';
import { afterEach, describe, expect, it } from 'vitest';
import { getSyncSession } from '@/lib/sync/sync-session';
import { makeUser } from '@/test/fixtures';
import { deviceOf, outbox, seedCase, storedCase, wipeDevice } from '../completed/case-test-kit';
import { useCaseByCaseId } from '../data/use-case';
import {
  CaseCheckbox,
  CaseChoice,
  CaseMultiSelect,
  CaseNumberField,
  CaseTextField,
  CaseTimeField,
  CaseYesNo,
} from './case-controls';
import { useShownValue } from '@/components/record-form/use-shown-value';
import { RecordFormProvider } from '@/components/record-form/record-form-provider';
import { NOT_STORED } from '@/components/record-form/record-form';

const USER = makeUser({ id: 7 });

afterEach(async () => {
  await wipeDevice(USER);
});

/** The controls over the live local case, as a step renders them. */
function LiveCase({ caseId, children }: { caseId: string; children: ReactNode }) {
  const lookup = useCaseByCaseId(caseId);
  if (lookup.state !== 'ready') return <p role="status">{lookup.state}</p>;
  return (
    <RecordFormProvider kind="case" record={lookup.record}>
      {children}
    </RecordFormProvider>
  );
}

async function renderControls(fields: CaseFields, controls: ReactNode) {
  deviceOf(USER);
  const seeded = await seedCase(fields);
  const user = userEvent.setup();
  const view = render(<LiveCase caseId={seeded.caseId}>{controls}</LiveCase>);
  await waitFor(() => expect(screen.queryByRole('status')).not.toBeInTheDocument());
  return { ...seeded, user, view };
}

/** The fields of each case.upsert queued for this case after it was created. */
async function edits(id: string): Promise<Record<string, unknown>[]> {
  return (await outbox())
    .filter(
      (e) =>
        e.mutation.name === 'case.upsert' &&
        (e.mutation.args as { id: string; humanId?: string }).id === id &&
        !(e.mutation.args as { humanId?: string }).humanId,
    )
    .map((e) => (e.mutation.args as { fields: Record<string, unknown> }).fields);
}

describe('CaseTextField', () => {
  it('saves once after a pause in typing, with only that field, and gives the input the field id', async () => {
    const { id, user } = await renderControls(
      { callerName: 'Kept' },
      <CaseTextField field="patientName" label="Patient name" />,
    );
    const input = screen.getByLabelText('Patient name');
    expect(input).toHaveAttribute('id', 'field-patientName');

    await user.type(input, 'Sipho');
    // Still typing (no pause yet): nothing stored.
    expect(await edits(id)).toEqual([]);
    await waitFor(async () => expect(await edits(id)).toEqual([{ patientName: 'Sipho' }]), {
      timeout: 2000,
    });
    expect(await storedCase(id)).toMatchObject({ patientName: 'Sipho', callerName: 'Kept' });
  });

  it('saves what was typed when the field loses focus and when the screen closes', async () => {
    const { id, user, view } = await renderControls(
      {},
      <>
        <CaseTextField field="patientName" label="Patient name" />
        <CaseTextField field="callerName" label="Caller name" />
      </>,
    );
    await user.type(screen.getByLabelText('Patient name'), 'Ann');
    await user.tab();
    await waitFor(async () => expect(await edits(id)).toEqual([{ patientName: 'Ann' }]));

    await user.type(screen.getByLabelText('Caller name'), 'Bob');
    view.unmount();
    await waitFor(async () =>
      expect(await edits(id)).toEqual([{ patientName: 'Ann' }, { callerName: 'Bob' }]),
    );
  });

  it('saves what was typed at once when the page is hidden (phone locked, app switched)', async () => {
    const { id, user } = await renderControls(
      {},
      <CaseTextField field="patientName" label="Patient name" />,
    );
    await user.type(screen.getByLabelText('Patient name'), 'Zola');
    const visibility = Object.getOwnPropertyDescriptor(Document.prototype, 'visibilityState');
    Object.defineProperty(document, 'visibilityState', { configurable: true, get: () => 'hidden' });
    try {
      document.dispatchEvent(new Event('visibilitychange'));
      // Well inside the typing pause: only the hidden page can have saved it.
      await waitFor(async () => expect(await edits(id)).toEqual([{ patientName: 'Zola' }]), {
        timeout: 400,
      });
    } finally {
      if (visibility) Object.defineProperty(document, 'visibilityState', visibility);
      else Reflect.deleteProperty(document, 'visibilityState');
    }
  });

  it('stores an emptied field as not recorded (null)', async () => {
    const { id, user } = await renderControls(
      { patientName: 'Wrong' },
      <CaseTextField field="patientName" label="Patient name" />,
    );
    const input = screen.getByLabelText('Patient name');
    await waitFor(() => expect(input).toHaveValue('Wrong'));
    await user.clear(input);
    await user.tab();
    await waitFor(async () => expect(await edits(id)).toEqual([{ patientName: null }]));
  });

  it('follows a change made elsewhere (another tab, a pull) while not being edited', async () => {
    const { id } = await renderControls(
      { patientName: 'Old' },
      <CaseTextField field="patientName" label="Patient name" />,
    );
    await getSyncSession()?.db.store('cases').update(id, { patientName: 'From the server' });
    await waitFor(() =>
      expect(screen.getByLabelText('Patient name')).toHaveValue('From the server'),
    );
  });
});

describe('CaseNumberField', () => {
  it('refuses a value out of range or not a whole number with a message, and saves nothing', async () => {
    const { id, user } = await renderControls(
      {},
      <CaseNumberField
        field="approximateAge"
        label="Approximate age"
        unit="years"
        min={0}
        max={150}
      />,
    );
    const input = screen.getByLabelText('Approximate age (years)');

    await user.type(input, '200');
    await user.tab();
    expect(await screen.findByRole('alert')).toHaveTextContent('Enter a number from 0 to 150');
    expect(input).toHaveAttribute('aria-invalid', 'true');
    expect(input).toHaveAccessibleDescription('Enter a number from 0 to 150');

    await user.clear(input);
    await user.type(input, '4.5');
    await user.tab();
    expect(await screen.findByRole('alert')).toHaveTextContent('Enter a whole number');
    await new Promise((resolve) => setTimeout(resolve, 700));
    expect(await edits(id)).toEqual([]);

    await user.clear(input);
    await user.type(input, '45');
    await user.tab();
    await waitFor(async () => expect(await edits(id)).toEqual([{ approximateAge: 45 }]));
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
  });

  it('nudges with − and + within the range', async () => {
    const { id, user } = await renderControls(
      { approximateAge: 149 },
      <CaseNumberField field="approximateAge" label="Approximate age" min={0} max={150} />,
    );
    const input = screen.getByLabelText('Approximate age');
    await waitFor(() => expect(input).toHaveValue('149'));
    await user.click(screen.getByRole('button', { name: 'Approximate age: increase' }));
    await user.click(screen.getByRole('button', { name: 'Approximate age: increase' }));
    expect(input).toHaveValue('150');
    await waitFor(async () => expect((await storedCase(id))?.approximateAge).toBe(150), {
      timeout: 2000,
    });
    await user.click(screen.getByRole('button', { name: 'Approximate age: decrease' }));
    await waitFor(async () => expect((await storedCase(id))?.approximateAge).toBe(149), {
      timeout: 2000,
    });
  });
});

describe('CaseTimeField', () => {
  it('sets the time to now (to the minute) with one tap, shows it, and clears it', async () => {
    const now = () => new Date('2026-11-20T10:15:42.123Z');
    const { id, user } = await renderControls(
      {},
      <CaseTimeField field="callReceivedTime" label="Call received" now={now} />,
    );
    const input = screen.getByLabelText('Call received');
    // The app's own format, not the browser's locale (issue 37).
    expect(input).toHaveAttribute('type', 'text');
    expect(input).toHaveAttribute('placeholder', '28 Nov 2026, 14:05');
    expect(screen.queryByRole('button', { name: 'Call received: clear' })).not.toBeInTheDocument();
    // Now and Clear name the input they set.
    expect(screen.getByRole('button', { name: 'Call received: now' })).toHaveAttribute(
      'aria-controls',
      input.id,
    );

    await user.click(screen.getByRole('button', { name: 'Call received: now' }));
    await waitFor(async () =>
      expect(await edits(id)).toEqual([{ callReceivedTime: '2026-11-20T10:15:00.000Z' }]),
    );
    // Shown on the service's clock (SAST, UTC+2) although the tests run in UTC.
    await waitFor(() => expect(input).toHaveValue('20 Nov 2026, 12:15'));

    expect(screen.getByRole('button', { name: 'Call received: clear' })).toHaveAttribute(
      'aria-controls',
      input.id,
    );
    await user.click(screen.getByRole('button', { name: 'Call received: clear' }));
    await waitFor(async () => expect((await storedCase(id))?.callReceivedTime).toBeNull());
    await waitFor(() => expect(input).toHaveValue(''));
  });

  it('keeps the stored time while a new one is half typed, and clears it only when left empty', async () => {
    const { id } = await renderControls(
      { arrivalTime: '2026-11-20T10:05:00.000Z' },
      <CaseTimeField field="arrivalTime" label="Ambulance arrival time" />,
    );
    const input = screen.getByLabelText('Ambulance arrival time');
    await waitFor(() => expect(input).toHaveValue('20 Nov 2026, 12:05'));
    // Emptied and half retyped: the stored time stays until the text reads as a time.
    fireEvent.change(input, { target: { value: '' } });
    fireEvent.change(input, { target: { value: '20 Nov 2026, 12:0' } });
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect((await storedCase(id))?.arrivalTime).toBe('2026-11-20T10:05:00.000Z');
    fireEvent.change(input, { target: { value: '20 Nov 2026, 12:07' } });
    await waitFor(async () =>
      expect((await storedCase(id))?.arrivalTime).toBe('2026-11-20T10:07:00.000Z'),
    );

    fireEvent.change(input, { target: { value: '' } });
    fireEvent.blur(input);
    await waitFor(async () => expect((await storedCase(id))?.arrivalTime).toBeNull());
    expect(await edits(id)).toEqual([
      { arrivalTime: '2026-11-20T10:07:00.000Z' },
      { arrivalTime: null },
    ]);
  });

  it('saves a typed date and time as an instant on the service clock', async () => {
    const { id } = await renderControls(
      {},
      <CaseTimeField field="departureTime" label="Departure time" />,
    );
    const input = screen.getByLabelText('Departure time');
    // Day before month, as typed in South Africa; shown back in the app's one format.
    fireEvent.change(input, { target: { value: '20/11/2026 13:05' } });
    await waitFor(async () =>
      expect(await edits(id)).toEqual([{ departureTime: '2026-11-20T11:05:00.000Z' }]),
    );
    fireEvent.blur(input);
    expect(input).toHaveValue('20 Nov 2026, 13:05');
  });

  it('says so when the typed text is not a date and time, and saves nothing', async () => {
    const { id } = await renderControls(
      {},
      <CaseTimeField field="departureTime" label="Departure time" />,
    );
    const input = screen.getByLabelText('Departure time');
    fireEvent.change(input, { target: { value: '30/02/2026 10:00' } });
    fireEvent.blur(input);
    expect(await screen.findByText('Enter a date and time like 28 Nov 2026, 14:05')).toBeVisible();
    expect(input).toHaveAttribute('aria-invalid', 'true');
    expect(await edits(id)).toEqual([]);
  });
});

describe('choices', () => {
  const options = [
    { value: 'Male', label: 'Male' },
    { value: 'Female', label: 'Female' },
  ];

  it('saves a choice on tap, and clears it', async () => {
    const { id, user } = await renderControls(
      {},
      <CaseChoice field="patientGender" label="Gender" options={options} required />,
    );
    const group = screen.getByRole('group', { name: 'Gender (required to complete)' });
    expect(group).toHaveAttribute('id', 'field-patientGender');
    await user.click(within(group).getByRole('radio', { name: 'Female' }));
    await waitFor(async () => expect(await edits(id)).toEqual([{ patientGender: 'Female' }]));
    await waitFor(() => expect(within(group).getByRole('radio', { name: 'Female' })).toBeChecked());

    await user.click(screen.getByRole('button', { name: 'Clear gender' }));
    await waitFor(async () => expect((await storedCase(id))?.patientGender).toBeNull());
  });

  it('saves yes/no, a checkbox and a multi-select on tap', async () => {
    const { id, user } = await renderControls(
      {},
      <>
        <CaseYesNo field="hasMedicalAid" label="Medical aid" />
        <CaseCheckbox
          field="oxygenAdministered"
          label="Oxygen administered"
          warning="Check the flow rate"
        />
        <CaseMultiSelect
          field="symptoms"
          label="Symptoms"
          options={[
            { value: 'Chest pain', label: 'Chest pain' },
            { value: 'Nausea', label: 'Nausea' },
          ]}
        />
      </>,
    );
    await user.click(
      within(screen.getByRole('group', { name: 'Medical aid' })).getByRole('radio', { name: 'No' }),
    );
    const oxygen = screen.getByRole('checkbox', { name: 'Oxygen administered' });
    expect(oxygen).toHaveAccessibleDescription('Check the flow rate');
    await user.click(oxygen);
    await user.click(screen.getByRole('checkbox', { name: 'Chest pain' }));
    await waitFor(() => expect(screen.getByRole('checkbox', { name: 'Chest pain' })).toBeChecked());
    await user.click(screen.getByRole('checkbox', { name: 'Nausea' }));
    await waitFor(async () =>
      expect((await storedCase(id))?.symptoms).toEqual(['Chest pain', 'Nausea']),
    );
    expect(await edits(id)).toEqual([
      { hasMedicalAid: false },
      { oxygenAdministered: true },
      { symptoms: ['Chest pain'] },
      { symptoms: ['Chest pain', 'Nausea'] },
    ]);
  });

  it('shows what is stored again, and says it was not saved, when the device cannot store a tap', async () => {
    const { id, user } = await renderControls(
      { hasMedicalAid: true },
      <>
        <CaseYesNo field="hasMedicalAid" label="Medical aid" />
        <CaseCheckbox field="oxygenAdministered" label="Oxygen administered" />
        <CaseMultiSelect
          field="symptoms"
          label="Symptoms"
          options={[{ value: 'Chest pain', label: 'Chest pain' }]}
        />
        <CaseChoice field="patientGender" label="Gender" options={options} />
      </>,
    );
    const db = getSyncSession()?.db;
    if (!db) throw new Error('no session');
    // The device refuses every write of a case from now on (as a full disk does).
    const refuse = () => {
      throw new Error('QuotaExceededError: the device storage is full');
    };
    db.store('cases').hook('updating', refuse);
    await user.click(
      within(screen.getByRole('group', { name: 'Medical aid' })).getByRole('radio', { name: 'No' }),
    );
    await user.click(screen.getByRole('checkbox', { name: 'Oxygen administered' }));
    await user.click(screen.getByRole('checkbox', { name: 'Chest pain' }));
    await user.click(
      within(screen.getByRole('group', { name: 'Gender' })).getByRole('radio', { name: 'Female' }),
    );

    // None of the taps looks saved: each control shows the stored value again.
    await waitFor(() =>
      expect(
        within(screen.getByRole('group', { name: 'Medical aid' })).getByRole('radio', {
          name: 'Yes',
        }),
      ).toBeChecked(),
    );
    await waitFor(() =>
      expect(screen.getByRole('checkbox', { name: 'Oxygen administered' })).not.toBeChecked(),
    );
    await waitFor(() =>
      expect(screen.getByRole('checkbox', { name: 'Chest pain' })).not.toBeChecked(),
    );
    await waitFor(() =>
      expect(
        within(screen.getByRole('group', { name: 'Gender' })).getByRole('radio', {
          name: 'Female',
        }),
      ).not.toBeChecked(),
    );
    expect(screen.getByText(NOT_STORED)).toBeInTheDocument();
    db.store('cases').hook('updating').unsubscribe(refuse);
    const stored = await storedCase(id);
    expect([
      stored?.hasMedicalAid,
      stored?.oxygenAdministered ?? false,
      stored?.symptoms ?? [],
      stored?.patientGender ?? null,
    ]).toEqual([true, false, [], null]);
    expect(await edits(id)).toEqual([]);
  });

  it('shows a tap at once, and a second quick tap builds on the first (nothing dropped)', async () => {
    const { id } = await renderControls(
      {},
      <>
        <CaseChoice field="patientGender" label="Gender" options={options} />
        <CaseMultiSelect
          field="symptoms"
          label="Symptoms"
          options={[
            { value: 'Chest pain', label: 'Chest pain' },
            { value: 'Nausea', label: 'Nausea' },
          ]}
        />
      </>,
    );
    // Two taps before the device has stored the first.
    fireEvent.click(screen.getByRole('checkbox', { name: 'Chest pain' }));
    expect(screen.getByRole('checkbox', { name: 'Chest pain' })).toBeChecked();
    fireEvent.click(screen.getByRole('checkbox', { name: 'Nausea' }));
    fireEvent.click(screen.getByRole('radio', { name: 'Male' }));
    expect(screen.getByRole('radio', { name: 'Male' })).toBeChecked();
    await waitFor(async () =>
      expect(await storedCase(id)).toMatchObject({
        symptoms: ['Chest pain', 'Nausea'],
        patientGender: 'Male',
      }),
    );
    expect(screen.getByRole('checkbox', { name: 'Chest pain' })).toBeChecked();
    expect(screen.getByRole('checkbox', { name: 'Nausea' })).toBeChecked();
  });

  it('keeps the last quick tap shown while an earlier one lands, so the next tap builds on it', () => {
    const sameList = (a: readonly string[], b: readonly string[]) =>
      a.length === b.length && a.every((v, i) => v === b[i]);
    const { result, rerender } = renderHook(
      ({ stored }: { stored: readonly string[] }) => useShownValue(stored, sameList),
      { initialProps: { stored: [] as readonly string[] } },
    );
    let first = () => undefined as void;
    let second = () => undefined as void;
    act(() => {
      first = result.current.expect(['Chest pain']);
    });
    act(() => {
      second = result.current.expect(['Chest pain', 'Nausea']);
    });
    // The first tap is stored (a busy device: the second waits behind a pull's writes).
    act(() => first());
    rerender({ stored: ['Chest pain'] });
    expect(result.current.shown).toEqual(['Chest pain', 'Nausea']);
    // A third tap meanwhile builds on both.
    let third = () => undefined as void;
    act(() => {
      third = result.current.expect([...result.current.shown, 'Dizziness']);
    });
    rerender({ stored: ['Chest pain', 'Nausea'] });
    act(() => second());
    expect(result.current.shown).toEqual(['Chest pain', 'Nausea', 'Dizziness']);
    rerender({ stored: ['Chest pain', 'Nausea', 'Dizziness'] });
    act(() => third());
    expect(result.current.shown).toEqual(['Chest pain', 'Nausea', 'Dizziness']);
    // With no save on its way, a change made elsewhere (another tab, a pull) shows.
    rerender({ stored: ['Nausea'] });
    expect(result.current.shown).toEqual(['Nausea']);
  });

  it('gives options ids without spaces, so labels stay tied to their inputs', async () => {
    await renderControls(
      {},
      <CaseChoice
        field="transportPriority"
        label="Transport priority"
        options={[{ value: 'Priority 1 (red)', label: 'Priority 1 (red)' }]}
      />,
    );
    const radio = screen.getByRole('radio', { name: 'Priority 1 (red)' });
    expect(radio.id).toBe('field-transportPriority-Priority-1-red');
  });
});

describe('a completed case', () => {
  it('is read-only: nothing can be typed, tapped or saved', async () => {
    deviceOf(USER);
    const seeded = await seedCase({ patientName: 'Locked', patientGender: 'Male' });
    await getSyncSession()?.db.store('cases').update(seeded.id, { status: 'completed' });
    const user = userEvent.setup();
    render(
      <LiveCase caseId={seeded.caseId}>
        <CaseTextField field="patientName" label="Patient name" />
        <CaseNumberField field="approximateAge" label="Approximate age" min={0} max={150} />
        <CaseTimeField field="callReceivedTime" label="Call received" />
        <CaseChoice
          field="patientGender"
          label="Gender"
          options={[
            { value: 'Male', label: 'Male' },
            { value: 'Female', label: 'Female' },
          ]}
        />
        <CaseCheckbox field="oxygenAdministered" label="Oxygen administered" />
      </LiveCase>,
    );
    const name = await screen.findByLabelText('Patient name');
    expect(name).toHaveAttribute('readonly');
    await user.type(name, 'X');
    expect(name).toHaveValue('Locked');
    expect(screen.getByRole('button', { name: 'Approximate age: increase' })).toBeDisabled();
    expect(screen.getByRole('button', { name: 'Call received: now' })).toBeDisabled();
    expect(screen.getByRole('radio', { name: 'Female' })).toBeDisabled();
    expect(screen.queryByRole('button', { name: 'Clear gender' })).not.toBeInTheDocument();
    expect(screen.getByRole('checkbox', { name: 'Oxygen administered' })).toBeDisabled();
    await user.tab();
    await new Promise((resolve) => setTimeout(resolve, 700));
    expect(await edits(seeded.id)).toEqual([]);
  });
});
