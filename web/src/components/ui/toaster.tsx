import * as ToastPrimitive from '@radix-ui/react-toast';
import { X } from 'lucide-react';
import { useToastStore } from '@/lib/toast-store';
import styles from './toaster.module.css';
import { cx } from '@/lib/cx';

export const TOAST_DURATION_MS = 5000;

/** Renders the toast store with Radix (spec §9: 5000 ms, swipe right 50 px, F8). */
export function Toaster() {
  const toasts = useToastStore((s) => s.toasts);
  const dismiss = useToastStore((s) => s.dismiss);
  return (
    <ToastPrimitive.Provider
      duration={TOAST_DURATION_MS}
      swipeDirection="right"
      swipeThreshold={50}
      label="Message"
    >
      {toasts.map((t) => (
        <ToastPrimitive.Root
          key={t.id}
          open={t.open}
          onOpenChange={(open) => {
            if (!open) dismiss(t.id);
          }}
          className={cx(styles.toast, styles[t.variant])}
          type={t.variant === 'destructive' ? 'foreground' : 'background'}
        >
          <div className={styles.text}>
            <ToastPrimitive.Title className={styles.title}>{t.title}</ToastPrimitive.Title>
            {t.description ? (
              <ToastPrimitive.Description>{t.description}</ToastPrimitive.Description>
            ) : null}
          </div>
          <ToastPrimitive.Close
            className={`icon-button ${styles.close}`}
            aria-label="Close message"
          >
            <X aria-hidden="true" size={20} />
          </ToastPrimitive.Close>
        </ToastPrimitive.Root>
      ))}
      <ToastPrimitive.Viewport
        className={styles.viewport}
        hotkey={['F8']}
        label="Messages ({hotkey})"
      />
    </ToastPrimitive.Provider>
  );
}
