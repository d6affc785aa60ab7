import { parseCertificationUrls } from '@rescuelog/sync-protocol/accounts/uploads';
import type { User } from '@rescuelog/sync-protocol/accounts/users';
import { Check, FileText, KeyRound, UserX } from 'lucide-react';
import { useState } from 'react';
import { RoleBadge } from '@/components/permissions/role-badge';
import { ConfirmDialog } from '@/components/ui/confirm-dialog';
import { Spinner } from '@/components/ui/spinner';
import { errorMessage } from '@/lib/api-client';
import { formatDateTime } from '@rescuelog/sync-protocol/time';
import { useUserAction, useUserDocuments } from '../api/admin-users';
import { ApproveDialog } from './approve-dialog';
import { PermissionsEditor } from './permissions-editor';
import styles from './user-card.module.css';

const STATUS_LABEL: Record<User['status'], string> = {
  pending: 'Pending',
  approved: 'Approved',
  suspended: 'Suspended',
};

function formatBytes(bytes: number | null): string | null {
  if (bytes === null) return null;
  return bytes >= 1024 * 1024
    ? `${(bytes / (1024 * 1024)).toFixed(1)} MB`
    : `${Math.max(1, Math.round(bytes / 1024))} KB`;
}

function Documents({ user }: { user: User }) {
  const [open, setOpen] = useState(false);
  const recorded =
    (user.idDocumentUrl ? 1 : 0) + parseCertificationUrls(user.certificationsUrl).length;
  const docs = useUserDocuments(user.id, open);
  if (recorded === 0) return <p className="text-muted">No documents uploaded</p>;
  return (
    <div className={styles.docs}>
      <button
        type="button"
        className="button button--secondary"
        aria-expanded={open}
        onClick={() => setOpen((o) => !o)}
      >
        <FileText aria-hidden="true" size={20} />{' '}
        {open ? 'Hide documents' : `View documents (${recorded})`}
      </button>
      {open ? (
        docs.isPending ? (
          <Spinner label="Loading documents" />
        ) : docs.isError ? (
          <p className="text-danger">Documents could not be loaded ({errorMessage(docs.error)}).</p>
        ) : (
          <ul
            className={styles.docLinks}
            aria-label={`Documents of ${user.fullName || user.email}`}
          >
            {docs.data.map((d, i) => {
              const certNumber = docs.data
                .slice(0, i + 1)
                .filter((x) => x.kind === 'certification').length;
              const label = d.kind === 'idDocument' ? 'ID document' : `Certification ${certNumber}`;
              const meta = [
                formatBytes(d.sizeBytes),
                d.uploadedAt ? formatDateTime(d.uploadedAt) : null,
              ]
                .filter(Boolean)
                .join(', ');
              return (
                <li key={d.url}>
                  <a href={d.url} target="_blank" rel="noopener noreferrer" className="text-link">
                    {label}
                    <span className="sr-only"> (opens in a new tab)</span>
                  </a>
                  {meta ? <span className="text-muted"> {meta}</span> : null}
                </li>
              );
            })}
          </ul>
        )
      ) : null}
    </div>
  );
}

export function UserCard({ user, isSelf }: { user: User; isSelf: boolean }) {
  const action = useUserAction();
  const [confirm, setConfirm] = useState<'approve' | 'suspend' | null>(null);
  const [editing, setEditing] = useState(false);
  const name = user.fullName || user.email;
  const qualification =
    user.qualifications === 'Other' && user.qualificationsOther
      ? `Other: ${user.qualificationsOther}`
      : user.qualifications;
  return (
    <li className={`card ${styles.userCard}`}>
      <div className={styles.head}>
        <h2 className={styles.name}>{name}</h2>
        <span className={`pill pill--${user.status}`}>{STATUS_LABEL[user.status]}</span>
        <RoleBadge user={user} />
      </div>
      <dl className={styles.details}>
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
        <div className={styles.actions}>
          {user.status !== 'approved' ? (
            <button
              type="button"
              className="button button--primary"
              disabled={action.isPending}
              onClick={() => setConfirm('approve')}
            >
              <Check aria-hidden="true" size={20} /> Approve
            </button>
          ) : null}
          {user.status !== 'suspended' ? (
            <button
              type="button"
              className="button button--danger"
              disabled={action.isPending}
              onClick={() => setConfirm('suspend')}
            >
              <UserX aria-hidden="true" size={20} /> Suspend
            </button>
          ) : null}
          <button
            type="button"
            className="button button--secondary"
            onClick={() => setEditing(true)}
          >
            <KeyRound aria-hidden="true" size={20} /> Edit access
          </button>
        </div>
      )}
      <ConfirmDialog
        open={confirm === 'suspend'}
        onOpenChange={(open) => {
          if (!open) setConfirm(null);
        }}
        title={`Suspend ${name}?`}
        description="They will be signed out and cannot use RescueLog until approved again."
        confirmLabel="Suspend"
        destructive
        onConfirm={() => action.mutate({ kind: 'suspend', id: user.id })}
      />
      {confirm === 'approve' ? (
        <ApproveDialog
          user={user}
          open
          onOpenChange={(open) => {
            if (!open) setConfirm(null);
          }}
          onApprove={(roleId) => action.mutate({ kind: 'approve', id: user.id, roleId })}
        />
      ) : null}
      {editing ? <PermissionsEditor user={user} open={editing} onOpenChange={setEditing} /> : null}
    </li>
  );
}
