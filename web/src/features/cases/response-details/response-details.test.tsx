import 'fake-indexeddb/auto';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { makeUser } from '@/test/fixtures';
import { renderApp } from '@/test/render-app';
import { deviceOf, outbox, seedCase, storedCase, wipeDevice } from '../completed/case-test-kit';
import { timeOrderWarnings } from './time-order';

const RESPONDER = makeUser({ id: 7 });

afterEach(async () => {
  await wipeDevice(RESPONDER);
});

/** A time's input (not its Now / Clear buttons, whose names start the same). */
function timeInput(label: string): HTMLElement {
  return screen.getByLabelText(new RegExp(`^${label}( \\(required to complete\\))?$`));
}

async function upsertsOf(id: string): Promise<Record<string, unknown>[]> {
  return (await outbox())
    .filter(
      (e) => e.mutation.name === 'case.upsert' && (e.mutation.args as { id: string }).id === id,
    )
    .map((e) => (e.mutation.args as { fields: Record<string, unknown> }).fields);
}

describe('Response Details', () => {
  it('sets each time with Now, marks the required ones, and saves them one by one', async () => {
    deviceOf(RESPONDER);
    const { id, caseId } = await seedCase({});
    const { user } = renderApp(`/response-details/${caseId}`);

    expect(
      await screen.findByRole('heading', { name: 'Response Details', level: 1 }),
    ).toBeInTheDocument();
    expect(screen.getByLabelText(/^Call received \(required to complete\)/)).toBeInTheDocument();
    expect(
      screen.getByLabelText(/^Responder arrival time \(required to complete\)/),
    ).toBeInTheDocument();
    expect(screen.getByLabelText(/^Ambulance arrival time$/)).toBeInTheDocument();

    const before = Date.now();
    for (const label of [
      'Call received',
      'Responder arrival time',
      'Ambulance arrival time',
      'Departure time',
      'Hospital arrival time',
    ]) {
      await user.click(screen.getByRole('button', { name: `${label}: now` }));
    }
    await waitFor(async () =>
      expect((await storedCase(id))?.hospitalArrivalTime).toEqual(expect.any(String)),
    );
    const stored = await storedCase(id);
    for (const field of [
      'callReceivedTime',
      'responderArrivalTime',
      'arrivalTime',
      'departureTime',
      'hospitalArrivalTime',
    ]) {
      const value = stored?.[field];
      expect(typeof value, field).toBe('string');
      const ms = Date.parse(value as string);
      // To the minute, now.
      expect(ms % 60_000, field).toBe(0);
      expect(ms).toBeGreaterThan(before - 60_000);
      expect(ms).toBeLessThanOrEqual(Date.now());
    }
    const timeUpserts = (await upsertsOf(id)).filter((f) =>
      Object.keys(f).some((k) => k.endsWith('Time')),
    );
    expect(timeUpserts.map((f) => Object.keys(f))).toEqual([
      ['callReceivedTime'],
      ['responderArrivalTime'],
      ['arrivalTime'],
      ['departureTime'],
      ['hospitalArrivalTime'],
    ]);
    expect(timeInput('Call received')).not.toHaveValue('');
  });

  it('refuses a time outside the years the product keeps, with the message at the field', async () => {
    deviceOf(RESPONDER);
    const { id, caseId } = await seedCase({ callReceivedTime: '2026-11-20T10:00:00.000Z' });
    renderApp(`/response-details/${caseId}`);
    await screen.findByRole('button', { name: 'Call received: now' });

    // A year outside 1900–9999 does not read as a time: nothing is saved, the field says so.
    fireEvent.change(timeInput('Call received'), { target: { value: '4 Mar 1850, 10:00' } });
    fireEvent.blur(timeInput('Call received'));
    await waitFor(() =>
      expect(timeInput('Call received')).toHaveAccessibleDescription(
        /Enter a date and time like 28 Nov 2026, 14:05/,
      ),
    );
    expect(timeInput('Call received')).toHaveAttribute('aria-invalid', 'true');
    expect((await storedCase(id))?.callReceivedTime).toBe('2026-11-20T10:00:00.000Z');
    expect((await upsertsOf(id)).filter((f) => 'callReceivedTime' in f)).toHaveLength(1);
  });

  it('warns (without blocking) when times are out of order', async () => {
    deviceOf(RESPONDER);
    const { id, caseId } = await seedCase({
      callReceivedTime: '2026-11-20T10:00:00.000Z',
      responderArrivalTime: '2026-11-20T10:12:00.000Z',
      departureTime: '2026-11-20T10:05:00.000Z',
    });
    const { user } = renderApp(`/response-details/${caseId}`);

    await screen.findByRole('button', { name: 'Departure time: now' });
    expect(timeInput('Departure time')).toHaveAccessibleDescription(
      /Departure time is before the responder arrival time: check both\./,
    );
    expect(timeInput('Responder arrival time')).not.toHaveAccessibleDescription(/before/);

    // Fixing the departure clears the warning; the wrong time was stored all the same.
    expect((await storedCase(id))?.departureTime).toBe('2026-11-20T10:05:00.000Z');
    await user.click(screen.getByRole('button', { name: 'Departure time: clear' }));
    await waitFor(() =>
      expect(timeInput('Departure time')).not.toHaveAccessibleDescription(/before/),
    );
    await waitFor(async () => expect((await storedCase(id))?.departureTime).toBeNull());
  });

  it('saves the ambulance, the receiving hospital (with suggestions) and the transport priority', async () => {
    deviceOf(RESPONDER);
    const { id, caseId } = await seedCase({});
    const { user } = renderApp(`/response-details/${caseId}`);

    await user.type(await screen.findByLabelText('Ambulance'), 'RL-AMB-2');
    const hospital = screen.getByLabelText(/^Receiving hospital \(required to complete\)/);
    const suggestions = document.getElementById(hospital.getAttribute('list') ?? '');
    expect(suggestions?.tagName).toBe('DATALIST');
    expect(suggestions?.querySelector('option[value="Tygerberg Hospital"]')).not.toBeNull();
    await user.type(hospital, 'Tygerberg Hospital');
    const priority = screen.getByRole('group', {
      name: /^Transport priority \(required to complete\)/,
    });
    await user.click(within(priority).getByRole('radio', { name: /^Priority 2 \(yellow\)/ }));

    await waitFor(async () =>
      expect(await storedCase(id)).toMatchObject({
        ambulanceId: 'RL-AMB-2',
        receivingHospital: 'Tygerberg Hospital',
        transportPriority: 'Priority 2 (yellow)',
      }),
    );
    const upserts = await upsertsOf(id);
    expect(upserts).toContainEqual({ ambulanceId: 'RL-AMB-2' });
    expect(upserts).toContainEqual({ receivingHospital: 'Tygerberg Hospital' });
    expect(upserts).toContainEqual({ transportPriority: 'Priority 2 (yellow)' });
  });

  it('records a refusal of transport: the conveyance fields go and the note points to the notes', async () => {
    deviceOf(RESPONDER);
    const { id, caseId } = await seedCase({});
    const { user } = renderApp(`/response-details/${caseId}`);

    const refused = await screen.findByRole('checkbox', { name: /^Patient refused transport/ });
    expect(refused).not.toBeChecked();
    await user.click(refused);
    await waitFor(async () => expect((await storedCase(id))?.patientRefusedTransport).toBe(true));

    expect(await screen.findByRole('note')).toHaveTextContent(
      /No receiving hospital or priority is needed\. Record the reason for the refusal/,
    );
    expect(screen.getByRole('link', { name: 'Additional notes' })).toHaveAttribute(
      'href',
      `/treatment-provided/${caseId}#field-additionalNotes`,
    );
    expect(screen.queryByLabelText(/^Receiving hospital/)).not.toBeInTheDocument();
    expect(screen.queryByRole('group', { name: /^Transport priority/ })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Departure time: now' })).not.toBeInTheDocument();
    // Still asked: when the crew arrived, and which vehicle.
    expect(timeInput('Responder arrival time')).toBeInTheDocument();
    expect(screen.getByLabelText('Ambulance')).toBeInTheDocument();
    expect(await upsertsOf(id)).toContainEqual({ patientRefusedTransport: true });
  });

  it('keeps transport details recorded before a refusal visible, no longer required', async () => {
    deviceOf(RESPONDER);
    const { caseId } = await seedCase({
      patientRefusedTransport: true,
      receivingHospital: 'Helderberg Hospital',
    });
    renderApp(`/response-details/${caseId}`);
    expect(await screen.findByLabelText(/^Receiving hospital$/)).toHaveValue('Helderberg Hospital');
    expect(screen.getByRole('group', { name: /^Transport priority$/ })).toBeInTheDocument();
  });

  it('is read-only when the case is completed', async () => {
    const session = deviceOf(RESPONDER);
    const { id, caseId } = await seedCase({ receivingHospital: 'Helderberg Hospital' });
    await session.db.store('cases').update(id, { status: 'completed' });
    renderApp(`/response-details/${caseId}`);
    expect(await screen.findByText(/This case is completed and locked/)).toBeInTheDocument();
    expect(screen.getByLabelText(/^Receiving hospital/)).toHaveAttribute('readonly');
    expect(screen.getByRole('button', { name: 'Call received: now' })).toBeDisabled();
    expect(screen.getByRole('checkbox', { name: /^Patient refused transport/ })).toBeDisabled();
  });
});

describe('timeOrderWarnings', () => {
  it('names each time that is before one it should follow, once', () => {
    expect(
      timeOrderWarnings({
        callReceivedTime: '2026-11-20T10:30:00Z',
        responderArrivalTime: '2026-11-20T10:10:00Z',
        arrivalTime: '2026-11-20T10:15:00Z',
        departureTime: '2026-11-20T10:40:00Z',
        hospitalArrivalTime: '2026-11-20T10:20:00Z',
      }),
    ).toEqual([
      {
        field: 'responderArrivalTime',
        message: 'Responder arrival time is before the call received time: check both.',
      },
      {
        field: 'arrivalTime',
        message: 'Ambulance arrival time is before the call received time: check both.',
      },
      {
        field: 'hospitalArrivalTime',
        message: 'Hospital arrival time is before the call received time: check both.',
      },
    ]);
    expect(
      timeOrderWarnings({
        callReceivedTime: '2026-11-20T10:00:00Z',
        responderArrivalTime: null,
        arrivalTime: undefined,
        departureTime: '2026-11-20T10:30:00Z',
        hospitalArrivalTime: '2026-11-20T10:45:00Z',
      }),
    ).toEqual([]);
  });
});
