// /medical-inventory: every item, low stock first, then expired or expiring soon, then the
// rest; search and filters by category and where it is kept (the list kit, kept in the URL);
// on each row the stock and large − / + buttons that book one unit out or in with one tap.
// Offline and "not yet synced" are the kit's (decision 058). Stock is derived (decision 060).
import { inventoryItemRecord } from '@rescuelog/sync-protocol/inventory/inventory-item';
import {
  INVENTORY_CATEGORIES,
  INVENTORY_LOCATIONS,
  INVENTORY_LOCATION_LABELS,
} from '@rescuelog/sync-protocol/inventory/values';
import { CsvTools } from './csv-tools';
import { RestockButton } from './restock-button';
import { whereKept } from './where-kept';
import { Plus } from 'lucide-react';
import { useCallback } from 'react';
import { Link } from 'react-router-dom';
import { KindList } from '@/components/record-list/kind-list';
import { PageHeader } from '@/components/ui/page-header';
import { Spinner } from '@/components/ui/spinner';
import { useUser } from '@/lib/auth';
import { useSyncSession } from '@/lib/sync/use-sync';
import { useInventoryStock, type InventoryItem, type ItemStock } from '../data/use-inventory';
import { inventoryRights } from '../inventory-access';
import { OneTap } from './one-tap';
import { StockFlags, formatQuantity } from './stock-flags';
import styles from './inventory.module.css';

const NOUN = { one: 'item', many: 'items' };
const FILTERS = [
  {
    field: 'category' as const,
    label: 'Category',
    options: INVENTORY_CATEGORIES.map((c) => ({ value: c, label: c })),
  },
  {
    field: 'location' as const,
    label: 'Kept at',
    options: INVENTORY_LOCATIONS.map((l) => ({ value: l, label: INVENTORY_LOCATION_LABELS[l] })),
  },
];
const SEARCH = ['description', 'category', 'locationName', 'notes'] as const;

export function InventoryPage() {
  const { data: user } = useUser();
  const rights = inventoryRights(user);
  const stock = useInventoryStock();
  const session = useSyncSession();
  const compare = useCallback(
    (a: InventoryItem, b: InventoryItem) => (stock ? stock.of(a).rank - stock.of(b).rank : 0),
    [stock],
  );

  return (
    <>
      <PageHeader
        title="Medical Inventory"
        actions={
          rights.create ? (
            <Link to="/medical-inventory/new" className="button button--secondary">
              <Plus aria-hidden="true" size={20} />
              New item
            </Link>
          ) : null
        }
      />
      <main className={`page ${styles.page}`}>
        {stock ? (
          <div className={styles.tools}>
            <RestockButton stock={stock} />
            <CsvTools stock={stock} canImport={rights.create} />
          </div>
        ) : null}
        {stock === undefined && session ? (
          <Spinner label="Loading the stock" />
        ) : (
          <KindList
            kind={inventoryItemRecord}
            noun={NOUN}
            searchFields={SEARCH}
            filters={FILTERS}
            sortBy="description"
            direction="asc"
            compare={compare}
            hrefOf={(item) => `/medical-inventory/${item.id}`}
            renderRow={(item) => <ItemRow item={item} stock={stock?.of(item)} />}
            renderActions={(item) =>
              stock && rights.change(item) ? <OneTap item={item} stock={stock.of(item)} /> : null
            }
            emptyHint={
              rights.create
                ? 'Add the first item with New item.'
                : 'Items appear here when someone who manages stock adds them.'
            }
          />
        )}
      </main>
    </>
  );
}

function ItemRow({ item, stock }: { item: InventoryItem; stock: ItemStock | undefined }) {
  return (
    <>
      <span className={styles.rowTitle}>{item.description}</span>
      <span className={styles.rowMeta}>
        {whereKept(item)}
        {item.category ? ` · ${item.category}` : ''}
      </span>
      {stock ? (
        <span className={styles.rowStock}>
          <strong>
            {formatQuantity(stock.stock)} {item.unit ?? 'pieces'}
          </strong>{' '}
          on hand · minimum {formatQuantity(item.minimumQty ?? 1)}
        </span>
      ) : null}
      {stock ? <StockFlags low={stock.low} expiry={stock.expiry} /> : null}
    </>
  );
}
