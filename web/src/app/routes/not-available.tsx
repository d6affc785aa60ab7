import { Construction } from 'lucide-react';
import { Link } from 'react-router-dom';
import { StatusPage } from '@/components/ui/status-page';

/** A screen that exists in the product but is built in a later release. */
export function NotAvailableRoute({ screen }: { screen: string }) {
  return (
    <StatusPage
      icon={<Construction size={40} />}
      title={`${screen}: not available yet`}
      actions={
        <Link to="/" className="button button--primary button--block">
          Back to Home
        </Link>
      }
    >
      <p>
        The {screen} screen is not available in this version of RescueLog yet. Nothing is recorded
        here.
      </p>
    </StatusPage>
  );
}
