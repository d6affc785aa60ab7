// Data in the browser (decision 023) in the real app: when GET /api/session answers that no one is signed in for the
// account this device last signed in with, the device's copy of their patients is deleted if
// nothing waits to sync; with unsynced changes the app shows only a sign-in prompt naming
// whose changes are held, and the database stays. A network failure is not the end of a
// session: nothing is cleared.
import 'fake-indexeddb/auto';
import { QueryClient } from '@tanstack/react-query';
import { screen, waitFor } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { Dexie } from 'dexie';
import {
  DEVICE_DB_NAME,
  listHeldUsers,
  releaseHeldUser,
} from '@rescuelog/sync-protocol/client/active-user';
import { syncDatabaseName } from '@rescuelog/sync-protocol/client/local-db';
import { pendingCount, saveMutation } from '@rescuelog/sync-protocol/client/outbox';
import { openAppDatabase } from '@rescuelog/sync-protocol/records/device';
import { currentUserQuery, endSessionOnDevice, ENDING_USER_KEY, KNOWN_USER_KEY } from '@/lib/auth';
import { clearPatientCaches } from '@/lib/sync/browser-caches';
import { endLocalSession, wipeLocalData } from '@/lib/sync/sync-session';
import { makeUser } from '@/test/fixtures';
import { axeViolations } from '@/test/axe';
import { dashboardData, renderApp, signedInAs } from '@/test/render-app';
import { server } from '@/test/server';
import { gateOpen } from '../../../../sync-protocol/test/client/gate-open';

const thandi = makeUser({ id: 41, fullName: 'Thandi Nkosi' });
const pieter = makeUser({ id: 42, fullName: 'Pieter Botha' });
const CASE_ID = '0b6c1b8e-3f1c-4a43-9a51-7f1e6f2b9d10';

function rememberThandi() {
  localStorage.setItem(KNOWN_USER_KEY, JSON.stringify({ user: thandi }));
}

/** The app started with `user` signed in, the dashboard answered and the sync API out of
 * reach (nothing leaves or reaches the device meanwhile). */
function startSignedIn(user: typeof thandi) {
  signedInAs(user);
  dashboardData();
  server.use(
    http.post('/api/sync/pull', () => HttpResponse.error()),
    http.post('/api/sync/push', () => HttpResponse.error()),
  );
  renderApp('/');
}

async function databaseExists(userId: number): Promise<boolean> {
  return (await indexedDB.databases()).some((d) => d.name === syncDatabaseName(userId));
}

/** Thandi's (or another user's) database with one pulled case and, if asked, one change not
 * yet synced. */
async function seedDevice({
  unsynced,
  userId = thandi.id,
}: {
  unsynced: boolean;
  userId?: number;
}) {
  const db = openAppDatabase(userId);
  await db.records('case').put({ id: CASE_ID, caseId: 'C-2611-AAAA-0001', patientName: 'Sipho' });
  if (unsynced)
    await saveMutation(db, {
      name: 'case.upsert',
      args: { id: CASE_ID, fields: { patientName: 'Sipho Dlamini' } },
      baseVersion: '1',
      actorUserId: userId,
    });
  db.close();
}

afterEach(async () => {
  for (const id of [thandi.id, pieter.id]) {
    await openAppDatabase(id).delete();
    await releaseHeldUser(id);
  }
  localStorage.removeItem(ENDING_USER_KEY);
});

describe('the end of a session on this device', () => {
  it('with nothing waiting to sync, deletes the patients and shows the usual sign-in', async () => {
    rememberThandi();
    await seedDevice({ unsynced: false });
    signedInAs(null);
    renderApp('/');
    expect(await screen.findByRole('tab', { name: 'Register' })).toBeInTheDocument();
    expect(await databaseExists(thandi.id)).toBe(false);
    expect(localStorage.getItem(KNOWN_USER_KEY)).toBeNull();
    expect(await listHeldUsers()).toEqual([]);
  });

  it('with unsynced changes, shows only a sign-in prompt naming whose changes are held', async () => {
    rememberThandi();
    await seedDevice({ unsynced: true });
    signedInAs(null);
    const { container } = renderApp('/');
    expect(
      await screen.findByRole('heading', { name: 'Unsynced changes are locked on this device' }),
    ).toBeInTheDocument();
    expect(screen.getByText(/has 1 unsynced change here/)).toHaveTextContent(
      'Thandi Nkosi has 1 unsynced change here. Sign in as Thandi Nkosi to send them to the server.',
    );
    expect(screen.getByLabelText(/^Email/)).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Sign In' })).toBeInTheDocument();
    // Nothing else: no registration, no patient data.
    expect(screen.queryByRole('tab', { name: 'Register' })).not.toBeInTheDocument();
    expect(screen.queryByText(/Sipho/)).not.toBeInTheDocument();
    expect(await axeViolations(container)).toEqual([]);

    // The changes are kept, whole.
    expect(await databaseExists(thandi.id)).toBe(true);
    const db = openAppDatabase(thandi.id);
    expect(await pendingCount(db)).toBe(1);
    db.close();
  });

  it('a suspended account’s Back to Login deletes the patients on the device', async () => {
    rememberThandi();
    await seedDevice({ unsynced: false });
    signedInAs(makeUser({ id: thandi.id, fullName: thandi.fullName, status: 'suspended' }));
    server.use(
      http.post('/api/logout', () => {
        signedInAs(null);
        return HttpResponse.json({ message: 'Logged out successfully' });
      }),
    );
    const { user } = renderApp('/');
    await user.click(await screen.findByRole('button', { name: 'Back to Login' }));
    expect(await screen.findByRole('tab', { name: 'Sign In' })).toBeInTheDocument();
    await waitFor(async () => expect(await databaseExists(thandi.id)).toBe(false));
    await waitFor(() => expect(localStorage.getItem(ENDING_USER_KEY)).toBeNull());
  });

  it('a network failure is not the end of the session: nothing is cleared', async () => {
    rememberThandi();
    await seedDevice({ unsynced: false });
    server.use(http.get('/api/session', () => HttpResponse.error()));
    const user = await new QueryClient().fetchQuery(currentUserQuery);
    expect(user?.id).toBe(thandi.id);
    expect(await databaseExists(thandi.id)).toBe(true);
  });
});

describe('an end of session cut short by a closed page', () => {
  /** The first start hears the 401, forgets the account, and is closed (a phone's OS killing
   * the tab, a reload) while it clears the browser's caches: its end never finishes. */
  async function startCutShort() {
    rememberThandi();
    await seedDevice({ unsynced: false });
    const never = new Promise<string[]>(() => undefined);
    vi.stubGlobal('caches', { keys: () => never });
    signedInAs(null);
    const first = renderApp('/');
    await waitFor(() => expect(localStorage.getItem(KNOWN_USER_KEY)).toBeNull());
    first.unmount();
    vi.unstubAllGlobals();
    expect(await databaseExists(thandi.id)).toBe(true);
  }

  afterEach(() => vi.unstubAllGlobals());

  it('is finished at the next start: the patients are deleted', async () => {
    await startCutShort();
    signedInAs(null);
    renderApp('/');
    expect(await screen.findByRole('tab', { name: 'Register' })).toBeInTheDocument();
    await waitFor(async () => expect(await databaseExists(thandi.id)).toBe(false));
    expect(localStorage.getItem(ENDING_USER_KEY)).toBeNull();
  });

  it('is finished at the next start without signal too', async () => {
    await startCutShort();
    server.use(http.get('/api/session', () => HttpResponse.error()));
    renderApp('/');
    expect(
      await screen.findByRole('heading', { name: 'Could not load your account' }),
    ).toBeInTheDocument();
    expect(await databaseExists(thandi.id)).toBe(false);
  });

  it('by a tab closed right after logout is finished at the next start', async () => {
    await seedDevice({ unsynced: false });
    signedInAs(thandi);
    dashboardData();
    server.use(
      http.post('/api/sync/pull', () =>
        HttpResponse.json({ cursor: '0', hasMore: false, changes: [] }),
      ),
      http.post('/api/logout', () => {
        signedInAs(null);
        return HttpResponse.json({ message: 'Logged out successfully' });
      }),
    );
    const first = renderApp('/');
    expect(await screen.findByText('Thandi Nkosi')).toBeInTheDocument();
    // The tab closes while the device is being cleared after the logout.
    vi.stubGlobal('caches', { keys: () => new Promise<string[]>(() => undefined) });
    await first.user.click(screen.getByRole('button', { name: 'Log out' }));
    expect(await first.findByRole('tab', { name: 'Sign In' })).toBeInTheDocument();
    first.unmount();
    vi.unstubAllGlobals();
    expect(await databaseExists(thandi.id)).toBe(true);

    renderApp('/');
    expect(await screen.findByRole('tab', { name: 'Register' })).toBeInTheDocument();
    await waitFor(async () => expect(await databaseExists(thandi.id)).toBe(false));
  });

  it('keeps the data when the same user is signed in again', async () => {
    await startCutShort();
    startSignedIn(thandi);
    expect(await screen.findByText('Thandi Nkosi')).toBeInTheDocument();
    expect(await databaseExists(thandi.id)).toBe(true);
    expect(localStorage.getItem(ENDING_USER_KEY)).toBeNull();
  });
});

describe('two ends of the same session at once', () => {
  afterEach(() => {
    Dexie.dependencies.indexedDB = indexedDB;
  });

  it('a 401’s hold written after “Delete them and log out” leaves no locked prompt', async () => {
    await seedDevice({ unsynced: true });
    // The 401's end has counted 1 change waiting and is about to write the hold (its first open
    // of the device database after it opened Thandi's) when the logout's wipe runs.
    const gate = gateOpen(
      indexedDB as unknown as Parameters<typeof gateOpen>[0],
      (name, openedBefore) =>
        name === DEVICE_DB_NAME && openedBefore.includes(syncDatabaseName(thandi.id)),
    );
    Dexie.dependencies.indexedDB = gate.factory as unknown as IDBFactory;
    const held = endLocalSession({ id: thandi.id, name: thandi.fullName });
    await gate.requested;
    const wiped = wipeLocalData(thandi.id);
    // Before the fix the wipe finished here; now it waits for the end to finish.
    await Promise.race([wiped, new Promise((resolve) => setTimeout(resolve, 200))]);
    gate.release();
    await Promise.all([held, wiped]);
    expect(await databaseExists(thandi.id)).toBe(false);
    expect(await listHeldUsers()).toEqual([]);
  });

  it('“Delete them and log out” and a 401 leave no locked prompt for deleted changes', async () => {
    await seedDevice({ unsynced: true });
    const ending = { id: thandi.id, name: thandi.fullName };
    await Promise.all([endSessionOnDevice(ending), endSessionOnDevice(ending, { wipe: true })]);
    expect(await databaseExists(thandi.id)).toBe(false);
    expect(await listHeldUsers()).toEqual([]);
    expect(localStorage.getItem(ENDING_USER_KEY)).toBeNull();

    signedInAs(null);
    renderApp('/');
    expect(await screen.findByRole('tab', { name: 'Register' })).toBeInTheDocument();
    expect(
      screen.queryByRole('heading', { name: 'Unsynced changes are locked on this device' }),
    ).not.toBeInTheDocument();
  });
});

describe('ends of two users cut short on the same device', () => {
  afterEach(() => vi.unstubAllGlobals());

  it('are both finished at the next start: neither user’s patients stay', async () => {
    // Thandi's end was marked and cut short by a build that kept one user in the mark.
    await seedDevice({ unsynced: false });
    localStorage.setItem(ENDING_USER_KEY, JSON.stringify({ id: thandi.id, name: 'Thandi Nkosi' }));
    // Pieter signed in on the same device (his start failed to finish Thandi's end: the
    // tablet's caches hang) and his session ended, cut short too.
    await seedDevice({ unsynced: false, userId: pieter.id });
    vi.stubGlobal('caches', { keys: () => new Promise<string[]>(() => undefined) });
    void endSessionOnDevice({ id: pieter.id, name: pieter.fullName });
    vi.unstubAllGlobals();
    expect(await databaseExists(thandi.id)).toBe(true);
    expect(await databaseExists(pieter.id)).toBe(true);

    signedInAs(null);
    renderApp('/');
    expect(await screen.findByRole('tab', { name: 'Register' })).toBeInTheDocument();
    await waitFor(async () => expect(await databaseExists(pieter.id)).toBe(false));
    await waitFor(async () => expect(await databaseExists(thandi.id)).toBe(false));
    expect(localStorage.getItem(ENDING_USER_KEY)).toBeNull();
  });

  it('the one who signs in again keeps their data; the other’s is finished', async () => {
    await seedDevice({ unsynced: false });
    await seedDevice({ unsynced: false, userId: pieter.id });
    localStorage.setItem(
      ENDING_USER_KEY,
      JSON.stringify([
        { id: thandi.id, name: 'Thandi Nkosi' },
        { id: pieter.id, name: 'Pieter Botha' },
      ]),
    );
    startSignedIn(thandi);
    expect(await screen.findByText('Thandi Nkosi')).toBeInTheDocument();
    await waitFor(async () => expect(await databaseExists(pieter.id)).toBe(false));
    expect(await databaseExists(thandi.id)).toBe(true);
    expect(localStorage.getItem(ENDING_USER_KEY)).toBeNull();
  });
});

describe('clearPatientCaches', () => {
  /** Cache Storage in memory: cache name -> request URLs. */
  function fakeCaches(initial: Record<string, string[]>) {
    const store = new Map(Object.entries(initial).map(([k, v]) => [k, new Set(v)]));
    const storage = {
      keys: () => Promise.resolve([...store.keys()]),
      delete: (name: string) => Promise.resolve(store.delete(name)),
      open: (name: string) => {
        const urls = store.get(name) ?? new Set<string>();
        return Promise.resolve({
          keys: () => Promise.resolve([...urls].map((url) => new Request(url))),
          delete: (request: Request) => Promise.resolve(urls.delete(request.url)),
        });
      },
    };
    return { storage: storage as unknown as CacheStorage, store };
  }

  it('keeps the precache’s app shell, drops its API entries and every other cache', async () => {
    const { storage, store } = fakeCaches({
      'workbox-precache-v2-https://app.example/': [
        'https://app.example/index.html',
        'https://app.example/api/cases',
      ],
      'api-responses': ['https://app.example/api/cases/C-2611-AAAA-0001'],
    });
    await clearPatientCaches(storage);
    expect([...store.keys()]).toEqual(['workbox-precache-v2-https://app.example/']);
    expect([...(store.get('workbox-precache-v2-https://app.example/') ?? [])]).toEqual([
      'https://app.example/index.html',
    ]);
  });
});
