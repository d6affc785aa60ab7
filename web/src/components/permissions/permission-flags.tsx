// One module's permissions as checkboxes: its flags (read, create, edit, delete / view), or
// "Allowed" for a single-boolean module. Every checkbox is a 48 px target. Both editors
// (roles, a member's access) use it.
import { MODULE_ACTIONS, type PermissionModule } from '@rescuelog/sync-protocol/permissions';
import { ACTION_LABELS, type Flags } from './permission-grid';
import styles from './permission-flags.module.css';

export function PermissionFlags({
  module,
  value,
  onChange,
  label,
}: {
  module: PermissionModule;
  value: Flags | boolean;
  onChange: (next: Flags | boolean) => void;
  /** Names the group when nothing around it does (a table cell). */
  label?: string;
}) {
  return (
    <div className={styles.flags} {...(label ? { role: 'group', 'aria-label': label } : {})}>
      {typeof value === 'boolean' ? (
        <label className="choice">
          <input
            type="checkbox"
            checked={value}
            onChange={(e) => onChange(e.currentTarget.checked)}
          />
          Allowed
        </label>
      ) : (
        MODULE_ACTIONS[module].map((a) => (
          <label key={a} className="choice">
            <input
              type="checkbox"
              checked={value[a] ?? false}
              onChange={(e) => onChange({ ...value, [a]: e.currentTarget.checked })}
            />
            {ACTION_LABELS[a]}
          </label>
        ))
      )}
    </div>
  );
}
