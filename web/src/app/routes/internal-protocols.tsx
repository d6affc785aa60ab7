// /internal-protocols: Internal SOPs (issue 42). Everyone approved reads them (ungated, spec
// §6); writing is for whoever holds systemAdmin (administrators by default), checked by the
// server on every push (sync-protocol reference/sop.ts).
import { ShieldAlert } from 'lucide-react';
import { Link, useParams } from 'react-router-dom';
import { Spinner } from '@/components/ui/spinner';
import { StatusPage } from '@/components/ui/status-page';
import { SopEditor } from '@/features/sops/components/sop-editor';
import { SopPage } from '@/features/sops/components/sop-page';
import { SopsPage } from '@/features/sops/components/sops-page';
import { canPublishSops, useSop } from '@/features/sops/sop-data';
import { useUser } from '@/lib/auth';

function NoPermission() {
  return (
    <StatusPage
      icon={<ShieldAlert size={40} />}
      title="Access Denied"
      tone="danger"
      actions={
        <Link to="/internal-protocols" className="button button--primary button--block">
          Back to Internal SOPs
        </Link>
      }
    >
      <p>Only administrators write SOPs. Contact your administrator.</p>
    </StatusPage>
  );
}

export function InternalProtocolsRoute() {
  return <SopsPage />;
}

export function InternalProtocolRoute() {
  const { sopId = '' } = useParams();
  return <SopPage sopId={sopId} />;
}

export function NewInternalProtocolRoute() {
  const { data: user } = useUser();
  return canPublishSops(user) ? <SopEditor /> : <NoPermission />;
}

export function EditInternalProtocolRoute() {
  const { sopId = '' } = useParams();
  const { data: user } = useUser();
  const sop = useSop(sopId);
  if (!canPublishSops(user)) return <NoPermission />;
  if (sop === undefined) return <Spinner label="Loading the SOP" />;
  if (sop === null) return <SopPage sopId={sopId} />;
  return <SopEditor sop={sop} />;
}
