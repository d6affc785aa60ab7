// The form kit's addenda serve any record kind: here a throwaway kind (a rope-rescue rig
// check) that no screen of the app knows, with a number, a choice and a time field.
import { QueryClientProvider } from '@tanstack/react-query';
import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { setCurrentUser } from '@/lib/auth';
import { createQueryClient } from '@/lib/query-client';
import { axeViolations } from '@/test/axe';
import { makeUser } from '@/test/fixtures';
import { AddendaList } from './addenda-list';
import { AddendumForm, type AddendumFields } from './addendum-form';
import { fieldKinds } from './field-kinds';

const rigFields = z
  .object({
    anchorCount: z.number().int().min(1).max(12).nullable(),
    system: z.enum(['lowering', 'raising', 'highline']).nullable(),
    checkedAt: z.string().nullable(),
  })
  .partial();

const LABELS: Record<string, string> = {
  anchorCount: 'Anchors',
  system: 'Rope system',
  checkedAt: 'Checked at',
};

const RIG_FIELDS: AddendumFields = {
  groups: [{ title: 'Rig', fields: ['anchorCount', 'system', 'checkedAt'] }],
  label: (field) => LABELS[field] ?? field,
  format: (_field, value) =>
    value === null || value === undefined ? 'Not recorded' : JSON.stringify(value),
  kinds: fieldKinds(rigFields, (field) => field === 'checkedAt'),
};

function renderForm(onSave = vi.fn(() => Promise.resolve())) {
  const queryClient = createQueryClient();
  setCurrentUser(queryClient, makeUser({ fullName: 'Sipho Dlamini', callSign: 'R7' }));
  render(
    <QueryClientProvider client={queryClient}>
      <AddendumForm
        record={{ id: 'rig-1', anchorCount: 2, system: 'lowering', checkedAt: null }}
        fields={RIG_FIELDS}
        onSave={onSave}
        onDone={() => undefined}
      />
    </QueryClientProvider>,
  );
  return onSave;
}

describe('addenda in the form kit', () => {
  it('reads each field’s input from the kind’s schema', () => {
    expect(RIG_FIELDS.kinds.kindOf('anchorCount')).toEqual({
      kind: 'number',
      integer: true,
      nullable: true,
    });
    expect(RIG_FIELDS.kinds.kindOf('system')).toEqual({
      kind: 'choice',
      options: ['lowering', 'raising', 'highline'],
      nullable: true,
    });
    expect(RIG_FIELDS.kinds.kindOf('checkedAt').kind).toBe('time');
    expect(
      RIG_FIELDS.kinds.parse(
        'anchorCount',
        { kind: 'number', integer: true, nullable: true },
        '40',
      ),
    ).toMatchObject({ ok: false });
  });

  it('corrects a field of any kind with its before and after, and a required reason', async () => {
    const onSave = renderForm();
    const user = userEvent.setup();
    await user.selectOptions(screen.getByLabelText('Field to correct'), 'anchorCount');
    await user.click(screen.getByRole('button', { name: 'Add field' }));
    const input = screen.getByLabelText('New anchors');
    await user.clear(input);
    await user.type(input, '3');
    expect(screen.getByText('Before:').querySelector('strong')).toHaveTextContent('2');
    expect(screen.getByText('After:').querySelector('strong')).toHaveTextContent('3');

    await user.click(screen.getByRole('button', { name: 'Save addendum' }));
    expect(await screen.findByText('A reason is required')).toBeInTheDocument();
    expect(onSave).not.toHaveBeenCalled();

    await user.type(screen.getByLabelText(/Reason/), 'Third anchor added after the check');
    await user.click(screen.getByRole('button', { name: 'Save addendum' }));
    expect(onSave).toHaveBeenCalledWith(
      'Third anchor added after the check',
      [{ field: 'anchorCount', before: 2, after: 3 }],
      { fullName: 'Sipho Dlamini', callSign: 'R7' },
    );
    expect(await axeViolations()).toEqual([]);
  });

  it('lists addenda oldest first with who, why and each field before and after', () => {
    render(
      <AddendaList
        addenda={[
          {
            id: 'a1',
            createdAt: '2026-11-24T10:00:00.000Z',
            reason: 'Miscounted',
            changes: [{ field: 'anchorCount', before: 2, after: 3 }],
          },
        ]}
        authorName={() => 'Sipho Dlamini (R7)'}
        label={RIG_FIELDS.label}
        format={RIG_FIELDS.format}
      />,
    );
    const row = screen.getByRole('row', { name: /Anchors/ });
    expect(
      within(row)
        .getAllByRole('cell')
        .map((cell) => cell.textContent),
    ).toEqual(['2', '3']);
    expect(screen.getByText('By Sipho Dlamini (R7)')).toBeInTheDocument();
  });
});
