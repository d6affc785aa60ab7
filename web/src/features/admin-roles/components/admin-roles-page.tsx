import type { Role } from '@rescuelog/sync-protocol/accounts/roles';
import { ArrowLeft, Pencil, Plus, Trash2 } from 'lucide-react';
import { useState } from 'react';
import { Link } from 'react-router-dom';
import { Spinner } from '@/components/ui/spinner';
import { errorMessage } from '@/lib/api-client';
import { useRoles } from '../api/admin-roles';
import { DeleteRoleDialog } from './delete-role-dialog';
import { RoleFormDialog } from './role-form-dialog';

type Editing = { kind: 'new' } | { kind: 'edit'; role: Role } | { kind: 'delete'; role: Role };

function RoleCard({
  role,
  onEdit,
  onDelete,
}: {
  role: Role;
  onEdit: () => void;
  onDelete: () => void;
}) {
  const users = role.userCount ?? 0;
  return (
    <li className="card user-card">
      <div className="user-card__head">
        <h2 className="user-card__name">{role.displayName}</h2>
        {role.isSystem ? <span className="badge badge--member">System role</span> : null}
      </div>
      <dl className="user-card__details">
        <div>
          <dt>Name</dt>
          <dd>{role.name}</dd>
        </div>
        <div>
          <dt>Members</dt>
          <dd>{users}</dd>
        </div>
        {role.description ? (
          <div>
            <dt>Description</dt>
            <dd>{role.description}</dd>
          </div>
        ) : null}
      </dl>
      <div className="user-card__actions">
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

export function AdminRolesPage() {
  const roles = useRoles();
  const [editing, setEditing] = useState<Editing | null>(null);
  const close = (open: boolean) => {
    if (!open) setEditing(null);
  };
  return (
    <>
      <header className="app-header">
        <div className="app-header__bar">
          <Link
            to="/admin/users"
            className="icon-button icon-button--on-dark"
            aria-label="Back to User Management"
          >
            <ArrowLeft aria-hidden="true" size={24} />
          </Link>
          <h1 className="app-header__title">Role Management</h1>
        </div>
      </header>
      <main className="page">
        <p className="text-muted">
          A member&apos;s permissions are their role&apos;s, except modules set on the member
          themselves. Changes apply at each member&apos;s next request.
        </p>
        <button
          type="button"
          className="button button--primary"
          onClick={() => setEditing({ kind: 'new' })}
        >
          <Plus aria-hidden="true" size={20} /> New role
        </button>
        <section aria-label="Roles" aria-busy={roles.isFetching}>
          {roles.isPending ? (
            <Spinner label="Loading roles" />
          ) : roles.isError ? (
            <p className="text-danger">Roles could not be loaded ({errorMessage(roles.error)}).</p>
          ) : (
            <ul className="user-list">
              {roles.data.map((role) => (
                <RoleCard
                  key={role.id}
                  role={role}
                  onEdit={() => setEditing({ kind: 'edit', role })}
                  onDelete={() => setEditing({ kind: 'delete', role })}
                />
              ))}
            </ul>
          )}
        </section>
      </main>
      {editing?.kind === 'new' ? <RoleFormDialog open onOpenChange={close} /> : null}
      {editing?.kind === 'edit' ? (
        <RoleFormDialog key={editing.role.id} role={editing.role} open onOpenChange={close} />
      ) : null}
      {editing?.kind === 'delete' && roles.data ? (
        <DeleteRoleDialog role={editing.role} roles={roles.data} open onOpenChange={close} />
      ) : null}
    </>
  );
}
