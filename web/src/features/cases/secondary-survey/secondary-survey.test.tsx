// A long step re-renders on every tap; jsdom role queries over it are slow on a busy machine.
import { screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { makeUser } from '@/test/fixtures';
import { renderApp } from '@/test/render-app';
import { deviceOf, outbox, seedCase, storedCase, wipeDevice } from '../completed/case-test-kit';

const USER = makeUser({ id: 7 });

afterEach(async () => {
  await wipeDevice(USER);
});

async function upserts(id: string): Promise<Record<string, unknown>[]> {
  return (await outbox()).flatMap((e) =>
    e.mutation.name === 'case.upsert' && (e.mutation.args as Record<string, unknown>).id === id
      ? [(e.mutation.args as Record<string, unknown>).fields as Record<string, unknown>]
      : [],
  );
}

async function openSecondary(fields: Parameters<typeof seedCase>[0]) {
  deviceOf(USER);
  const seeded = await seedCase(fields);
  const view = renderApp(`/secondary-survey/${seeded.caseId}`);
  expect(
    await screen.findByRole('heading', { name: 'Secondary Survey', level: 1 }),
  ).toBeInTheDocument();
  return { ...view, ...seeded };
}

/** A section by its heading (role queries over the whole long step are slow in jsdom). */
function section(name: string) {
  return within(screen.getByRole('region', { name }));
}

describe('Secondary Survey', { timeout: 40_000 }, () => {
  it('shows a Possible stroke banner as soon as any BE-FAST sign is present, and asks for the time last known well', async () => {
    const { user, id } = await openSecondary({});
    const beFast = section('BE-FAST stroke screen');
    expect(beFast.queryByText('Possible stroke')).not.toBeInTheDocument();
    expect(beFast.getByLabelText('Time noted / last known well')).toBeInTheDocument();

    await user.click(
      within(beFast.getByRole('group', { name: 'Face drooping' })).getByRole('radio', {
        name: 'Yes, present',
      }),
    );
    const banner = await beFast.findByRole('alert');
    expect(banner).toHaveTextContent('Possible stroke');
    expect(banner).toHaveTextContent('Positive: face drooping.');
    await waitFor(async () => expect((await storedCase(id))?.fastFaceDropping).toBe(true));

    await user.click(
      within(beFast.getByRole('group', { name: 'Speech difficulty' })).getByRole('radio', {
        name: 'Yes, present',
      }),
    );
    await waitFor(() =>
      expect(beFast.getByRole('alert')).toHaveTextContent(
        'Positive: face drooping, speech difficulty.',
      ),
    );
    await user.click(beFast.getByRole('button', { name: 'Time noted / last known well: now' }));
    await waitFor(async () =>
      expect((await storedCase(id))?.fastTimeNoted).toEqual(expect.any(String)),
    );

    // All signs negative: no banner.
    await user.click(
      within(beFast.getByRole('group', { name: 'Face drooping' })).getByRole('radio', {
        name: 'No',
      }),
    );
    await user.click(
      within(beFast.getByRole('group', { name: 'Speech difficulty' })).getByRole('radio', {
        name: 'No',
      }),
    );
    await waitFor(() => expect(beFast.queryByText('Possible stroke')).not.toBeInTheDocument());
  });

  it('records a body region finding: Abnormal also ticks Examined in the same change, then notes', async () => {
    const { user, id } = await openSecondary({});
    const exam = section('Head-to-toe exam');
    expect(
      exam.getAllByRole('checkbox', { name: /examined$/ }).map((c) => c.getAttribute('id')),
    ).toEqual([
      'field-headExamined',
      'field-neckExamined',
      'field-chestExamined',
      'field-abdomenExamined',
      'field-pelvisExamined',
      'field-backExamined',
      'field-extremitiesExamined',
    ]);
    expect(exam.queryByLabelText('Chest notes')).not.toBeInTheDocument();

    await user.click(
      within(exam.getByRole('group', { name: 'Chest findings' })).getByRole('radio', {
        name: 'Abnormal',
      }),
    );
    await waitFor(async () =>
      expect(await storedCase(id)).toMatchObject({ chestAbnormal: true, chestExamined: true }),
    );
    expect(await upserts(id)).toContainEqual({ chestAbnormal: true, chestExamined: true });
    await waitFor(() =>
      expect(exam.getByRole('checkbox', { name: 'Chest examined' })).toBeChecked(),
    );

    await user.type(await exam.findByLabelText('Chest notes'), 'Paradoxical movement left side');
    await user.tab();
    await waitFor(async () =>
      expect((await storedCase(id))?.chestNotes).toBe('Paradoxical movement left side'),
    );

    // Examined alone, and a normal finding, each one tap.
    await user.click(exam.getByRole('checkbox', { name: 'Head examined' }));
    await waitFor(async () => expect((await storedCase(id))?.headExamined).toBe(true));
    await user.click(
      within(exam.getByRole('group', { name: 'Head findings' })).getByRole('radio', {
        name: 'Normal',
      }),
    );
    await waitFor(async () => expect((await storedCase(id))?.headAbnormal).toBe(false));
    expect((await upserts(id)).at(-1)).toEqual({ headAbnormal: false });
  });

  it('records SAMPLE history with one-tap helpers and the pain score as big 0–10 buttons', async () => {
    const { user, id } = await openSecondary({});
    const sample = section('SAMPLE history');
    await user.click(sample.getByRole('checkbox', { name: 'Chest pain' }));
    await waitFor(() => expect(sample.getByRole('checkbox', { name: 'Chest pain' })).toBeChecked());
    await user.click(sample.getByRole('checkbox', { name: 'Shortness of breath' }));
    await waitFor(async () =>
      expect((await storedCase(id))?.symptoms).toEqual(['Chest pain', 'Shortness of breath']),
    );

    await user.click(sample.getByRole('button', { name: 'No known allergies' }));
    await waitFor(() =>
      expect(sample.getByLabelText('A — Allergies')).toHaveValue('No known allergies'),
    );
    await user.click(sample.getByRole('button', { name: 'Now' }));
    await waitFor(async () =>
      expect((await storedCase(id))?.lastMealTime).toMatch(
        /^\d{1,2} [A-Z][a-z]{2} \d{4}, \d{2}:\d{2}$/,
      ),
    );
    await waitFor(() =>
      expect(
        (sample.getByLabelText('L — Last oral intake: when') as HTMLInputElement).value,
      ).toMatch(/^\d{1,2} [A-Z][a-z]{2} \d{4}, \d{2}:\d{2}$/),
    );

    const opqrst = section('OPQRST');
    const pain = opqrst.getByRole('group', { name: 'Pain score (0–10)' });
    expect(within(pain).getAllByRole('radio')).toHaveLength(11);
    await user.click(within(pain).getByRole('radio', { name: '7, Severe' }));
    await waitFor(async () => expect((await storedCase(id))?.painScore).toBe(7));
    await waitFor(() => expect(pain).toHaveAccessibleDescription(/Recorded: 7\/10, severe\./));
  });

  it('records a neuro reassessment next to the primary survey GCS, and holds the vital signs', async () => {
    const { user, id } = await openSecondary({
      gcsEyeOpening: 3,
      gcsVerbalResponse: 4,
      gcsMotorResponse: 6,
      gcsTotal: 13,
    });
    const neuro = section('Neuro reassessment');
    const gcs = neuro.getByLabelText('GCS total at reassessment');
    expect(gcs).toHaveAccessibleDescription('Primary survey: E3 V4 M6 = 13');
    await user.type(gcs, '14');
    await user.tab();
    await user.click(
      within(neuro.getByRole('group', { name: 'AVPU at reassessment' })).getByRole('radio', {
        name: /^A — Alert/,
      }),
    );
    await waitFor(async () =>
      expect(await storedCase(id)).toMatchObject({ neuroGcsTotal: 14, neuroAvpu: 'A' }),
    );

    // Completion links to #field-vitalSigns land on the vital signs panel.
    const vitals = screen.getByRole('region', { name: 'Vital signs' });
    expect(vitals).toHaveAttribute('id', 'field-vitalSigns');
    expect(within(vitals).getByLabelText('GCS')).toHaveValue('13');
  });
});
