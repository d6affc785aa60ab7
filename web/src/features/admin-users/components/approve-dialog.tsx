import * as Dialog from '@radix-ui/react-dialog';
import type { User } from '@rescuelog/sync-protocol/accounts/users';
import { useState } from 'react';
import { SelectField } from '@/components/ui/field';
import { useRoleOptions } from '../api/admin-users';

const DEFAULT = '';

/** Approving picks the member's role; left alone, the default role from System Settings. */
export function ApproveDialog({
  user,
  open,
  onOpenChange,
  onApprove,
}: {
  user: User;
  open: boolean;
  onOpenChange: (open: boolean) => void;
  onApprove: (roleId: number | undefined) => void;
}) {
  const roles = useRoleOptions();
  const [roleId, setRoleId] = useState(DEFAULT);
  const name = user.fullName || user.email;
  return (
    <Dialog.Root open={open} onOpenChange={onOpenChange}>
      <Dialog.Portal>
        <Dialog.Overlay className="dialog-overlay" />
        <Dialog.Content className="dialog" role="alertdialog">
          <Dialog.Title className="dialog__title">Approve {name}?</Dialog.Title>
          <Dialog.Description className="dialog__description">
            They will be able to sign in and use RescueLog with the permissions of their role.
          </Dialog.Description>
          <SelectField
            label="Role"
            value={roleId}
            onChange={(e) => setRoleId(e.currentTarget.value)}
          >
            <option value={DEFAULT}>Default role for new members</option>
            {(roles.data ?? []).map((r) => (
              <option key={r.id} value={r.id}>
                {r.displayName}
              </option>
            ))}
          </SelectField>
          <div className="dialog__actions">
            <Dialog.Close className="button button--secondary">Cancel</Dialog.Close>
            <button
              type="button"
              className="button button--primary"
              onClick={() => {
                onApprove(roleId === DEFAULT ? undefined : Number(roleId));
                onOpenChange(false);
              }}
            >
              Approve
            </button>
          </div>
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}
