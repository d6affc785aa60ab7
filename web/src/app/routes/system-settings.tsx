import { SystemSettingsPage } from '@/features/system-settings/components/system-settings-page';

export function SystemSettingsRoute() {
  return <SystemSettingsPage />;
}
