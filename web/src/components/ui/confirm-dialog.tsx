import * as Dialog from '@radix-ui/react-dialog';
import type { ReactNode } from 'react';

interface ConfirmDialogProps {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  title: string;
  description: ReactNode;
  confirmLabel: string;
  /** What the button that backs out says (default 'Cancel'). */
  cancelLabel?: string;
  destructive?: boolean;
  onConfirm: () => void;
}

/** Asks before a destructive or consequential action; Cancel has focus first. */
export function ConfirmDialog({
  open,
  onOpenChange,
  title,
  description,
  confirmLabel,
  cancelLabel = 'Cancel',
  destructive,
  onConfirm,
}: ConfirmDialogProps) {
  return (
    <Dialog.Root open={open} onOpenChange={onOpenChange}>
      <Dialog.Portal>
        <Dialog.Overlay className="dialog-overlay" />
        <Dialog.Content className="dialog" role="alertdialog">
          <Dialog.Title className="dialog__title">{title}</Dialog.Title>
          <Dialog.Description className="dialog__description">{description}</Dialog.Description>
          <div className="dialog__actions">
            <Dialog.Close className="button button--secondary">{cancelLabel}</Dialog.Close>
            <button
              type="button"
              className={`button ${destructive ? 'button--danger' : 'button--primary'}`}
              onClick={() => {
                onConfirm();
                onOpenChange(false);
              }}
            >
              {confirmLabel}
            </button>
          </div>
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}
