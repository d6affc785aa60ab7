// The list kit's promise: a kind nobody wrote a screen for (a throwaway kind defined in
// src/test/throwaway-kind.ts) gets a working log list from its definition and its row
// layout alone. A real device database (fake-indexeddb) written through the one write path,
// the real router and query client; the sync API unreachable, so every record waits to sync.
import 'fake-indexeddb/auto';
import type { SyncDatabase } from '@rescuelog/sync-protocol/client/local-db';
import { cleanup, screen, waitFor, within } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startSyncSession, stopSyncSession } from '@/lib/sync/sync-session';
import { axeViolations } from '@/test/axe';
import { makeUser } from '@/test/fixtures';
import { signedInAs } from '@/test/render-app';
import { renderRoute } from '@/test/render-route';
import { server } from '@/test/server';
import {
  countStock,
  openTestDatabase,
  stockCountRecord,
  type StockCountFields,
} from '@/test/throwaway-kind';
import { KindList } from './kind-list';

const USER = makeUser({ id: 31, fullName: 'Naledi Mokoena', callSign: 'Q3' });
const SHELVES = [
  { value: 'A1', label: 'Shelf A1' },
  { value: 'B2', label: 'Shelf B2' },
];

// ---- The whole screen: its row layout -----------------------------------------------------
function StockCountList() {
  return (
    <KindList
      kind={stockCountRecord}
      noun={{ one: 'stock count', many: 'stock counts' }}
      searchFields={['item']}
      filters={[{ field: 'shelf', label: 'Shelf', options: SHELVES }]}
      sortBy="countedAt"
      hrefOf={(r) => `/stock/${r.id}`}
      renderRow={(r) => (
        <span>
          {r.item} × {r.quantity}
        </span>
      )}
      emptyHint="Count the stock on a shelf to start the log."
    />
  );
}
// -------------------------------------------------------------------------------------------

/** A wrong field name is a type error, not a list that never matches. */
export function MisspeltList() {
  return (
    <KindList
      kind={stockCountRecord}
      noun={{ one: 'stock count', many: 'stock counts' }}
      // @ts-expect-error: the kind has no field "itme"
      searchFields={['itme']}
      sortBy="countedAt"
      hrefOf={(r) => `/stock/${r.id}`}
      renderRow={(r) => r.item}
    />
  );
}

let db: SyncDatabase;
let location = { search: '' };

function renderList(path = '/stock') {
  const rendered = renderRoute('/stock', <StockCountList />, path);
  location = rendered.location;
  return rendered.user;
}

async function rowTexts(): Promise<string[]> {
  const results = await screen.findByRole('region', { name: 'Results' });
  await waitFor(() => expect(within(results).queryAllByRole('link').length).toBeGreaterThan(0));
  return within(results)
    .getAllByRole('link')
    .map((a) => a.textContent ?? '');
}

const at = (day: number, minute = 0) => new Date(Date.UTC(2026, 10, day, 8, minute)).toISOString();

function counted(item: string, day: number, extra: Partial<StockCountFields> = {}) {
  return countStock(db, {
    item,
    shelf: 'A1',
    quantity: 5,
    expired: false,
    countedAt: at(day),
    ...extra,
  });
}

beforeEach(() => {
  server.use(
    http.post('/api/sync/push', () => HttpResponse.error()),
    http.post('/api/sync/pull', () => HttpResponse.error()),
  );
  signedInAs(USER);
  const session = startSyncSession(USER.id, { openDatabase: openTestDatabase });
  if (!session) throw new Error('no IndexedDB in the test environment');
  db = session.db;
});

afterEach(async () => {
  cleanup();
  stopSyncSession();
  await openTestDatabase(USER.id).delete();
});

describe('a log list from the kit, for a kind with no screen code', { timeout: 20_000 }, () => {
  it('lists the device’s records newest first, each marked until it syncs', async () => {
    await counted('Gauze', 2);
    await counted('Splint', 4, { shelf: 'B2' });
    await counted('Saline', 3);
    renderList();
    await waitFor(async () => expect(await rowTexts()).toHaveLength(3));
    const rows = await rowTexts();
    expect(rows.map((r) => r.split(' ×')[0])).toEqual(['Splint', 'Saline', 'Gauze']);
    // The outbox is read beside the records: the marks may come a moment later.
    await waitFor(async () => {
      for (const row of await rowTexts()) expect(row).toContain('Not yet synced');
    });
    expect(screen.getByText('3 stock counts on this device')).toBeInTheDocument();
    const [first] = within(screen.getByRole('region', { name: 'Results' })).getAllByRole('link');
    expect(first?.getAttribute('href')).toMatch(/^\/stock\/[0-9a-f-]{36}$/);
    expect(await axeViolations()).toEqual([]);
  });

  it('narrows by a filter and by the search box, both kept in the URL', async () => {
    await counted('Gauze swabs', 2);
    await counted('Splint', 4, { shelf: 'B2' });
    await counted('Gauze roll', 3, { shelf: 'B2' });
    const user = renderList();
    await waitFor(async () => expect(await rowTexts()).toHaveLength(3));

    await user.selectOptions(screen.getByLabelText('Shelf'), 'B2');
    await user.click(screen.getByRole('button', { name: 'Search' }));
    await waitFor(async () => expect(await rowTexts()).toHaveLength(2));
    expect(location.search).toBe('?shelf=B2');

    await user.type(screen.getByLabelText('Search stock counts'), 'GAUZE');
    await user.click(screen.getByRole('button', { name: 'Search' }));
    await waitFor(async () => expect(await rowTexts()).toHaveLength(1));
    expect((await rowTexts())[0]).toContain('Gauze roll');
    expect(new URLSearchParams(location.search).get('q')).toBe('GAUZE');
    expect(screen.getByText('1 stock count on this device')).toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: 'Clear filters' }));
    await waitFor(async () => expect(await rowTexts()).toHaveLength(3));
    expect(location.search).toBe('');
  });

  it('opens with the filters a link carries, and says what to do when none match', async () => {
    await counted('Gauze', 2);
    renderList('/stock?shelf=B2');
    expect(await screen.findByText('No stock counts found')).toBeInTheDocument();
    expect(screen.getByText('Try fewer filters, or clear them.')).toBeInTheDocument();
    expect(screen.getByLabelText('Shelf')).toHaveValue('B2');
  });

  it('shows a record saved while the list is open at once, in its place', async () => {
    await counted('Gauze', 2);
    await counted('Saline', 5);
    renderList();
    await waitFor(async () => expect(await rowTexts()).toHaveLength(2));
    await counted('Splint', 3);
    await waitFor(async () =>
      expect((await rowTexts()).map((r) => r.split(' ×')[0])).toEqual([
        'Saline',
        'Splint',
        'Gauze',
      ]),
    );
  });

  it('shows 50 at a time, and the rest on "Show more"', async () => {
    for (let i = 0; i < 55; i++) await counted(`Item ${String(i)}`, 1 + (i % 28), { quantity: i });
    const user = renderList();
    await waitFor(async () => expect(await rowTexts()).toHaveLength(50));
    expect(screen.getByText('Showing 50 of 55 stock counts on this device')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Show more' }));
    await waitFor(async () => expect(await rowTexts()).toHaveLength(55));
    expect(screen.queryByRole('button', { name: 'Show more' })).not.toBeInTheDocument();
  });

  it('an empty log says how to start it', async () => {
    renderList();
    expect(await screen.findByText('No stock counts found')).toBeInTheDocument();
    expect(screen.getByText('Count the stock on a shelf to start the log.')).toBeInTheDocument();
    expect(await axeViolations()).toEqual([]);
  });
});
