import * as Dialog from '@radix-ui/react-dialog';
import type { User } from '@rescuelog/sync-protocol/accounts/users';
import { useState } from 'react';
import { permissionSentence } from '@/components/permissions/permission-summary';
import { SelectField } from '@/components/ui/field';
import { useRoleOptions } from '../api/admin-users';

/**
 * Approving gives the member a role: the one an approval gives by default (System Settings,
 * else Responder, decision 059) is chosen to begin with and named, and the line under the
 * choice says what the chosen role allows, so an administrator who changes nothing knows what
 * the volunteer will be able to do.
 */
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
  const [picked, setPicked] = useState<number | null>(null);
  const name = user.fullName || user.email;
  const list = roles.data?.roles ?? [];
  const defaultId = roles.data?.approvalRoleId ?? null;
  const roleId = picked ?? defaultId;
  const role = list.find((r) => r.id === roleId);
  return (
    <Dialog.Root open={open} onOpenChange={onOpenChange}>
      <Dialog.Portal>
        <Dialog.Overlay className="dialog-overlay" />
        <Dialog.Content className="dialog" role="alertdialog">
          <Dialog.Title className="dialog__title">Approve {name}?</Dialog.Title>
          <Dialog.Description className="dialog__description">
            {role
              ? `They will be able to sign in and use RescueLog as ${role.displayName}.`
              : 'They will be able to sign in and use RescueLog with the permissions of their role.'}
          </Dialog.Description>
          <SelectField
            label="Role"
            value={roleId === null ? '' : String(roleId)}
            disabled={roles.isPending}
            onChange={(e) => setPicked(Number(e.currentTarget.value))}
          >
            {roleId === null ? <option value="">Default role for new members</option> : null}
            {list.map((r) => (
              <option key={r.id} value={r.id}>
                {r.id === defaultId ? `${r.displayName} (default)` : r.displayName}
              </option>
            ))}
          </SelectField>
          {role ? (
            <p className="text-muted" aria-live="polite">
              {permissionSentence(role.name, role.permissions)}
            </p>
          ) : null}
          <div className="dialog__actions">
            <Dialog.Close className="button button--secondary">Cancel</Dialog.Close>
            <button
              type="button"
              className="button button--primary"
              onClick={() => {
                onApprove(roleId ?? undefined);
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
