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

async function openPrimary(fields: Parameters<typeof seedCase>[0]) {
  deviceOf(USER);
  const seeded = await seedCase(fields);
  const view = renderApp(`/primary-survey/${seeded.caseId}`);
  expect(
    await screen.findByRole('heading', { name: 'Primary Survey', level: 1 }),
  ).toBeInTheDocument();
  return { ...view, ...seeded };
}

describe('Primary Survey', { timeout: 40_000 }, () => {
  it('follows the quick-reference order: Hazard, Hello, Help, Hemorrhage, Airway, Breathing, Circulation', async () => {
    await openPrimary({});
    const headings = screen.getAllByRole('heading', { level: 2 }).map((h) => h.textContent);
    expect(headings.slice(0, 7)).toEqual([
      'Hazard',
      'Hello',
      'Help',
      'Hemorrhage',
      'Airway',
      'Breathing',
      'Circulation',
    ]);
    expect(headings).toEqual(expect.arrayContaining(['Glasgow Coma Scale', 'Pupils', 'Triage']));
  });

  it('saves E, V and M with the total in the same change, shown as E4 V5 M6 = 15', async () => {
    const { user, id } = await openPrimary({ approximateAge: 40 });
    const score = screen.getByRole('status', { name: 'GCS' });
    expect(score).toHaveTextContent('Not scored');

    // Three quick taps: the total must come from all three, not a stale record.
    await user.click(screen.getByRole('radio', { name: 'E4: Opens eyes spontaneously' }));
    await user.click(screen.getByRole('radio', { name: 'V5: Oriented' }));
    await user.click(screen.getByRole('radio', { name: 'M6: Obeys commands' }));
    await waitFor(() => expect(score).toHaveTextContent('E4 V5 M6 = 15'));
    await waitFor(async () =>
      expect(await storedCase(id)).toMatchObject({
        gcsEyeOpening: 4,
        gcsVerbalResponse: 5,
        gcsMotorResponse: 6,
        gcsTotal: 15,
      }),
    );
    expect(await upserts(id)).toEqual(
      expect.arrayContaining([
        { gcsEyeOpening: 4 },
        { gcsVerbalResponse: 5 },
        { gcsMotorResponse: 6, gcsTotal: 15 },
      ]),
    );

    // A changed part carries the new total with it.
    await user.click(screen.getByRole('radio', { name: 'E3: Opens eyes to voice' }));
    await waitFor(() => expect(score).toHaveTextContent('E3 V5 M6 = 14'));
    expect((await upserts(id)).at(-1)).toEqual({ gcsEyeOpening: 3, gcsTotal: 14 });

    // Intubated: verbal 'T' (the verbal score cleared), counted as 1 and marked T.
    await user.click(screen.getByRole('radio', { name: 'VT: Intubated (verbal not testable)' }));
    await waitFor(() => expect(score).toHaveTextContent('E3 VT M6 = 10T'));
    expect((await upserts(id)).at(-1)).toEqual({
      gcsVerbalResponse: null,
      gcsVerbalIntubated: true,
      gcsTotal: 10,
    });
    expect(screen.getByRole('radio', { name: 'V5: Oriented' })).not.toBeChecked();

    await user.click(screen.getByRole('button', { name: 'Clear GCS' }));
    await waitFor(() => expect(score).toHaveTextContent('Not scored'));
    expect(await storedCase(id)).toMatchObject({
      gcsEyeOpening: null,
      gcsMotorResponse: null,
      gcsVerbalIntubated: false,
      gcsTotal: null,
    });
  });

  it('a part alone saves no total until all three are scored', async () => {
    const { user, id } = await openPrimary({ approximateAge: 40 });
    await user.click(screen.getByRole('radio', { name: 'M5: Localises to pain' }));
    await waitFor(async () => expect((await storedCase(id))?.gcsMotorResponse).toBe(5));
    expect(await upserts(id)).toContainEqual({ gcsMotorResponse: 5 });
    expect(screen.getByRole('status', { name: 'GCS' })).toHaveTextContent('E? V? M5');
    expect(screen.getByText('Score all three for a total')).toBeInTheDocument();
  });

  it('uses the modified verbal scale for a child under 5, the adult one from 5', async () => {
    const child = await openPrimary({ approximateAge: 3 });
    const verbal = screen.getByRole('group', { name: /Verbal response/ });
    expect(
      within(verbal).getByRole('radio', { name: 'V5: Alert, babbles, coos or talks as usual' }),
    ).toBeInTheDocument();
    expect(within(verbal).queryByRole('radio', { name: 'V5: Oriented' })).not.toBeInTheDocument();
    expect(verbal).toHaveAccessibleDescription('Modified scale for a child under 5');
    await child.user.click(
      within(verbal).getByRole('radio', { name: 'V4: Less than usual words, irritable cry' }),
    );
    await waitFor(async () => expect((await storedCase(child.id))?.gcsVerbalResponse).toBe(4));
    child.unmount();
    await wipeDevice(USER);

    await openPrimary({ approximateAge: 5 });
    const adultVerbal = screen.getByRole('group', { name: /Verbal response/ });
    expect(within(adultVerbal).getByRole('radio', { name: 'V5: Oriented' })).toBeInTheDocument();
    expect(adultVerbal).not.toHaveAccessibleDescription();
  });

  it('records AVPU with one tap and says what each level means', async () => {
    const { user, id } = await openPrimary({});
    const avpu = screen.getByRole('group', { name: /AVPU/ });
    expect(within(avpu).getAllByRole('radio')).toHaveLength(4);
    await user.click(
      within(avpu).getByRole('radio', { name: /^P — Pain Responds only to a painful stimulus/ }),
    );
    await waitFor(async () => expect((await storedCase(id))?.avpu).toBe('P'));
    expect(await upserts(id)).toContainEqual({ avpu: 'P' });
  });

  it('shows the bleeding details only when there is catastrophic bleeding, with Other texts and the tourniquet time', async () => {
    const { user, id } = await openPrimary({});
    // Queries stay inside the section: role queries over the whole step are slow in jsdom.
    const section = within(screen.getByRole('region', { name: 'Hemorrhage' }));
    expect(section.queryByRole('group', { name: 'Location' })).not.toBeInTheDocument();
    expect(section.queryByLabelText('Tourniquet applied at')).not.toBeInTheDocument();

    await user.click(
      within(section.getByRole('group', { name: 'Catastrophic bleeding' })).getByRole('radio', {
        name: 'Yes',
      }),
    );
    const location = await section.findByRole('group', { name: 'Location' });
    expect(section.getByRole('group', { name: 'Type' })).toBeInTheDocument();
    expect(section.getByRole('group', { name: 'Severity' })).toBeInTheDocument();
    expect(section.getByRole('group', { name: 'Control status' })).toBeInTheDocument();
    expect(section.queryByLabelText('Other location')).not.toBeInTheDocument();

    await user.click(within(location).getByRole('radio', { name: 'Other' }));
    await user.type(await section.findByLabelText('Other location'), 'Scalp');
    await user.tab();
    await user.click(
      within(section.getByRole('group', { name: 'Type' })).getByRole('radio', {
        name: /^Arterial/,
      }),
    );
    await user.click(
      within(section.getByRole('group', { name: 'Control status' })).getByRole('radio', {
        name: 'Uncontrolled',
      }),
    );

    const interventions = section.getByRole('group', { name: /Interventions/ });
    await user.click(within(interventions).getByRole('checkbox', { name: 'Direct pressure' }));
    await waitFor(() =>
      expect(
        within(interventions).getByRole('checkbox', { name: 'Direct pressure' }),
      ).toBeChecked(),
    );
    await user.click(within(interventions).getByRole('checkbox', { name: 'Tourniquet' }));
    await user.click(await section.findByRole('button', { name: 'Tourniquet applied at: now' }));

    await waitFor(async () => {
      const row = await storedCase(id);
      expect(row).toMatchObject({
        hemorrhagingActive: true,
        hemorrhagingLocation: 'Other',
        hemorrhagingLocationOther: 'Scalp',
        hemorrhagingType: 'Arterial',
        hemorrhagingControlStatus: 'Uncontrolled',
        hemorrhagingInterventions: ['Direct pressure', 'Tourniquet'],
      });
      expect(typeof row?.tourniquetApplicationTime).toBe('string');
    });
    const at = Date.parse(String((await storedCase(id))?.tourniquetApplicationTime));
    expect(Math.abs(Date.now() - at)).toBeLessThan(2 * 60_000);
    await waitFor(() =>
      expect((section.getByLabelText('Tourniquet applied at') as HTMLInputElement).value).toMatch(
        /^\d{1,2} \w{3,4} \d{4}, \d{2}:\d{2}$/,
      ),
    );

    // Answering No later keeps what was recorded visible, with a note to clear it.
    await user.click(
      within(section.getByRole('group', { name: 'Catastrophic bleeding' })).getByRole('radio', {
        name: 'No',
      }),
    );
    expect(
      await section.findByText(/Bleeding details below were recorded earlier/),
    ).toBeInTheDocument();
    expect(section.getByRole('group', { name: 'Location' })).toBeInTheDocument();
  });

  it('records breathing rate and capillary refill with their age-banded range, and a SATS triage colour in words', async () => {
    const { user, id } = await openPrimary({ approximateAge: 4 });
    const rr = screen.getByLabelText('Respiratory rate (/min)');
    expect(rr).toHaveAttribute('inputmode', 'numeric');
    await user.type(rr, '34');
    await user.tab();
    await waitFor(async () => expect((await storedCase(id))?.respiratoryRate).toBe(34));
    await waitFor(() =>
      expect(rr).toHaveAccessibleDescription(
        /HIGH Normal range \(Preschool child \(3–5 years\)\): 20–28 \/min/,
      ),
    );

    const crt = screen.getByLabelText('Capillary refill (seconds)');
    expect(crt).toHaveAttribute('inputmode', 'decimal');
    await user.click(screen.getByRole('button', { name: 'Capillary refill: increase' }));
    await user.click(screen.getByRole('button', { name: 'Capillary refill: increase' }));
    await user.click(screen.getByRole('button', { name: 'Capillary refill: increase' }));
    await user.tab();
    await waitFor(async () => expect((await storedCase(id))?.capillaryRefillTime).toBe(1));

    const triage = screen.getByRole('group', { name: /Triage status/ });
    expect(
      within(triage)
        .getAllByRole('radio')
        .map((r) => r.getAttribute('id')?.split('-').at(-1)),
    ).toEqual(['RED', 'ORANGE', 'YELLOW', 'GREEN', 'BLUE']);
    await user.click(
      within(triage).getByRole('radio', { name: 'ORANGE Very urgent: within 10 minutes' }),
    );
    await waitFor(async () => expect((await storedCase(id))?.triageStatus).toBe('ORANGE'));
    expect(within(triage).getByRole('radio', { name: /ORANGE/ })).toBeChecked();
  });

  it('shows what is stored: GCS parts and total, AVPU, and a triage colour written in any case', async () => {
    deviceOf(USER);
    const { caseId } = await seedCase({
      avpu: 'V',
      gcsEyeOpening: 3,
      gcsVerbalResponse: 4,
      gcsMotorResponse: 6,
      gcsTotal: 13,
      triageStatus: 'Yellow',
    });
    renderApp(`/primary-survey/${caseId}`);
    expect(await screen.findByRole('status', { name: 'GCS' })).toHaveTextContent('E3 V4 M6 = 13');
    // A colour typed elsewhere in another case is matched without case.
    expect(screen.getByRole('radio', { name: /^YELLOW/ })).toBeChecked();
    expect(screen.getByRole('radio', { name: /^V — Voice/ })).toBeChecked();
  });
});
