import * as Dialog from '@radix-ui/react-dialog';
import {
  BOOLEAN_MODULES,
  MODULE_ACTIONS,
  MODULE_LABELS,
  PERMISSION_MODULES,
  hasPermission,
  type PermissionAction,
  type PermissionModule,
  type Permissions,
} from '@rescuelog/sync-protocol/permissions';
import { USER_ROLES, type User, type UserRole } from '@rescuelog/sync-protocol/users';
import { X } from 'lucide-react';
import { useState } from 'react';
import { useUserAction } from '../api/admin-users';
import styles from './permissions-editor.module.css';

type Flags = Partial<Record<PermissionAction, boolean>>;
type Grid = Record<PermissionModule, Flags | boolean>;

const ACTION_LABELS: Record<PermissionAction, string> = {
  read: 'Read',
  create: 'Create',
  edit: 'Edit',
  delete: 'Delete',
  view: 'View',
};
const ROLE_LABELS: Record<UserRole, string> = { administrator: 'Administrator', member: 'Member' };

function isBooleanModule(m: PermissionModule): m is (typeof BOOLEAN_MODULES)[number] {
  return (BOOLEAN_MODULES as readonly string[]).includes(m);
}

/** What each module allows right now, spelled out flag by flag (spec §6 rule applied). */
function toGrid(role: UserRole, permissions: Permissions): Grid {
  const grid = {} as Grid;
  for (const m of PERMISSION_MODULES) {
    if (isBooleanModule(m)) {
      const entry = permissions[m];
      grid[m] = entry === undefined ? role === 'administrator' : entry;
    } else {
      grid[m] = Object.fromEntries(
        MODULE_ACTIONS[m].map((a) => [a, hasPermission({ role, permissions }, m, a)]),
      );
    }
  }
  return grid;
}

/**
 * Back to a permissions object. A flag module that matches what the role gets by default
 * is left out, so the role's defaults keep applying; boolean modules are always explicit
 * because the default rule would let a member "view" them.
 */
function fromGrid(role: UserRole, grid: Grid): Permissions {
  const defaults = toGrid(role, {});
  const out: Record<string, Flags | boolean> = {};
  for (const m of PERMISSION_MODULES) {
    const value = grid[m];
    if (typeof value === 'boolean') {
      out[m] = value;
      continue;
    }
    const def = defaults[m];
    const same =
      typeof def !== 'boolean' &&
      MODULE_ACTIONS[m].every((a) => (value[a] ?? false) === (def[a] ?? false));
    if (!same) out[m] = Object.fromEntries(MODULE_ACTIONS[m].map((a) => [a, value[a] ?? false]));
  }
  return out as Permissions;
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
  const [role, setRole] = useState<UserRole>(user.role);
  const [grid, setGrid] = useState<Grid>(() => toGrid(user.role, user.permissions));
  const action = useUserAction();

  function setFlag(m: PermissionModule, a: PermissionAction, value: boolean) {
    setGrid((g) => {
      const current = g[m];
      return { ...g, [m]: typeof current === 'boolean' ? value : { ...current, [a]: value } };
    });
  }

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
            Set the role and what this user may do in each module. The server enforces the same
            rules.
          </Dialog.Description>
          <form
            className="form"
            onSubmit={(e) => {
              e.preventDefault();
              action.mutate(
                { kind: 'patch', id: user.id, patch: { role, permissions: fromGrid(role, grid) } },
                { onSuccess: () => onOpenChange(false) },
              );
            }}
          >
            <fieldset className="fieldset">
              <legend className="fieldset__legend">Role</legend>
              <div className={styles.radioRow}>
                {USER_ROLES.map((r) => (
                  <label key={r} className="choice">
                    <input
                      type="radio"
                      name="role"
                      value={r}
                      checked={role === r}
                      onChange={() => {
                        setRole(r);
                        setGrid(toGrid(r, {}));
                      }}
                    />
                    {ROLE_LABELS[r]}
                  </label>
                ))}
              </div>
              <p className="field__hint">
                Changing the role resets the module permissions to that role&apos;s defaults.
              </p>
            </fieldset>
            <div className={styles.tableWrap}>
              <table className={styles.table}>
                <caption className="sr-only">Module permissions</caption>
                <thead>
                  <tr>
                    <th scope="col">Module</th>
                    <th scope="col">Allowed actions</th>
                  </tr>
                </thead>
                <tbody>
                  {PERMISSION_MODULES.map((m) => {
                    const value = grid[m];
                    return (
                      <tr key={m}>
                        <th scope="row">{MODULE_LABELS[m]}</th>
                        <td>
                          <div
                            className={styles.flags}
                            role="group"
                            aria-label={`${MODULE_LABELS[m]} permissions`}
                          >
                            {typeof value === 'boolean' ? (
                              <label className="choice">
                                <input
                                  type="checkbox"
                                  checked={value}
                                  onChange={(e) =>
                                    setGrid((g) => ({ ...g, [m]: e.currentTarget.checked }))
                                  }
                                />
                                Allowed
                              </label>
                            ) : (
                              MODULE_ACTIONS[m].map((a) => (
                                <label key={a} className="choice">
                                  <input
                                    type="checkbox"
                                    checked={value[a] ?? false}
                                    onChange={(e) => setFlag(m, a, e.currentTarget.checked)}
                                  />
                                  {ACTION_LABELS[a]}
                                </label>
                              ))
                            )}
                          </div>
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
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}
