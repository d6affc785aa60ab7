import {
  MODULE_ACTIONS,
  MODULE_LABELS,
  PERMISSION_MODULES,
  type PermissionAction,
  type PermissionModule,
} from '@rescuelog/sync-protocol/permissions';
import { ACTION_LABELS, type PermissionGrid } from '../permission-grid';

/**
 * The §6 modules and their flags as checkboxes, one group per module so it reads as a list
 * on a phone and as rows on a wide screen. Every checkbox is a 48 px target.
 */
export function PermissionMatrix({
  grid,
  onChange,
  disabled,
}: {
  grid: PermissionGrid;
  onChange: (grid: PermissionGrid) => void;
  disabled?: boolean;
}) {
  function setFlag(m: PermissionModule, a: PermissionAction, value: boolean) {
    const current = grid[m];
    onChange({ ...grid, [m]: typeof current === 'boolean' ? value : { ...current, [a]: value } });
  }
  return (
    <div className="perm-matrix">
      {PERMISSION_MODULES.map((m) => {
        const value = grid[m];
        return (
          <fieldset key={m} className="perm-matrix__module" disabled={disabled}>
            <legend className="perm-matrix__legend">{MODULE_LABELS[m]}</legend>
            <div className="perm-flags">
              {typeof value === 'boolean' ? (
                <label className="choice">
                  <input
                    type="checkbox"
                    checked={value}
                    onChange={(e) => onChange({ ...grid, [m]: e.currentTarget.checked })}
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
          </fieldset>
        );
      })}
    </div>
  );
}
