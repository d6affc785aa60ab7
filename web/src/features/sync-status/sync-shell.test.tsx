import 'fake-indexeddb/auto';
import { generateHumanId } from '@rescuelog/sync-protocol/platform/human-id';
import { screen, waitFor, within } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { afterEach, describe, expect, it } from 'vitest';
import {
  getSyncSession,
  saveLocalChange,
  stopSyncSession,
  wipeLocalData,
} from '@/lib/sync/sync-session';
import { makeUser } from '@/test/fixtures';
import { dashboardData, renderApp, signedInAs } from '@/test/render-app';
import { server } from '@/test/server';
import { openAppDatabase } from '@rescuelog/sync-protocol/records/device';

const USER = makeUser({ id: 7 });

/** The server is unreachable for sync (changes stay queued); logout works. */
function syncDown() {
  let loggedOut = false;
  server.use(
    http.post('/api/sync/push', () => HttpResponse.error()),
    http.post('/api/sync/pull', () => HttpResponse.error()),
    http.post('/api/logout', () => {
      loggedOut = true;
      signedInAs(null);
      return HttpResponse.json({ message: 'Logged out successfully' });
    }),
  );
  return { loggedOut: () => loggedOut };
}

afterEach(async () => {
  stopSyncSession();
  await wipeLocalData(USER.id);
});

async function saveOneCase(): Promise<void> {
  const id = crypto.randomUUID();
  await waitFor(() => expect(getSyncSession()).not.toBeNull());
  await saveLocalChange({
    name: 'case.upsert',
    args: { id, humanId: generateHumanId('C'), fields: { patientName: 'Unsynced Patient' } },
    baseVersion: null,
    actorUserId: USER.id,
  });
}

describe('sync in the app shell', () => {
  it("opens the signed-in user's database and shows the status bar on the dashboard", async () => {
    syncDown();
    signedInAs(USER);
    dashboardData();
    renderApp('/');
    expect(await screen.findByRole('region', { name: 'Sync status' })).toBeInTheDocument();
    expect(getSyncSession()?.db.name).toBe('rescuelog-user-7');
  });

  it('warns at logout about changes not yet synced and keeps them when asked', async () => {
    const api = syncDown();
    signedInAs(USER);
    dashboardData();
    const { user } = renderApp('/');
    await saveOneCase();
    const bar = await screen.findByRole('region', { name: 'Sync status' });
    expect(
      await within(bar).findByText('Offline: 1 change kept on this device'),
    ).toBeInTheDocument();

    await user.click(await screen.findByRole('button', { name: 'Log out' }));
    const dialog = await screen.findByRole('alertdialog', {
      name: 'You have 1 change not yet synced',
    });
    await user.click(within(dialog).getByRole('button', { name: 'Stay signed in' }));
    expect(api.loggedOut()).toBe(false);

    await user.click(screen.getByRole('button', { name: 'Log out' }));
    await user.click(
      within(await screen.findByRole('alertdialog')).getByRole('button', {
        name: 'Log out and keep them',
      }),
    );
    await waitFor(() => expect(api.loggedOut()).toBe(true));
    await waitFor(() => expect(getSyncSession()).toBeNull());
    // Kept: the same user's database still holds the change.
    const db = openAppDatabase(USER.id);
    expect(await db.outbox.count()).toBe(1);
    db.close();
  });

  it('deletes the local data at logout when the user chooses to', async () => {
    const api = syncDown();
    signedInAs(USER);
    dashboardData();
    const { user } = renderApp('/');
    await saveOneCase();
    await user.click(await screen.findByRole('button', { name: 'Log out' }));
    await user.click(
      within(await screen.findByRole('alertdialog')).getByRole('button', {
        name: 'Delete them and log out',
      }),
    );
    await waitFor(() => expect(api.loggedOut()).toBe(true));
    await waitFor(async () =>
      expect(await indexedDB.databases()).not.toContainEqual(
        expect.objectContaining({ name: 'rescuelog-user-7' }),
      ),
    );
  });

  it('logs out without asking and deletes the local database once everything is synced', async () => {
    let loggedOut = false;
    server.use(
      http.post('/api/sync/push', async ({ request }) => {
        const body = (await request.json()) as { mutations: { seq: number; mutationId: string }[] };
        const results = body.mutations.map((m) => ({
          seq: m.seq,
          mutationId: m.mutationId,
          status: 'applied',
        }));
        return HttpResponse.json({ lastAppliedSeq: body.mutations.at(-1)?.seq ?? 0, results });
      }),
      http.post('/api/sync/pull', () =>
        HttpResponse.json({ cursor: '0', hasMore: false, changes: [] }),
      ),
      http.post('/api/logout', () => {
        loggedOut = true;
        signedInAs(null);
        return HttpResponse.json({ message: 'Logged out successfully' });
      }),
    );
    signedInAs(USER);
    dashboardData();
    const { user } = renderApp('/');
    await saveOneCase();
    const bar = await screen.findByRole('region', { name: 'Sync status' });
    expect(await within(bar).findByText('All changes synced')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Log out' }));
    await waitFor(() => expect(loggedOut).toBe(true));
    expect(screen.queryByRole('alertdialog')).not.toBeInTheDocument();
    await waitFor(async () =>
      expect(await indexedDB.databases()).not.toContainEqual(
        expect.objectContaining({ name: 'rescuelog-user-7' }),
      ),
    );
  });
});
