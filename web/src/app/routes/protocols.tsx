// /protocols and /protocols/{category}: First Aid Protocols (issue 42). The firstAidProtocols
// module has only view (spec §6); members without an entry may view.
import { hasPermission } from '@rescuelog/sync-protocol/permissions';
import { ShieldAlert } from 'lucide-react';
import { Link, useParams } from 'react-router-dom';
import { StatusPage } from '@/components/ui/status-page';
import { ProtocolPage } from '@/features/protocols/components/protocol-page';
import { ProtocolsPage } from '@/features/protocols/components/protocols-page';
import { useUser } from '@/lib/auth';

export function ProtocolsRoute() {
  const { category } = useParams();
  const { data: user } = useUser();
  if (user && !hasPermission(user, 'firstAidProtocols', 'view')) {
    return (
      <StatusPage
        icon={<ShieldAlert size={40} />}
        title="Access Denied"
        tone="danger"
        actions={
          <Link to="/" className="button button--primary button--block">
            Back to Home
          </Link>
        }
      >
        <p>You do not have permission to view First Aid Protocols. Contact your administrator.</p>
      </StatusPage>
    );
  }
  return category ? <ProtocolPage category={category} /> : <ProtocolsPage />;
}
