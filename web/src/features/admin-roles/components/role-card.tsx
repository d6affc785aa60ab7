import type { Role } from '@rescuelog/sync-protocol/accounts/roles';
import { Pencil, Trash2 } from 'lucide-react';
import { summarisePermissions } from '@/components/permissions/permission-summary';
import styles from './role-card.module.css';

/** One role: its name, who has it, and what it allows (one line per group of modules). */
export function RoleCard({
  role,
  onEdit,
  onDelete,
}: {
  role: Role;
  onEdit: () => void;
  onDelete: () => void;
}) {
  const users = role.userCount ?? 0;
  const titleId = `role-${String(role.id)}`;
  return (
    <li className={`card ${styles.card}`}>
      <div className={styles.head}>
        <h2 id={titleId} className={styles.name}>
          {role.displayName}
        </h2>
        {role.isSystem ? <span className="badge badge--member">System role</span> : null}
        <span className="text-muted">
          {users} {users === 1 ? 'member' : 'members'}
        </span>
      </div>
      {role.description ? <p className={styles.description}>{role.description}</p> : null}
      <dl className={styles.allows} aria-label={`What ${role.displayName} allows`}>
        {summarisePermissions(role.name, role.permissions).map((line) => (
          <div key={line.group} style={{ display: 'contents' }}>
            <dt>{line.group}</dt>
            <dd>{line.text}</dd>
          </div>
        ))}
      </dl>
      <div className={styles.actions}>
        <button type="button" className="button button--secondary" onClick={onEdit}>
          <Pencil aria-hidden="true" size={20} /> Edit
          <span className="sr-only"> {role.displayName}</span>
        </button>
        {role.isSystem ? (
          <p className="text-muted">A system role cannot be renamed or deleted.</p>
        ) : (
          <button type="button" className="button button--danger" onClick={onDelete}>
            <Trash2 aria-hidden="true" size={20} /> Delete
            <span className="sr-only"> {role.displayName}</span>
          </button>
        )}
      </div>
    </li>
  );
}
