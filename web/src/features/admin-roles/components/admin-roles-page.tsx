import type { Role } from '@rescuelog/sync-protocol/accounts/roles';
import { Plus } from 'lucide-react';
import { useState } from 'react';
import { PageHeader } from '@/components/ui/page-header';
import { Spinner } from '@/components/ui/spinner';
import { errorMessage } from '@/lib/api-client';
import { useRoles } from '../api/admin-roles';
import { DeleteRoleDialog } from './delete-role-dialog';
import { RoleCard } from './role-card';
import cardStyles from './role-card.module.css';
import { RoleFormDialog } from './role-form-dialog';

type Editing = { kind: 'new' } | { kind: 'edit'; role: Role } | { kind: 'delete'; role: Role };

export function AdminRolesPage() {
  const roles = useRoles();
  const [editing, setEditing] = useState<Editing | null>(null);
  const close = (open: boolean) => {
    if (!open) setEditing(null);
  };
  return (
    <>
      <PageHeader
        title="Role Management"
        back={{ to: '/admin/users', label: 'Back to User Management' }}
      />
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
            <ul className={cardStyles.list}>
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
