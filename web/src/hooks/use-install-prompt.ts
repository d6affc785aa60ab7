import { isStandalone, useInstallStore } from '@/lib/install-prompt';

/** Whether to offer Install App (spec §4: hidden once installed or running standalone). */
export function useInstallPrompt() {
  const deferredPrompt = useInstallStore((s) => s.deferredPrompt);
  const installed = useInstallStore((s) => s.installed);
  return { canPrompt: deferredPrompt !== null, showInstall: !installed && !isStandalone() };
}
