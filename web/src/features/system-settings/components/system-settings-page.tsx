import { PageHeader } from '@/components/ui/page-header';
import { Spinner } from '@/components/ui/spinner';
import { errorMessage } from '@/lib/api-client';
import { formatDateTime } from '@rescuelog/sync-protocol/time';
import { useRoleChoices, useSystemSettings } from '../api/system-settings';
import { SettingsForm } from './settings-form';

export function SystemSettingsPage() {
  const settings = useSystemSettings();
  const roles = useRoleChoices();
  return (
    <>
      <PageHeader title="System Settings" />
      <main className="page">
        {settings.isPending || roles.isPending ? (
          <Spinner label="Loading settings" />
        ) : settings.isError ? (
          <p className="text-danger">
            Settings could not be loaded ({errorMessage(settings.error)}).
          </p>
        ) : (
          <>
            <p className="text-muted">
              {settings.data.updatedAt
                ? `Last changed ${formatDateTime(settings.data.updatedAt)}. `
                : 'Nothing has been changed yet: these are the defaults. '}
              Every server uses a change within a minute; devices at their next start or within 5
              minutes.
            </p>
            <SettingsForm settings={settings.data.settings} roles={roles.data ?? []} />
          </>
        )}
      </main>
    </>
  );
}
