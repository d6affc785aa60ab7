import { CloudOff } from 'lucide-react';
import { useHasPendingChanges } from '@/lib/sync/use-sync';
import styles from './not-synced-mark.module.css';

/** Shown next to a record while it has changes the server has not acknowledged. */
export function NotSyncedMark({ recordId }: { recordId: string }) {
  const pending = useHasPendingChanges(recordId);
  if (!pending) return null;
  return (
    <span className={styles.mark}>
      <CloudOff aria-hidden="true" size={16} />
      Not yet synced
    </span>
  );
}
