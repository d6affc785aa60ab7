import * as Dialog from '@radix-ui/react-dialog';
import { Download, Share, SquarePlus, X } from 'lucide-react';
import { useState } from 'react';
import { useInstallPrompt } from '@/hooks/use-install-prompt';
import { promptInstall } from '@/lib/install-prompt';
import styles from './install-app-button.module.css';

/**
 * Install App (spec §2, §4): uses the browser's install prompt when there is one; otherwise
 * (iOS Safari, Firefox) explains Share → Add to Home Screen in a dialog. Hidden once
 * installed or running standalone.
 */
export function InstallAppButton() {
  const { canPrompt, showInstall } = useInstallPrompt();
  const [helpOpen, setHelpOpen] = useState(false);
  if (!showInstall) return null;
  return (
    <Dialog.Root open={helpOpen} onOpenChange={setHelpOpen}>
      <button
        type="button"
        className="button button--secondary button--block"
        onClick={() => {
          if (canPrompt) void promptInstall();
          else setHelpOpen(true);
        }}
      >
        <Download aria-hidden="true" size={20} /> Install App
      </button>
      <Dialog.Portal>
        <Dialog.Overlay className="dialog-overlay" />
        <Dialog.Content className="dialog">
          <div className="dialog__header">
            <Dialog.Title className="dialog__title">Install RescueLog</Dialog.Title>
            <Dialog.Close className="icon-button" aria-label="Close">
              <X aria-hidden="true" size={22} />
            </Dialog.Close>
          </div>
          <Dialog.Description className="dialog__description">
            To install this app on your device:
          </Dialog.Description>
          <ol className={styles.steps}>
            <li>
              <Share aria-hidden="true" size={20} /> Tap the <strong>Share</strong> button in your
              browser.
            </li>
            <li>
              <SquarePlus aria-hidden="true" size={20} /> Choose <strong>Add to Home Screen</strong>
              .
            </li>
          </ol>
          <Dialog.Close className="button button--primary button--block">Got it</Dialog.Close>
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}
