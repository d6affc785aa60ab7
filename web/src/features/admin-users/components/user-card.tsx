import { parseCertificationUrls } from '@rescuelog/sync-protocol/uploads';
import type { User } from '@rescuelog/sync-protocol/users';
import { Check, FileText, KeyRound, UserX } from 'lucide-react';
import { useState } from 'react';
import { ConfirmDialog } from '@/components/ui/confirm-dialog';
import { formatDateTime } from '@/lib/format';
import { useUserAction } from '../api/admin-users';
import { PermissionsEditor } from './permissions-editor';

const STATUS_LABEL: Record<User['status'], string> = { pending: 'Pending', approved: 'Approved', suspended: 'Suspended' };

function Documents({ user }: { user: User }) {
  const certs = parseCertificationUrls(user.certificationsUrl);
  if (!user.idDocumentUrl && certs.length === 0) return <p className="text-muted">No documents uploaded</p>;
  return (
    <ul className="doc-links" aria-label={`Documents of ${user.fullName}`}>
      {user.idDocumentUrl ? (
        <li>
          <a href={user.idDocumentUrl} target="_blank" rel="noopener noreferrer" className="text-link">
            <FileText aria-hidden="true" size={18} /> ID document
          </a>
        </li>
      ) : null}
      {certs.map((url, i) => (
        <li key={url}>
          <a href={url} target="_blank" rel="noopener noreferrer" className="text-link">
            <FileText aria-hidden="true" size={18} /> Certification {i + 1}
          </a>
        </li>
      ))}
    </ul>
  );
}

export function UserCard({ user, isSelf }: { user: User; isSelf: boolean }) {
  const action = useUserAction();
  const [confirm, setConfirm] = useState<'approve' | 'suspend' | null>(null);
  const [editing, setEditing] = useState(false);
  const name = user.fullName || user.email;
  const qualification = user.qualifications === 'Other' && user.qualificationsOther ? `Other: ${user.qualificationsOther}` : user.qualifications;
  return (
    <li className="card user-card">
      <div className="user-card__head">
        <h2 className="user-card__name">{name}</h2>
        <span className={`pill pill--${user.status}`}>{STATUS_LABEL[user.status]}</span>
        <span className={`badge ${user.role === 'administrator' ? 'badge--admin' : 'badge--member'}`}>{user.role === 'administrator' ? 'Administrator' : 'Member'}</span>
      </div>
      <dl className="user-card__details">
        <div>
          <dt>Email</dt>
          <dd>{user.email}</dd>
        </div>
        {user.callSign ? (
          <div>
            <dt>Call sign</dt>
            <dd>{user.callSign}</dd>
          </div>
        ) : null}
        {qualification ? (
          <div>
            <dt>Qualifications</dt>
            <dd>{qualification}</dd>
          </div>
        ) : null}
        {user.contactNumber ? (
          <div>
            <dt>Contact</dt>
            <dd>{user.contactNumber}</dd>
          </div>
        ) : null}
        <div>
          <dt>Registered</dt>
          <dd>{formatDateTime(user.createdAt)}</dd>
        </div>
      </dl>
      <Documents user={user} />
      {isSelf ? (
        <p className="text-muted">This is your own account.</p>
      ) : (
        <div className="user-card__actions">
          {user.status !== 'approved' ? (
            <button type="button" className="button button--primary" disabled={action.isPending} onClick={() => setConfirm('approve')}>
              <Check aria-hidden="true" size={20} /> Approve
            </button>
          ) : null}
          {user.status !== 'suspended' ? (
            <button type="button" className="button button--danger" disabled={action.isPending} onClick={() => setConfirm('suspend')}>
              <UserX aria-hidden="true" size={20} /> Suspend
            </button>
          ) : null}
          <button type="button" className="button button--secondary" onClick={() => setEditing(true)}>
            <KeyRound aria-hidden="true" size={20} /> Edit access
          </button>
        </div>
      )}
      <ConfirmDialog
        open={confirm !== null}
        onOpenChange={(open) => {
          if (!open) setConfirm(null);
        }}
        title={confirm === 'suspend' ? `Suspend ${name}?` : `Approve ${name}?`}
        description={
          confirm === 'suspend'
            ? 'They will be signed out and cannot use RescueLog until approved again.'
            : 'They will be able to sign in and use RescueLog with their permissions.'
        }
        confirmLabel={confirm === 'suspend' ? 'Suspend' : 'Approve'}
        destructive={confirm === 'suspend'}
        onConfirm={() => {
          if (confirm) action.mutate({ kind: confirm, id: user.id });
        }}
      />
      {editing ? <PermissionsEditor user={user} open={editing} onOpenChange={setEditing} /> : null}
    </li>
  );
}
