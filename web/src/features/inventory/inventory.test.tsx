// The inventory screens on a real device database (fake-indexeddb), the sync API unreachable
// so every change waits in the outbox: the list's order (low stock, then expiring, then the
// rest), one-tap booking out of the batch that expires first, the rights that hide the
// controls, and the new item form's §5 messages with nothing written.
import 'fake-indexeddb/auto';
import { readOutbox } from '@rescuelog/sync-protocol/client/outbox';
import { cleanup, screen, waitFor, within } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { afterEach, describe, expect, it } from 'vitest';
import {
  getSyncSession,
  startSyncSession,
  stopSyncSession,
  wipeLocalData,
} from '@/lib/sync/sync-session';
import { axeViolations } from '@/test/axe';
import { makeUser } from '@/test/fixtures';
import { signedInAs } from '@/test/render-app';
import { renderRoute } from '@/test/render-route';
import { server } from '@/test/server';
import { InventoryItemPage } from './components/inventory-item-page';
import { InventoryPage } from './components/inventory-page';
import { NewItemPage } from './components/new-item-page';
import { bookMovement, createItem, saveBatch } from './data/inventory-writes';
import { serviceToday } from './data/use-inventory';

const STORES = makeUser({
  id: 41,
  permissions: { medicalInventory: { read: true, create: true, edit: true, delete: true } },
});
const READER = makeUser({ id: 42, permissions: { medicalInventory: { read: true } } });

function device(user: typeof STORES) {
  server.use(
    http.post('/api/sync/push', () => HttpResponse.error()),
    http.post('/api/sync/pull', () => HttpResponse.error()),
  );
  signedInAs(user);
  if (!startSyncSession(user.id)) throw new Error('no IndexedDB in the test environment');
}

let signedIn = STORES;
afterEach(async () => {
  cleanup();
  stopSyncSession();
  await wipeLocalData(signedIn.id);
});

function daysFromToday(days: number): string {
  const d = new Date(`${serviceToday()}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() + days);
  return d.toISOString().slice(0, 10);
}

async function rowTitles(): Promise<string[]> {
  const results = await screen.findByRole('region', { name: 'Results' });
  return within(results)
    .getAllByRole('link')
    .map((a) => a.querySelector('span span')?.textContent ?? '');
}

describe('the inventory list', { timeout: 20_000 }, () => {
  it('shows low stock first, then expiring, then the rest; − books one out of the batch that expires first', async () => {
    signedIn = STORES;
    device(STORES);
    await createItem({ description: 'Bandage', minimumQty: 2 }, 5);
    const gel = await createItem({ description: 'Glucose gel', minimumQty: 1, unit: 'tubes' }, 0);
    const soon = await saveBatch({ itemId: gel, lot: 'SOON', expiryDate: daysFromToday(10) });
    const late = await saveBatch({ itemId: gel, lot: 'LATE', expiryDate: daysFromToday(200) });
    await bookMovement({ itemId: gel, quantity: 2, reason: 'received', batchId: late });
    await bookMovement({ itemId: gel, quantity: 1, reason: 'received', batchId: soon });
    await createItem({ description: 'Adrenaline', minimumQty: 4, unit: 'ampoules' }, 3);

    const { user } = renderRoute('/medical-inventory', <InventoryPage />);
    await waitFor(async () =>
      expect(await rowTitles()).toEqual(['Adrenaline', 'Glucose gel', 'Bandage']),
    );
    const results = screen.getByRole('region', { name: 'Results' });
    expect(within(results).getByText('Low stock')).toBeInTheDocument();
    expect(within(results).getByText('Expires soon')).toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: 'Book one Glucose gel out' }));
    await waitFor(() => expect(within(results).getByText('2 tubes')).toBeInTheDocument());
    // The soon-expiring batch gave its one: the flag goes, the order follows.
    await waitFor(async () =>
      expect(await rowTitles()).toEqual(['Adrenaline', 'Bandage', 'Glucose gel']),
    );
    const session = getSyncSession();
    if (!session) throw new Error('no session');
    const last = (await readOutbox(session.db)).at(-1);
    expect(last?.mutation.name).toBe('inventoryMovement.book');
    expect(last?.mutation.args).toMatchObject({ itemId: gel, quantity: -1, batchId: soon });
    expect(await axeViolations()).toEqual([]);
  });

  it('shows an item: its stock, batches by expiry, details and history, with nothing for axe to find', async () => {
    signedIn = STORES;
    device(STORES);
    const id = await createItem({ description: 'Glucose gel', minimumQty: 1, unit: 'tubes' }, 0);
    const batch = await saveBatch({ itemId: id, lot: 'G7', expiryDate: daysFromToday(5) });
    await bookMovement({ itemId: id, quantity: 3, reason: 'received', batchId: batch });
    renderRoute('/medical-inventory/:itemId', <InventoryItemPage />, `/medical-inventory/${id}`);
    expect(await screen.findByText('3 tubes')).toBeInTheDocument();
    const batches = screen.getByRole('region', { name: 'Batches' });
    expect(within(batches).getByText(/^Lot G7, expires/)).toBeInTheDocument();
    expect(within(batches).getByText(/Expires soon/)).toBeInTheDocument();
    const history = screen.getByRole('region', { name: 'History' });
    expect(within(history).getByText(/Received/)).toBeInTheDocument();
    expect(await screen.findByLabelText('Description')).toHaveValue('Glucose gel');
    expect(await axeViolations()).toEqual([]);
  });

  it('shows no −/+ and no New item to a member who may only read', async () => {
    signedIn = READER;
    device(READER);
    const session = getSyncSession();
    if (!session) throw new Error('no session');
    // An item another member added (as a pull would leave it).
    await session.db.records('inventoryItem').put({
      id: crypto.randomUUID(),
      description: 'Oxygen mask',
      minimumQty: 1,
      unit: 'pieces',
      location: 'vehicle',
      locationName: 'Vehicle 2',
      category: 'Breathing',
      notes: null,
      userId: 99,
      createdAt: '2026-12-01T08:00:00.000Z',
      version: '5',
      updatedAt: '2026-12-01T08:00:00.000Z',
      deletedAt: null,
    });
    renderRoute('/medical-inventory', <InventoryPage />);
    await waitFor(async () => expect(await rowTitles()).toEqual(['Oxygen mask']));
    expect(screen.getByText('Vehicle: Vehicle 2 · Breathing')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: /Book one/ })).not.toBeInTheDocument();
    expect(screen.queryByRole('link', { name: 'New item' })).not.toBeInTheDocument();
  });
});

describe('a new item', { timeout: 20_000 }, () => {
  it('refuses with the §5 messages and writes nothing', async () => {
    signedIn = STORES;
    device(STORES);
    const { user } = renderRoute('/medical-inventory/new', <NewItemPage />);
    await user.clear(await screen.findByLabelText('Minimum quantity'));
    await user.type(screen.getByLabelText('Minimum quantity'), '-1');
    await user.clear(screen.getByLabelText('Stock on hand'));
    await user.type(screen.getByLabelText('Stock on hand'), '-2');
    await user.click(screen.getByRole('button', { name: 'Add item' }));
    expect(await screen.findByText('Description is required')).toBeInTheDocument();
    expect(screen.getByText('Minimum quantity must be 0 or greater')).toBeInTheDocument();
    expect(screen.getByText('Stock on hand must be 0 or greater')).toBeInTheDocument();
    expect(screen.getByLabelText('Description')).toHaveFocus();
    const session = getSyncSession();
    if (!session) throw new Error('no session');
    expect(await readOutbox(session.db)).toEqual([]);
  });
});
