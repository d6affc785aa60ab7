import 'fake-indexeddb/auto';
import { fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it } from 'vitest';
import { getSyncSession } from '@/lib/sync/sync-session';
import { makeUser } from '@/test/fixtures';
import { deviceOf, outbox, seedCase, wipeDevice } from '../completed/case-test-kit';
import { recordVitalSign } from '../data/case-writes';
import { VitalSignsPanel } from './vital-signs-panel';
import vitals from './vitals.module.css';

const USER = makeUser({ id: 7 });

afterEach(async () => {
  await wipeDevice(USER);
});

interface Row {
  id: string;
  type: string;
  value: string;
  numericValue: number | null;
  status: string | null;
  timestamp: string;
  voidedAt: string | null;
  voidReason: string | null;
}

async function storedVitals(caseUuid: string): Promise<Row[]> {
  const rows =
    (await getSyncSession()?.db.store('vitalSigns').where('caseId').equals(caseUuid).toArray()) ??
    [];
  return rows as unknown as Row[];
}

async function panelFor(
  fields: { approximateAge?: number | null; gcsTotal?: number | null },
  options: { readOnly?: boolean } = {},
) {
  deviceOf(USER);
  const { id } = await seedCase({ ...fields });
  const caseRecord = {
    id,
    status: 'in_progress' as const,
    approximateAge: fields.approximateAge ?? null,
    gcsTotal: fields.gcsTotal ?? null,
  };
  const user = userEvent.setup();
  const view = render(
    <VitalSignsPanel caseRecord={caseRecord} readOnly={options.readOnly ?? false} />,
  );
  return { ...view, user, id };
}

/** Types a set: label → text (blood pressure as 'sys/dia'). */
async function typeSet(user: ReturnType<typeof userEvent.setup>, set: Record<string, string>) {
  for (const [label, text] of Object.entries(set)) {
    if (label === 'bp') {
      const [sys = '', dia = ''] = text.split('/');
      if (sys) await user.type(screen.getByLabelText('Systolic'), sys);
      if (dia) await user.type(screen.getByLabelText('Diastolic'), dia);
    } else {
      await user.type(screen.getByLabelText(label), text);
    }
  }
}

function setTakenAt(local: string) {
  fireEvent.change(screen.getByLabelText('Taken at'), { target: { value: local } });
}

describe('Vital signs quick entry', { timeout: 20_000 }, () => {
  it('records one row per filled value, all at the same time, flagged for an adult', async () => {
    const { user, id } = await panelFor({ approximateAge: 40, gcsTotal: 15 });
    expect(await screen.findByText('No vital signs recorded yet.')).toBeInTheDocument();

    // GCS starts as the primary survey's total; numeric keypads everywhere.
    expect(screen.getByLabelText('GCS')).toHaveValue('15');
    expect(screen.getByLabelText('GCS')).toHaveAccessibleDescription(/From the primary survey/);
    expect(screen.getByLabelText('Heart rate (/min)')).toHaveAttribute('inputmode', 'numeric');
    expect(screen.getByLabelText('Temperature (°C)')).toHaveAttribute('inputmode', 'decimal');

    await typeSet(user, {
      'Heart rate (/min)': '130',
      'Respiratory rate (/min)': '30',
      bp: '120/80',
      'SpO2 (%)': '91',
      'Temperature (°C)': '36,8',
    });
    // The flag shows while typing, before anything is saved.
    expect(screen.getByLabelText('Heart rate (/min)')).toHaveAccessibleDescription(
      /HIGH Normal range \(Adult\): 60–100 \/min/,
    );
    setTakenAt('2026-11-20T12:15');
    await user.click(screen.getByRole('button', { name: 'Save readings' }));

    expect(await screen.findByText('Saved 6 readings taken at 12:15.')).toBeInTheDocument();
    const rows = await storedVitals(id);
    expect(rows).toHaveLength(6);
    expect(new Set(rows.map((r) => r.timestamp))).toEqual(new Set(['2026-11-20T10:15:00.000Z']));
    const byType = Object.fromEntries(
      rows.map((r) => [r.type, { value: r.value, status: r.status }]),
    );
    expect(byType).toEqual({
      heartRate: { value: '130', status: 'high' },
      respiratoryRate: { value: '30', status: 'high' },
      bloodPressure: { value: '120/80', status: 'normal' },
      spo2: { value: '91', status: 'low' },
      temperature: { value: '36.8', status: 'normal' },
      gcs: { value: '15', status: 'normal' },
    });
    const records = (await outbox()).filter((e) => e.mutation.name === 'vitalSign.record');
    expect(records).toHaveLength(6);
    expect(
      records.every(
        (e) =>
          e.mutation.name === 'vitalSign.record' &&
          (e.mutation.args as Record<string, unknown>).caseId === id,
      ),
    ).toBe(true);

    // The form is ready for the next set; the readings are in the table.
    expect(screen.getByLabelText('Heart rate (/min)')).toHaveValue('');
    expect(screen.getByLabelText('GCS')).toHaveValue('15');
    const table = await screen.findByRole('table', { name: /Readings over time/ });
    expect(within(table).getByRole('rowheader', { name: '12:15' })).toBeInTheDocument();
    expect(
      within(table).getByRole('button', { name: 'Void Heart rate 130 HIGH, 12:15' }),
    ).toBeInTheDocument();
    expect(
      within(table).getByRole('button', { name: 'Void SpO2 91 LOW, 12:15' }),
    ).toBeInTheDocument();
  });

  it('flags the same readings for a 2-year-old with the toddler ranges', async () => {
    const { user, id } = await panelFor({ approximateAge: 2 });
    await screen.findByText('No vital signs recorded yet.');
    expect(screen.getByLabelText('GCS')).toHaveValue('');
    await typeSet(user, {
      'Heart rate (/min)': '130',
      'Respiratory rate (/min)': '30',
      bp: '120/80',
    });
    await user.click(screen.getByRole('button', { name: 'Save readings' }));
    await screen.findByText(/Saved 3 readings/);
    const byType = Object.fromEntries((await storedVitals(id)).map((r) => [r.type, r.status]));
    expect(byType).toEqual({
      heartRate: 'normal',
      respiratoryRate: 'normal',
      bloodPressure: 'high',
    });
  });

  it('keeps what is typed while the previous set is being stored', async () => {
    const { user, id } = await panelFor({ approximateAge: 40 });
    await screen.findByText('No vital signs recorded yet.');
    await user.type(screen.getByLabelText('Heart rate (/min)'), '88');
    fireEvent.click(screen.getByRole('button', { name: 'Save readings' }));
    // Storing takes a moment; the next reading is typed before it is done.
    fireEvent.change(screen.getByLabelText('SpO2 (%)'), { target: { value: '95' } });
    await screen.findByText('Saved 1 reading taken at', { exact: false });
    expect(screen.getByLabelText('Heart rate (/min)')).toHaveValue('');
    expect(screen.getByLabelText('SpO2 (%)')).toHaveValue('95');
    expect((await storedVitals(id)).map((r) => r.type)).toEqual(['heartRate']);
  });

  it('saves nothing while a reading is wrong, and says which', async () => {
    const { user, id } = await panelFor({ approximateAge: 40 });
    await screen.findByText('No vital signs recorded yet.');
    await user.click(screen.getByRole('button', { name: 'Save readings' }));
    expect(await screen.findByText('Enter at least one reading')).toBeInTheDocument();

    await typeSet(user, { 'Heart rate (/min)': '88', 'SpO2 (%)': '120', bp: '/80' });
    await user.click(screen.getByRole('button', { name: 'Save readings' }));
    expect(
      await screen.findByText('Check the 2 readings marked above: nothing was saved.'),
    ).toBeInTheDocument();
    expect(screen.getByLabelText('SpO2 (%)')).toHaveAccessibleDescription(
      /SpO2 must be between 0 and 100/,
    );
    expect(screen.getByLabelText('SpO2 (%)')).toHaveAttribute('aria-invalid', 'true');
    expect(screen.getByText('Enter the systolic as well')).toBeInTheDocument();
    expect(await storedVitals(id)).toHaveLength(0);

    // Palpated: systolic only is charted '90/P'.
    await user.clear(screen.getByLabelText('SpO2 (%)'));
    await user.clear(screen.getByLabelText('Diastolic'));
    await user.type(screen.getByLabelText('Systolic'), '90');
    await user.click(screen.getByRole('button', { name: 'Save readings' }));
    await screen.findByText(/Saved 2 readings/);
    expect((await storedVitals(id)).map((r) => r.value).sort()).toEqual(['88', '90/P']);
  });
});

describe('Vital signs over time', { timeout: 20_000 }, () => {
  const at = (minute: number) =>
    new Date(`2026-11-20T10:${String(minute).padStart(2, '0')}:00.000Z`);

  it('shows readings as a table and a chart per type, with a text summary', async () => {
    const { id } = await panelFor({ approximateAge: 40 }, { readOnly: true });
    await screen.findByText('No vital signs recorded yet.');
    expect(screen.queryByRole('button', { name: 'Save readings' })).not.toBeInTheDocument();
    for (const [minute, value] of [
      [0, 96],
      [5, 110],
      [10, 128],
    ] as const) {
      await recordVitalSign(id, {
        type: 'heartRate',
        value: String(value),
        numericValue: value,
        status: value > 100 ? 'high' : 'normal',
        timestamp: at(minute),
      });
    }
    await recordVitalSign(id, {
      type: 'spo2',
      value: '97',
      numericValue: 97,
      status: 'normal',
      timestamp: at(0),
    });

    const table = await screen.findByRole('table', { name: /Readings over time/ });
    await waitFor(() =>
      expect(
        within(table)
          .getAllByRole('columnheader')
          .map((h) => h.textContent),
      ).toEqual(['Time', 'Heart rate /min', 'SpO2 %']),
    );
    expect(
      within(table)
        .getAllByRole('rowheader')
        .map((h) => h.textContent),
    ).toEqual(['12:00', '12:05', '12:10']);
    const last = within(table).getAllByRole('row')[3];
    expect(last).toHaveTextContent('128 HIGH');
    // Read-only: values, no void buttons.
    expect(within(table).queryAllByRole('button')).toHaveLength(0);

    expect(
      screen.getByRole('img', { name: 'Heart rate 3 readings, latest 128 /min HIGH, rising' }),
    ).toBeInTheDocument();
    expect(screen.getByRole('img', { name: 'SpO2 1 reading, latest 97 %' })).toBeInTheDocument();
    // The out-of-range points are drawn as triangles (shape, not only colour).
    const chart = screen.getByRole('img', { name: /^Heart rate/ });
    expect(chart.querySelectorAll(`.${String(vitals.pointHigh)}`)).toHaveLength(2);
    expect(chart.querySelectorAll(`circle.${String(vitals.point)}`)).toHaveLength(1);
    expect(chart.querySelector(`.${String(vitals.band)}`)).not.toBeNull();
    expect(chart.querySelector('polyline')?.getAttribute('points')?.split(' ')).toHaveLength(3);
  });

  it('voids a wrong reading with a reason, keeps it struck through, and sets up the re-entry', async () => {
    const { user, id } = await panelFor({ approximateAge: 40 });
    const wrong = await recordVitalSign(id, {
      type: 'heartRate',
      value: '180',
      numericValue: 180,
      status: 'high',
      timestamp: at(10),
    });

    await user.click(
      await screen.findByRole('button', { name: 'Void Heart rate 180 HIGH, 12:10' }),
    );
    const dialog = await screen.findByRole('dialog', { name: 'Void this reading?' });
    expect(dialog).toHaveTextContent('Heart rate 180 /min HIGH at 12:10.');
    await user.click(within(dialog).getByRole('button', { name: 'Void reading' }));
    expect(await within(dialog).findByText('A reason is required')).toBeInTheDocument();
    await user.click(within(dialog).getByRole('button', { name: 'Typing error' }));
    await user.click(within(dialog).getByRole('button', { name: 'Void reading' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());

    const [row] = await storedVitals(id);
    expect(row).toMatchObject({ id: wrong, value: '180', voidReason: 'Typing error' });
    expect(row?.voidedAt).toEqual(expect.any(String));
    expect((await outbox()).map((e) => e.mutation)).toContainEqual(
      expect.objectContaining({
        name: 'vitalSign.void',
        args: { id: wrong, reason: 'Typing error' },
      }),
    );

    const table = screen.getByRole('table', { name: /Readings over time/ });
    expect(await within(table).findByText('Voided: Typing error')).toBeInTheDocument();
    expect(table.querySelector('del')).toHaveTextContent('180');
    expect(within(table).queryAllByRole('button')).toHaveLength(0);
    // Voided readings are left out of the trend.
    expect(screen.queryByRole('img')).not.toBeInTheDocument();
    expect(screen.getByText('No readings to chart yet.')).toBeInTheDocument();

    // Re-entry: the voided reading's time is set and its box focused.
    expect(screen.getByText('Enter the correct heart rate taken at 12:10.')).toBeInTheDocument();
    expect(screen.getByLabelText('Taken at')).toHaveValue('20 Nov 2026, 12:10');
    expect(screen.getByLabelText('Heart rate (/min)')).toHaveFocus();
    await user.type(screen.getByLabelText('Heart rate (/min)'), '80');
    await user.click(screen.getByRole('button', { name: 'Save readings' }));
    await screen.findByText('Saved 1 reading taken at 12:10.');
    const rows = await storedVitals(id);
    expect(rows.filter((r) => r.voidedAt === null)).toEqual([
      expect.objectContaining({
        value: '80',
        status: 'normal',
        timestamp: '2026-11-20T10:10:00.000Z',
      }),
    ]);
  });
});
