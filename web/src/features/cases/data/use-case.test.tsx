import 'fake-indexeddb/auto';
import { act, renderHook, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { getSyncSession, stopSyncSession } from '@/lib/sync/sync-session';
import { makeUser } from '@/test/fixtures';
import { deviceOf, seedCase, wipeDevice } from '../completed/case-test-kit';
import { saveCaseFields } from './case-writes';
import { useCaseByCaseId } from './use-case';

const USER = makeUser({ id: 7 });

afterEach(async () => {
  await wipeDevice(USER);
});

describe('useCaseByCaseId', () => {
  it('is loading (not "cannot be stored") until the session opens, then finds the case and follows its changes', async () => {
    deviceOf(USER);
    const { id, caseId } = await seedCase({ patientName: 'First' });
    stopSyncSession();

    const { result } = renderHook(() => useCaseByCaseId(caseId.toLowerCase()));
    await act(async () => {
      await new Promise((resolve) => setTimeout(resolve, 50));
    });
    expect(result.current.state).toBe('loading');

    act(() => {
      deviceOf(USER);
    });
    await waitFor(() =>
      expect(result.current).toMatchObject({
        state: 'ready',
        record: { id, caseId, patientName: 'First' },
      }),
    );

    await saveCaseFields({ id, status: 'in_progress' }, { patientName: 'Second' });
    await waitFor(() =>
      expect(result.current).toMatchObject({ state: 'ready', record: { patientName: 'Second' } }),
    );
  });

  it('reports a case the device does not hold, a deleted one, and one it cannot read', async () => {
    deviceOf(USER);
    const unknown = renderHook(() => useCaseByCaseId('C-0000-0000-0000'));
    await waitFor(() =>
      expect(unknown.result.current).toEqual({ state: 'missing', caseId: 'C-0000-0000-0000' }),
    );

    const deleted = await seedCase({});
    await getSyncSession()
      ?.db.store('cases')
      .update(deleted.id, { deletedAt: '2026-11-20T10:00:00.000Z' });
    const gone = renderHook(() => useCaseByCaseId(deleted.caseId));
    await waitFor(() => expect(gone.result.current.state).toBe('missing'));

    const broken = await seedCase({});
    await getSyncSession()?.db.store('cases').update(broken.id, { approximateAge: 'forty' });
    const unreadable = renderHook(() => useCaseByCaseId(broken.caseId));
    await waitFor(() =>
      expect(unreadable.result.current).toMatchObject({
        state: 'unreadable',
        caseId: broken.caseId,
      }),
    );
  });
});
