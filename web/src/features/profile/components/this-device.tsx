import { formatDateTime } from '@rescuelog/sync-protocol/time';
import { useEffect, useState } from 'react';
import { useLastSuccessfulSync, usePendingCount } from '@/lib/sync/use-sync';

function formatMiB(bytes: number): string {
  return `${(bytes / 1_048_576).toFixed(1)} MB`;
}

function useStorageEstimate(): { usage: number; quota: number } | null {
  const [estimate, setEstimate] = useState<{ usage: number; quota: number } | null>(null);
  useEffect(() => {
    let alive = true;
    if (typeof navigator === 'undefined' || !navigator.storage?.estimate) return;
    void navigator.storage.estimate().then((e) => {
      if (alive) setEstimate({ usage: e.usage ?? 0, quota: e.quota ?? 0 });
    });
    return () => {
      alive = false;
    };
  }, []);
  return estimate;
}

/** What this device holds: storage and changes not yet on the server (its notifications
 * have their own section). */
export function ThisDevice() {
  const storage = useStorageEstimate();
  const pending = usePendingCount();
  const lastSync = useLastSuccessfulSync();
  return (
    <section className="card settings-section" aria-labelledby="device-title">
      <h2 id="device-title" className="card__title">
        This device
      </h2>
      <dl className="user-card__details">
        <div>
          <dt>Storage used</dt>
          <dd>
            {storage
              ? `${formatMiB(storage.usage)} of ${formatMiB(storage.quota)}`
              : 'Not reported by this browser'}
          </dd>
        </div>
        <div>
          <dt>Changes not yet synced</dt>
          <dd>{pending === undefined ? '…' : pending}</dd>
        </div>
        <div>
          <dt>Last synced</dt>
          <dd>{lastSync ? formatDateTime(lastSync) : 'Not yet'}</dd>
        </div>
      </dl>
    </section>
  );
}
