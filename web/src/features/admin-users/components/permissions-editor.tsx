import * as Dialog from '@radix-ui/react-dialog';
import {
  MODULE_LABELS,
  PERMISSION_MODULES,
  effectivePermissions,
  explainPermissions,
  type PermissionModule,
  type PermissionSource,
  type Permissions,
} from '@rescuelog/sync-protocol/permissions';
import type { Role } from '@rescuelog/sync-protocol/accounts/roles';
import type { User } from '@rescuelog/sync-protocol/accounts/users';
import { X } from 'lucide-react';
import { useState } from 'react';
import { SelectField } from '@/components/ui/field';
import { Spinner } from '@/components/ui/spinner';
import { PermissionFlags } from '@/components/permissions/permission-flags';
import {
  accountRoleOf as accountRoleOfName,
  entryOf,
  gridOf,
  sameEntry,
  type PermissionGrid as Grid,
} from '@/components/permissions/permission-grid';
import { useRoleOptions, useUserAction } from '../api/admin-users';
import styles from './permissions-editor.module.css';

type AccountRole = User['role'];

const SOURCE_LABELS: Record<PermissionSource, string> = {
  user: 'Set for this member',
  role: 'From the role',
  default: 'Default',
};

/**
 * The member's own entries: only the modules where the grid differs from what the role (or
 * the default) gives, so a later change of the role still reaches every other module.
 */
function ownEntries(grid: Grid, roleGrid: Grid): Permissions {
  const out: Partial<Record<PermissionModule, unknown>> = {};
  for (const m of PERMISSION_MODULES) {
    if (sameEntry(m, grid[m], roleGrid[m])) continue;
    out[m] = entryOf(m, grid[m]);
  }
  return out as Permissions;
}

function accountRoleOf(role: Role | undefined, fallback: AccountRole): AccountRole {
  return role ? accountRoleOfName(role.name) : fallback;
}

function Editor({ user, roles, onDone }: { user: User; roles: Role[]; onDone: () => void }) {
  const [roleId, setRoleId] = useState<number | null>(user.roleId);
  const role = roles.find((r) => r.id === roleId);
  const accountRole = accountRoleOf(role, user.role);
  const rolePermissions = role?.permissions ?? {};
  const roleGrid = gridOf(accountRole, rolePermissions);
  const [grid, setGrid] = useState<Grid>(() =>
    gridOf(accountRole, effectivePermissions(rolePermissions, user.permissions)),
  );
  const own = ownEntries(grid, roleGrid);
  const sources = Object.fromEntries(
    explainPermissions(accountRole, rolePermissions, own).map((e) => [e.module, e.source]),
  ) as Record<PermissionModule, PermissionSource>;
  const action = useUserAction();

  return (
    <form
      className="form"
      onSubmit={(e) => {
        e.preventDefault();
        action.mutate(
          {
            kind: 'patch',
            id: user.id,
            patch: { ...(roleId !== user.roleId ? { roleId } : {}), permissions: own },
          },
          { onSuccess: onDone },
        );
      }}
    >
      <SelectField
        label="Role"
        value={roleId === null ? '' : String(roleId)}
        onChange={(e) => {
          const next = e.currentTarget.value === '' ? null : Number(e.currentTarget.value);
          const nextRole = roles.find((r) => r.id === next);
          setRoleId(next);
          // A new role starts from its own permissions: this member's settings are cleared.
          setGrid(gridOf(accountRoleOf(nextRole, user.role), nextRole?.permissions ?? {}));
        }}
      >
        {user.roleId === null ? <option value="">No role</option> : null}
        {roles.map((r) => (
          <option key={r.id} value={r.id}>
            {r.displayName}
          </option>
        ))}
      </SelectField>
      <p className="field__hint">
        {accountRole === 'administrator'
          ? 'The Administrator role makes this person an administrator.'
          : 'Changing the role clears the settings made for this member below.'}
      </p>
      <div className={styles.tableWrap}>
        <table className={styles.table}>
          <caption className="sr-only">Effective permissions</caption>
          <thead>
            <tr>
              <th scope="col">Module</th>
              <th scope="col">Allowed actions</th>
            </tr>
          </thead>
          <tbody>
            {PERMISSION_MODULES.map((m) => {
              return (
                <tr key={m}>
                  <th scope="row">
                    {MODULE_LABELS[m]}
                    <span className="perm-source">{SOURCE_LABELS[sources[m]]}</span>
                  </th>
                  <td>
                    <PermissionFlags
                      module={m}
                      value={grid[m]}
                      label={`${MODULE_LABELS[m]} permissions`}
                      onChange={(next) => setGrid((g) => ({ ...g, [m]: next }))}
                    />
                  </td>
                </tr>
              );
            })}
          </tbody>
        </table>
      </div>
      <div className="dialog__actions">
        <Dialog.Close className="button button--secondary">Cancel</Dialog.Close>
        <button type="submit" className="button button--primary" disabled={action.isPending}>
          {action.isPending ? 'Saving...' : 'Save access'}
        </button>
      </div>
    </form>
  );
}

export function PermissionsEditor({
  user,
  open,
  onOpenChange,
}: {
  user: User;
  open: boolean;
  onOpenChange: (open: boolean) => void;
}) {
  const roles = useRoleOptions();
  return (
    <Dialog.Root open={open} onOpenChange={onOpenChange}>
      <Dialog.Portal>
        <Dialog.Overlay className="dialog-overlay" />
        <Dialog.Content className="dialog dialog--wide">
          <div className="dialog__header">
            <Dialog.Title className="dialog__title">
              Access for {user.fullName || user.email}
            </Dialog.Title>
            <Dialog.Close className="icon-button" aria-label="Close">
              <X aria-hidden="true" size={22} />
            </Dialog.Close>
          </div>
          <Dialog.Description className="dialog__description">
            What this member may do: their role&apos;s permissions, changed module by module where
            needed. Each module says where its permissions come from. The server enforces the same
            rules.
          </Dialog.Description>
          {roles.isPending ? (
            <Spinner label="Loading roles" />
          ) : (
            <Editor
              user={user}
              roles={roles.data?.roles ?? []}
              onDone={() => onOpenChange(false)}
            />
          )}
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}
