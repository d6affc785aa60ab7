import 'fake-indexeddb/auto';
import { pushRequestSchema } from '@rescuelog/sync-protocol/platform/push-pull';
import { generateHumanId } from '@rescuelog/sync-protocol/platform/human-id';
import type { LocalChange as MutationInput } from '@/lib/sync/sync-session';
import { act, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { MemoryRouter } from 'react-router-dom';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  getSyncSession,
  saveLocalChange,
  startSyncSession,
  wipeLocalData,
} from '@/lib/sync/sync-session';
import { axeViolations } from '@/test/axe';
import { makeUser } from '@/test/fixtures';
import { server } from '@/test/server';
import { RecordSyncMark } from '@/components/record-form/record-sync-mark';
import { SyncInbox } from './components/sync-inbox';
import { SyncStatusBar } from './components/sync-status-bar';

const USER = makeUser({ id: 7 });

/** The sync API as MSW answers it: seq bookkeeping per device, and a switch for failures. */
function syncApi() {
  const state = {
    mode: 'ok' as 'ok' | 'down' | 'signed-out' | 'captive-portal',
    lastApplied: new Map<string, number>(),
    rejectNext: false,
    /** The server fails to store the next fresh mutation this many times (a server fault). */
    failNext: 0,
    applied: 0,
  };
  server.use(
    http.post('/api/sync/push', async ({ request }) => {
      if (state.mode === 'down')
        return HttpResponse.json(
          { error: 'Internal Server Error', code: 'INTERNAL' },
          { status: 503 },
        );
      if (state.mode === 'signed-out')
        return HttpResponse.json(
          { error: 'Not signed in', code: 'UNAUTHENTICATED' },
          { status: 401 },
        );
      if (state.mode === 'captive-portal')
        return HttpResponse.text('<html>Log in to Airport Wi-Fi</html>', {
          headers: { 'content-type': 'text/html' },
        });
      const body = pushRequestSchema.parse(await request.json());
      let last = state.lastApplied.get(body.deviceId) ?? 0;
      const results = [];
      for (const m of body.mutations) {
        if (m.seq <= last)
          results.push({ seq: m.seq, mutationId: m.mutationId, status: 'duplicate' });
        else if (m.seq === last + 1) {
          if (state.failNext > 0 && m.name !== 'sync.setAside') {
            state.failNext -= 1;
            state.lastApplied.set(body.deviceId, last);
            return HttpResponse.json({
              lastAppliedSeq: last,
              results,
              failed: { seq: m.seq, mutationId: m.mutationId, message: 'Storing failed' },
            });
          }
          last = m.seq;
          if (state.rejectNext) {
            state.rejectNext = false;
            results.push({
              seq: m.seq,
              mutationId: m.mutationId,
              status: 'rejected',
              code: 'NOT_OWNER',
            });
          } else {
            // A set-aside marker stores no record.
            if (m.name !== 'sync.setAside') state.applied += 1;
            results.push({ seq: m.seq, mutationId: m.mutationId, status: 'applied' });
          }
        } else break;
      }
      state.lastApplied.set(body.deviceId, last);
      return HttpResponse.json({ lastAppliedSeq: last, results });
    }),
    http.post('/api/sync/pull', () => {
      if (state.mode !== 'ok')
        return HttpResponse.json(
          { error: 'Internal Server Error', code: 'INTERNAL' },
          { status: 503 },
        );
      return HttpResponse.json({ cursor: '0', hasMore: false, changes: [] });
    }),
  );
  return state;
}

function newCase(patientName: string): { id: string; input: MutationInput } {
  const id = crypto.randomUUID();
  return {
    id,
    input: {
      name: 'case.upsert',
      args: { id, humanId: generateHumanId('C'), fields: { patientName, incidentType: 'Fall' } },
      baseVersion: null,
      actorUserId: USER.id,
    },
  };
}

function setOnline(online: boolean): void {
  Object.defineProperty(navigator, 'onLine', { configurable: true, get: () => online });
  window.dispatchEvent(new Event(online ? 'online' : 'offline'));
}

function renderBar() {
  return render(
    <MemoryRouter>
      <SyncStatusBar />
    </MemoryRouter>,
  );
}

beforeEach(() => {
  setOnline(true);
});

afterEach(async () => {
  await wipeLocalData(USER.id);
});

describe('sync status bar', () => {
  it('shows pending changes while the server is down and the last sync once it is back', async () => {
    const api = syncApi();
    api.mode = 'down';
    startSyncSession(USER.id);
    renderBar();
    const bar = await screen.findByRole('region', { name: 'Sync status' });
    await act(async () => {
      await saveLocalChange(newCase('Sipho Dlamini').input);
      await saveLocalChange(newCase('Lerato Mokoena').input);
    });
    expect(await within(bar).findByText('2 changes not yet synced')).toBeInTheDocument();
    expect(await within(bar).findByRole('alert')).toHaveTextContent(
      /Sync failed: Internal Server Error\. Retrying at \d\d:\d\d\./,
    );
    expect(within(bar).getByText('Not synced yet')).toBeInTheDocument();

    api.mode = 'ok';
    await userEvent.click(within(bar).getByRole('button', { name: 'Sync now' }));
    expect(await within(bar).findByText('All changes synced')).toBeInTheDocument();
    expect(
      await within(bar).findByText(/^Last synced \d{1,2} [A-Z][a-z]{2} \d{4}, \d\d:\d\d$/),
    ).toBeInTheDocument();
    expect(within(bar).queryByRole('alert')).not.toBeInTheDocument();
    expect(api.applied).toBe(2);
    expect(await axeViolations()).toEqual([]);
  });

  it('treats a captive-portal page as no answer and keeps the changes', async () => {
    const api = syncApi();
    api.mode = 'captive-portal';
    startSyncSession(USER.id);
    renderBar();
    await act(async () => {
      await saveLocalChange(newCase('Naledi Khumalo').input);
    });
    const bar = await screen.findByRole('region', { name: 'Sync status' });
    expect(await within(bar).findByRole('alert')).toHaveTextContent(/not RescueLog/);
    expect(await within(bar).findByText('1 change not yet synced')).toBeInTheDocument();
    expect(api.applied).toBe(0);
  });

  it('says when the device is offline', async () => {
    syncApi();
    startSyncSession(USER.id);
    renderBar();
    const bar = await screen.findByRole('region', { name: 'Sync status' });
    expect(within(bar).getByText('Online')).toBeInTheDocument();
    act(() => setOnline(false));
    expect(await within(bar).findByText('Offline: all changes synced')).toBeInTheDocument();
  });

  it('asks for sign-in on 401, keeps the changes, and syncs them after signing in again', async () => {
    const api = syncApi();
    api.mode = 'signed-out';
    let authRequired = 0;
    startSyncSession(USER.id, { onAuthRequired: () => (authRequired += 1) });
    renderBar();
    await act(async () => {
      await saveLocalChange(newCase('Ayanda Zulu').input);
    });
    const bar = await screen.findByRole('region', { name: 'Sync status' });
    expect(await within(bar).findByRole('alert')).toHaveTextContent(
      'Your session has ended. Sign in again to sync your changes.',
    );
    expect(authRequired).toBe(1);
    expect(await within(bar).findByText('1 change not yet synced')).toBeInTheDocument();

    api.mode = 'ok';
    // Signing in again as the same user resumes the same session.
    act(() => void startSyncSession(USER.id));
    expect(await within(bar).findByText('All changes synced')).toBeInTheDocument();
    expect(api.applied).toBe(1);
  });
});

describe('not yet synced mark', () => {
  it('marks a record until the server acknowledged its changes', async () => {
    const api = syncApi();
    api.mode = 'down';
    startSyncSession(USER.id);
    const record = newCase('Johan van Wyk');
    await saveLocalChange(record.input);
    const other = crypto.randomUUID();
    render(
      <MemoryRouter>
        <ul>
          <li>
            Johan <RecordSyncMark recordId={record.id} />
          </li>
          <li>
            Synced record <RecordSyncMark recordId={other} />
          </li>
        </ul>
      </MemoryRouter>,
    );
    const items = screen.getAllByRole('listitem');
    expect(await within(items[0]!).findByText('Not yet synced')).toBeInTheDocument();
    expect(within(items[1]!).queryByText('Not yet synced')).not.toBeInTheDocument();
    api.mode = 'ok';
    await act(async () => {
      await getSyncSession()?.engine.sync('manual');
    });
    await waitFor(() =>
      expect(within(items[0]!).queryByText('Not yet synced')).not.toBeInTheDocument(),
    );
  });
});

describe('rejected changes inbox', () => {
  it('lists a refused change with the reason and the data entered, and can dismiss it', async () => {
    const api = syncApi();
    api.rejectNext = true;
    startSyncSession(USER.id);
    const refused = newCase('Pieter Botha');
    await act(async () => {
      await saveLocalChange(refused.input);
      await getSyncSession()?.engine.sync('manual');
    });
    render(
      <MemoryRouter>
        <SyncStatusBar />
        <section aria-label="Record">
          Pieter <RecordSyncMark recordId={refused.id} />
        </section>
        <SyncInbox />
      </MemoryRouter>,
    );
    // On the record itself: a link to the inbox that says so.
    expect(await screen.findByRole('link', { name: '1 change not accepted' })).toHaveAttribute(
      'href',
      '/sync-inbox',
    );
    const bar = await screen.findByRole('region', { name: 'Sync status' });
    expect(await within(bar).findByRole('link', { name: '1 not accepted' })).toHaveAttribute(
      'href',
      '/sync-inbox',
    );
    const item = (await screen.findByRole('heading', { name: 'Case changes' })).closest('li')!;
    expect(
      within(item).getByText("You cannot change another responder's record."),
    ).toBeInTheDocument();
    expect(within(item).getByText('patientName')).toBeInTheDocument();
    expect(within(item).getByText('Pieter Botha')).toBeInTheDocument();
    expect(within(item).getByText('Fall')).toBeInTheDocument();
    expect(await axeViolations()).toEqual([]);

    await userEvent.click(within(item).getByRole('button', { name: 'Dismiss' }));
    expect(
      await within(item).findByText(/^Dismissed \d{1,2} [A-Z][a-z]{2} \d{4}/),
    ).toBeInTheDocument();
    // Still there with its data; only the bar's count goes.
    expect(within(item).getByText('Pieter Botha')).toBeInTheDocument();
    await waitFor(() =>
      expect(within(bar).queryByRole('link', { name: /not accepted/ })).not.toBeInTheDocument(),
    );
  });

  it('sets aside a change the server failed to store 3 times, and tries it again on request', async () => {
    const api = syncApi();
    api.failNext = 3;
    startSyncSession(USER.id);
    await act(async () => {
      await saveLocalChange(newCase('Thandi Nkosi').input);
      for (let i = 0; i < 3; i += 1) await getSyncSession()?.engine.sync('manual');
    });
    expect(api.applied).toBe(0);
    render(
      <MemoryRouter>
        <SyncStatusBar />
        <SyncInbox />
      </MemoryRouter>,
    );
    const item = (await screen.findByRole('heading', { name: 'Case changes' })).closest('li')!;
    expect(within(item).getByText(/could not store this change after 3 tries/)).toBeInTheDocument();
    expect(within(item).getByText('Thandi Nkosi')).toBeInTheDocument();
    expect(await axeViolations()).toEqual([]);

    // The server is fixed: "Try again" saves it again and it syncs; the inbox empties.
    await userEvent.click(within(item).getByRole('button', { name: 'Try again' }));
    await waitFor(() => expect(api.applied).toBe(1));
    expect(await screen.findByText('No refused changes.')).toBeInTheDocument();
  });
});
