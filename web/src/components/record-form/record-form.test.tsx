// The record form provider counts the saves being written on the device: meanwhile the
// record's mark says "Saving…" and leaving the page asks first (a tap shows at once and is
// stored a moment later; an unload in between would lose it).
import { act, render, screen } from '@testing-library/react';
import { MemoryRouter } from 'react-router-dom';
import { describe, expect, it } from 'vitest';
import { ProvideRecordForm, useRecordForm, type RecordForm } from './record-form';
import { RecordSyncMark } from './record-sync-mark';

function unloadPrevented(): boolean {
  const event = new Event('beforeunload', { cancelable: true });
  window.dispatchEvent(event);
  return event.defaultPrevented;
}

describe('record form provider', () => {
  it('says "Saving…" and guards the page while a save is being written', async () => {
    let finish: (() => void) | undefined;
    const form: RecordForm = {
      record: { id: 'rec-1' },
      readOnly: false,
      save: () =>
        new Promise((resolve) => {
          finish = () => resolve({});
        }),
      saveError: null,
      fieldId: (field) => `field-${field}`,
    };
    let save: RecordForm['save'] | undefined;
    function Probe() {
      save = useRecordForm().save;
      return <RecordSyncMark recordId="rec-1" />;
    }
    render(
      <MemoryRouter>
        <ProvideRecordForm form={form}>
          <Probe />
        </ProvideRecordForm>
      </MemoryRouter>,
    );
    expect(unloadPrevented()).toBe(false);
    let saved: Promise<unknown> | undefined;
    act(() => {
      saved = save?.({ title: 'x' });
    });
    expect(await screen.findByText('Saving…')).toBeInTheDocument();
    expect(unloadPrevented()).toBe(true);
    await act(async () => {
      finish?.();
      await saved;
    });
    expect(screen.queryByText('Saving…')).not.toBeInTheDocument();
    expect(unloadPrevented()).toBe(false);
  });
});
