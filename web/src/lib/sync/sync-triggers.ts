// When the page drains: app start (the session does that), coming back online, the tab
// becoming visible, every 30 s, and when the service worker asks (Background Sync or worker
// start). The engine itself retries with backoff after failures and skips the timer while
// backing off.
import type { SyncEngine } from '@rescuelog/sync-protocol/client/sync-engine';
import { swToClientMessageSchema } from '@rescuelog/sync-protocol/sw-messages';

export const SYNC_INTERVAL_MS = 30_000;

export function wireSyncTriggers(
  engine: SyncEngine,
  { intervalMs = SYNC_INTERVAL_MS }: { intervalMs?: number } = {},
): () => void {
  const onOnline = () => void engine.sync('online');
  const onVisibility = () => {
    if (document.visibilityState === 'visible') void engine.sync('visible');
  };
  const onWorkerMessage = (event: MessageEvent) => {
    const parsed = swToClientMessageSchema.safeParse(event.data);
    if (parsed.success && parsed.data.type === 'OUTBOX_DRAIN_REQUESTED')
      void engine.sync(parsed.data.reason);
  };
  window.addEventListener('online', onOnline);
  document.addEventListener('visibilitychange', onVisibility);
  const worker = 'serviceWorker' in navigator ? navigator.serviceWorker : null;
  worker?.addEventListener('message', onWorkerMessage);
  const timer = window.setInterval(() => void engine.sync('timer'), intervalMs);
  return () => {
    window.removeEventListener('online', onOnline);
    document.removeEventListener('visibilitychange', onVisibility);
    worker?.removeEventListener('message', onWorkerMessage);
    window.clearInterval(timer);
  };
}
