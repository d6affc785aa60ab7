import { screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { makeUser } from '@/test/fixtures';
import { renderApp } from '@/test/render-app';
import {
  deviceOf,
  outbox,
  seedCase,
  seedCompletedCase,
  storedCase,
  wipeDevice,
} from '../completed/case-test-kit';
import { INTERVENTIONS } from '@rescuelog/sync-protocol/cases/clinical';
import { checkScope } from './scope-of-practice';

const N = INTERVENTIONS.length;

const FIRST_AIDER = makeUser({ id: 7, qualifications: 'First Aid Level 3' });
const ECP = makeUser({ id: 7, qualifications: 'Emergency Care Practitioner' });

afterEach(async () => {
  await wipeDevice(FIRST_AIDER);
});

// A whole step of 52 checkboxes re-renders on every key typed: slow under jsdom, not in a browser.
describe('Treatment Provided', { timeout: 30_000 }, () => {
  it('saves a ticked intervention and typed treatment on the device, with the count', async () => {
    deviceOf(ECP);
    const { id, caseId } = await seedCase({ patientName: 'Sam' });
    const { user } = renderApp(`/treatment-provided/${caseId}`);

    expect(
      await screen.findByRole('heading', { name: 'Treatment Provided', level: 1 }),
    ).toBeInTheDocument();
    for (const group of [
      'Airway',
      'Breathing',
      'Circulation',
      'Trauma',
      'Medical',
      'Environment and other',
    ]) {
      expect(screen.getByRole('heading', { name: group, level: 2 })).toBeInTheDocument();
    }
    expect(screen.getByText(/ticked$/, { selector: '[role="status"]' })).toHaveTextContent(
      `0 of ${String(N)} ticked`,
    );

    await user.click(screen.getByRole('checkbox', { name: 'Oxygen administered' }));
    await waitFor(async () => expect((await storedCase(id))?.oxygenAdministered).toBe(true));
    await waitFor(() =>
      expect(screen.getByRole('checkbox', { name: 'Oxygen administered' })).toBeChecked(),
    );
    await waitFor(() =>
      expect(screen.getByText(/ticked$/, { selector: '[role="status"]' })).toHaveTextContent(
        `1 of ${String(N)} ticked`,
      ),
    );
    expect(screen.getByRole('heading', { name: 'Breathing (1 ticked)' })).toBeInTheDocument();

    await user.type(screen.getByLabelText('Medications given'), 'Glucose gel 15 g oral');
    await user.tab();
    await waitFor(async () =>
      expect((await storedCase(id))?.medicationsGiven).toBe('Glucose gel 15 g oral'),
    );

    const upserts = (await outbox())
      .filter((e) => e.mutation.name === 'case.upsert')
      .map((e) => e.mutation.args);
    expect(upserts).toContainEqual(
      expect.objectContaining({ id, fields: { oxygenAdministered: true } }),
    );
    expect(upserts).toContainEqual(
      expect.objectContaining({ id, fields: { medicationsGiven: 'Glucose gel 15 g oral' } }),
    );
  });

  it('finds an intervention by name with the filter, and says when nothing matches', async () => {
    deviceOf(ECP);
    const { caseId } = await seedCase({});
    const { user } = renderApp(`/treatment-provided/${caseId}`);
    const filter = await screen.findByLabelText('Find an intervention');

    await user.type(filter, 'splint');
    expect(screen.getByRole('checkbox', { name: 'Splinting' })).toBeInTheDocument();
    expect(screen.getByRole('checkbox', { name: 'Traction splint' })).toBeInTheDocument();
    expect(screen.queryByRole('checkbox', { name: 'Oxygen administered' })).not.toBeInTheDocument();
    expect(screen.queryByRole('heading', { name: 'Airway' })).not.toBeInTheDocument();

    await user.clear(filter);
    await user.type(filter, 'zzz');
    expect(screen.getByText(/No intervention matches “zzz”/)).toBeInTheDocument();
    expect(screen.queryAllByRole('checkbox')).toHaveLength(0);

    await user.click(screen.getByRole('button', { name: 'Clear' }));
    expect(screen.getAllByRole('checkbox')).toHaveLength(N);
  });

  it('warns a First Aid Level 3 responder on advanced interventions, and still saves them', async () => {
    deviceOf(FIRST_AIDER);
    const { id, caseId } = await seedCase({});
    const { user } = renderApp(`/treatment-provided/${caseId}`);

    const intubation = await screen.findByRole('checkbox', { name: 'Endotracheal intubation' });
    expect(intubation).toHaveAccessibleDescription(
      /Outside the scope of practice of First Aid Level 3/,
    );
    for (const name of ['Needle decompression', 'Manual defibrillation', 'IO access']) {
      expect(screen.getByRole('checkbox', { name })).toHaveAccessibleDescription(
        /Outside the scope of practice/,
      );
    }
    // Basic interventions carry no warning.
    expect(screen.getByRole('checkbox', { name: 'AED used' })).not.toHaveAccessibleDescription(
      /scope/,
    );
    expect(screen.getAllByText(/Outside the scope of practice/)).toHaveLength(4);

    await user.click(intubation);
    await waitFor(async () => expect((await storedCase(id))?.endotrachealIntubation).toBe(true));
  });

  it('shows no scope warning to an Emergency Care Practitioner', async () => {
    deviceOf(ECP);
    const { caseId } = await seedCase({});
    renderApp(`/treatment-provided/${caseId}`);
    const intubation = await screen.findByRole('checkbox', { name: 'Endotracheal intubation' });
    expect(intubation).not.toHaveAccessibleDescription();
    expect(screen.queryByText(/scope of practice/)).not.toBeInTheDocument();
  });

  it('is read-only on a completed case', async () => {
    deviceOf(ECP);
    const { caseId } = await seedCompletedCase({ cprPerformed: true });
    renderApp(`/treatment-provided/${caseId}`);
    const cpr = await screen.findByRole('checkbox', { name: 'CPR performed' });
    expect(cpr).toBeChecked();
    expect(cpr).toBeDisabled();
    expect(within(screen.getByRole('note')).getByText(/completed and locked/)).toBeInTheDocument();
    expect(screen.getByLabelText('Medications given')).toHaveAttribute('readonly');
  });
});

describe('scope of practice (HPCSA)', () => {
  it('puts manual defibrillation and needle decompression inside AEA scope, intubation and IO outside', () => {
    expect(checkScope('Ambulance Emergency Assistant', 'manualDefibrillation').kind).toBe(
      'in-scope',
    );
    expect(checkScope('Ambulance Emergency Assistant', 'needleDecompression').kind).toBe(
      'in-scope',
    );
    expect(checkScope('Ambulance Emergency Assistant', 'endotrachealIntubation').kind).toBe(
      'outside',
    );
    expect(checkScope('Ambulance Emergency Assistant', 'ioAccess').kind).toBe('outside');
    expect(checkScope('Basic Ambulance Assistant', 'manualDefibrillation').kind).toBe('outside');
    expect(checkScope('Emergency Care Technician', 'ioAccess').kind).toBe('in-scope');
    expect(checkScope('Other', 'ioAccess').kind).toBe('unknown');
    expect(checkScope(null, 'ioAccess').kind).toBe('unknown');
    expect(checkScope('First Aid Level 3', 'aedUsed').kind).toBe('in-scope');
  });
});
