import * as Dialog from '@radix-ui/react-dialog';
import type { LocalDataChoice } from './use-guarded-logout';

export function pendingChangesMessage(count: number): string {
  return `You have ${String(count)} ${count === 1 ? 'change' : 'changes'} not yet synced`;
}

/** Asked at logout while the outbox still holds changes; staying signed in has focus first. */
export function UnsyncedLogoutDialog({
  count,
  onCancel,
  onChoose,
}: {
  count: number;
  onCancel: () => void;
  onChoose: (choice: LocalDataChoice) => void;
}) {
  return (
    <Dialog.Root open onOpenChange={(open) => !open && onCancel()}>
      <Dialog.Portal>
        <Dialog.Overlay className="dialog-overlay" />
        <Dialog.Content className="dialog" role="alertdialog">
          <Dialog.Title className="dialog__title">{pendingChangesMessage(count)}</Dialog.Title>
          <Dialog.Description className="dialog__description">
            They have not reached the server yet. If you log out and keep them, they stay on this
            device and sync the next time you sign in here. Deleting them cannot be undone.
          </Dialog.Description>
          <div className="dialog__actions">
            <Dialog.Close className="button button--primary">Stay signed in</Dialog.Close>
            <button
              type="button"
              className="button button--secondary"
              onClick={() => onChoose('keep')}
            >
              Log out and keep them
            </button>
            <button
              type="button"
              className="button button--danger"
              onClick={() => onChoose('delete')}
            >
              Delete them and log out
            </button>
          </div>
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}
