// − and +: one unit out (first expiry, first out) or in, one tap each, saved on the device at
// once (the sync engine pushes it later). Each button names the item it books.
import { Minus, Plus } from 'lucide-react';
import { useState } from 'react';
import { bookOne } from '../data/inventory-writes';
import type { InventoryItem, ItemStock } from '../data/use-inventory';
import { formatQuantity } from './stock-flags';
import styles from './inventory.module.css';

export function OneTap({ item, stock }: { item: InventoryItem; stock: ItemStock }) {
  const [error, setError] = useState<string | null>(null);
  const name = item.description ?? 'item';
  const book = (direction: 1 | -1) => {
    setError(null);
    bookOne(item.id, direction, stock.batches, stock.movements).catch((e: unknown) =>
      setError(e instanceof Error ? e.message : String(e)),
    );
  };
  return (
    <>
      <button
        type="button"
        className={`button button--secondary ${styles.tap}`}
        aria-label={`Book one ${name} out`}
        onClick={() => book(-1)}
      >
        <Minus aria-hidden="true" size={28} />
      </button>
      <span className={styles.tapCount} aria-hidden="true">
        {formatQuantity(stock.stock)}
      </span>
      <button
        type="button"
        className={`button button--secondary ${styles.tap}`}
        aria-label={`Book one ${name} in`}
        onClick={() => book(1)}
      >
        <Plus aria-hidden="true" size={28} />
      </button>
      {error ? (
        <p className={styles.tapError} role="alert">
          {error}
        </p>
      ) : null}
    </>
  );
}
