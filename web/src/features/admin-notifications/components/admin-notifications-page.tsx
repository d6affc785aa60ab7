// /admin/notifications (issue 16): compose, preview and send or schedule a notification, and
// follow what was sent. Administration is online-only: without a connection the page says so
// instead of showing a form that cannot send.
import { WifiOff } from 'lucide-react';
import { PageHeader } from '@/components/ui/page-header';
import { useOnline } from '@/hooks/use-online';
import { ComposeForm } from './compose-form';
import { SentList } from './sent-list';
import styles from './admin-notifications.module.css';

function Offline() {
  return (
    <section className={`card ${styles.offline}`} aria-labelledby="offline-title">
      <WifiOff aria-hidden="true" size={32} />
      <h2 id="offline-title" className="card__title">
        You are offline
      </h2>
      <p>
        Sending notifications and their delivery figures need a connection. Nothing has been sent
        from this screen. It comes back by itself when this device is online again.
      </p>
    </section>
  );
}

export function AdminNotificationsPage() {
  const online = useOnline();
  return (
    <>
      <PageHeader title="Notifications" />
      <main className="page">
        {online ? (
          <>
            <ComposeForm />
            <SentList />
          </>
        ) : (
          <Offline />
        )}
      </main>
    </>
  );
}
