import { PageHeader } from '@/components/ui/page-header';
import type { ReactNode } from 'react';
import { PageSpinner } from '@/components/ui/spinner';
import { useUser } from '@/lib/auth';
import { EmailForm, PasswordForm } from './account-security';
import { DetailsForm } from './details-form';
import { DocumentsSection } from './documents-section';
import { SessionsSection } from './sessions-section';
import { ThisDevice } from './this-device';

/**
 * /profile: the signed-in user's own account, their devices, and this device.
 * `deviceNotifications` is the route's "Notifications on this device" section.
 */
export function ProfilePage({
  deviceNotifications,
}: {
  deviceNotifications?: (userId: number) => ReactNode;
}) {
  const { data: user } = useUser();
  if (!user) return <PageSpinner label="Loading your account" />;
  return (
    <>
      <PageHeader title="Profile" />
      <main className="page">
        <section className="card">
          <DetailsForm user={user} />
        </section>
        <section className="card">
          <EmailForm user={user} />
        </section>
        <section className="card">
          <PasswordForm />
        </section>
        <DocumentsSection user={user} />
        <SessionsSection />
        <ThisDevice />
        {deviceNotifications?.(user.id)}
      </main>
    </>
  );
}
