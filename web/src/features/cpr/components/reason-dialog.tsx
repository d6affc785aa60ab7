// A dialog that asks for one line of text before an action (a void's reason, a termination's
// reason, a note): the action stays disabled until something is typed.
import * as Dialog from '@radix-ui/react-dialog';
import { useId, useState, type ReactNode } from 'react';

export function ReasonDialog({
  open,
  onOpenChange,
  title,
  description,
  label,
  confirmLabel,
  destructive,
  onConfirm,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  title: string;
  description: ReactNode;
  label: string;
  confirmLabel: string;
  destructive?: boolean;
  onConfirm: (text: string) => void;
}) {
  const [text, setText] = useState('');
  const id = useId();
  const ready = text.trim().length > 0;
  return (
    <Dialog.Root
      open={open}
      onOpenChange={(next) => {
        if (!next) setText('');
        onOpenChange(next);
      }}
    >
      <Dialog.Portal>
        <Dialog.Overlay className="dialog-overlay" />
        <Dialog.Content className="dialog">
          <Dialog.Title className="dialog__title">{title}</Dialog.Title>
          <Dialog.Description className="dialog__description">{description}</Dialog.Description>
          <form
            className="form"
            onSubmit={(e) => {
              e.preventDefault();
              if (!ready) return;
              onConfirm(text.trim());
              setText('');
              onOpenChange(false);
            }}
          >
            <div className="field">
              <label className="field__label" htmlFor={id}>
                {label}
              </label>
              <input
                id={id}
                className="input"
                value={text}
                maxLength={2000}
                autoComplete="off"
                onChange={(e) => setText(e.target.value)}
              />
            </div>
            <div className="dialog__actions">
              <Dialog.Close type="button" className="button button--secondary">
                Cancel
              </Dialog.Close>
              <button
                type="submit"
                className={`button ${destructive ? 'button--danger' : 'button--primary'}`}
                disabled={!ready}
              >
                {confirmLabel}
              </button>
            </div>
          </form>
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}
