import * as Dialog from '@radix-ui/react-dialog';
import type { Role } from '@rescuelog/sync-protocol/accounts/roles';
import { useState } from 'react';
import { SelectField } from '@/components/ui/field';
import { errorMessage } from '@/lib/api-client';
import { toast } from '@/lib/toast-store';
import { useDeleteRole } from '../api/admin-roles';

/** Deleting a role; one that users have asks where they move to (the server insists too). */
export function DeleteRoleDialog({
  role,
  roles,
  open,
  onOpenChange,
}: {
  role: Role;
  roles: Role[];
  open: boolean;
  onOpenChange: (open: boolean) => void;
}) {
  const users = role.userCount ?? 0;
  const targets = roles.filter((r) => r.id !== role.id);
  const [target, setTarget] = useState<string>(
    String(targets.find((r) => r.name === 'member')?.id ?? targets[0]?.id ?? ''),
  );
  const [error, setError] = useState<string | null>(null);
  const remove = useDeleteRole();
  return (
    <Dialog.Root open={open} onOpenChange={onOpenChange}>
      <Dialog.Portal>
        <Dialog.Overlay className="dialog-overlay" />
        <Dialog.Content className="dialog" role="alertdialog">
          <Dialog.Title className="dialog__title">Delete {role.displayName}?</Dialog.Title>
          <Dialog.Description className="dialog__description">
            {users === 0
              ? 'Nobody has this role. It will be removed.'
              : `${String(users)} ${users === 1 ? 'person has' : 'people have'} this role. Choose the role they move to.`}
          </Dialog.Description>
          {users > 0 ? (
            <SelectField
              label="Move them to"
              value={target}
              onChange={(e) => setTarget(e.currentTarget.value)}
            >
              {targets.map((r) => (
                <option key={r.id} value={r.id}>
                  {r.displayName}
                </option>
              ))}
            </SelectField>
          ) : null}
          {error ? (
            <p className="field__error" role="alert">
              {error}
            </p>
          ) : null}
          <div className="dialog__actions">
            <Dialog.Close className="button button--secondary">Cancel</Dialog.Close>
            <button
              type="button"
              className="button button--danger"
              disabled={remove.isPending}
              onClick={() =>
                remove.mutate(
                  { id: role.id, reassignTo: users > 0 ? Number(target) : undefined },
                  {
                    onSuccess: ({ reassigned }) => {
                      toast({
                        title: 'Role deleted',
                        description:
                          reassigned > 0
                            ? `${role.displayName}: ${String(reassigned)} moved`
                            : role.displayName,
                      });
                      onOpenChange(false);
                    },
                    onError: (e) => setError(errorMessage(e)),
                  },
                )
              }
            >
              {users > 0 ? 'Move and delete' : 'Delete'}
            </button>
          </div>
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}
