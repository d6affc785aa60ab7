// The "Update ready" prompt: shown when a new version of the app has been installed in the
// background. Nothing reloads until the user presses Update; Later hides it until the next
// load. Mount once in the app shell; it also registers the service worker.
import { useEffect, useSyncExternalStore, type CSSProperties } from 'react';
import {
  applyPwaUpdate,
  getPwaUpdateState,
  postponePwaUpdate,
  registerServiceWorker,
  subscribePwaUpdate,
} from './pwa-register';

const regionStyle: CSSProperties = {
  position: 'fixed',
  insetInline: 0,
  bottom: 0,
  display: 'flex',
  justifyContent: 'center',
  padding: '0 12px 12px',
  pointerEvents: 'none',
  zIndex: 1000,
};

const cardStyle: CSSProperties = {
  pointerEvents: 'auto',
  width: '100%',
  maxWidth: 420,
  boxSizing: 'border-box',
  background: '#ffffff',
  color: '#111827',
  border: '1px solid #d1d5db',
  borderRadius: 12,
  boxShadow: '0 8px 24px rgba(0, 0, 0, 0.18)',
  padding: 16,
  fontSize: 16,
  lineHeight: 1.4,
};

const buttonBase: CSSProperties = {
  minHeight: 48,
  minWidth: 96,
  padding: '0 20px',
  borderRadius: 8,
  fontSize: 16,
  fontWeight: 600,
  cursor: 'pointer',
};

export function PwaUpdatePrompt() {
  const { updateReady } = useSyncExternalStore(
    subscribePwaUpdate,
    getPwaUpdateState,
    getPwaUpdateState,
  );

  useEffect(() => {
    void registerServiceWorker();
  }, []);

  // The live region stays mounted so screen readers announce the prompt when it appears.
  return (
    <div role="status" aria-live="polite" style={regionStyle}>
      {updateReady ? (
        <section aria-labelledby="pwa-update-title" style={cardStyle}>
          <p id="pwa-update-title" style={{ margin: 0, fontWeight: 700, fontSize: 18 }}>
            Update ready
          </p>
          <p style={{ margin: '4px 0 12px' }}>
            A new version of RescueLog is ready. Updating reloads the app; save any open form first.
          </p>
          <div style={{ display: 'flex', gap: 12, flexWrap: 'wrap' }}>
            <button
              type="button"
              onClick={applyPwaUpdate}
              style={{
                ...buttonBase,
                background: '#b91c1c',
                color: '#ffffff',
                border: '1px solid #b91c1c',
              }}
            >
              Update
            </button>
            <button
              type="button"
              onClick={postponePwaUpdate}
              style={{
                ...buttonBase,
                background: '#ffffff',
                color: '#111827',
                border: '1px solid #6b7280',
              }}
            >
              Later
            </button>
          </div>
        </section>
      ) : null}
    </div>
  );
}
