// The flags an item's row and page show: low stock, expired, expiring soon (words, not colour alone).
import type { ExpiryState } from '@rescuelog/sync-protocol/inventory/stock';
import { AlertTriangle, Clock } from 'lucide-react';
import styles from './inventory.module.css';

export function formatQuantity(n: number): string {
  return Number.isInteger(n) ? String(n) : n.toFixed(3).replace(/0+$/, '');
}

export function StockFlags({ low, expiry }: { low: boolean; expiry: ExpiryState }) {
  if (!low && expiry === 'ok') return null;
  return (
    <span className={styles.flags}>
      {low ? (
        <span className={`${styles.flag} ${styles.flagDanger}`}>
          <AlertTriangle aria-hidden="true" size={16} />
          Low stock
        </span>
      ) : null}
      {expiry === 'expired' ? (
        <span className={`${styles.flag} ${styles.flagDanger}`}>
          <Clock aria-hidden="true" size={16} />
          Expired stock
        </span>
      ) : expiry === 'expiring' ? (
        <span className={`${styles.flag} ${styles.flagWarning}`}>
          <Clock aria-hidden="true" size={16} />
          Expires soon
        </span>
      ) : null}
    </span>
  );
}
