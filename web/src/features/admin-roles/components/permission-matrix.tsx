import { MODULE_LABELS, PERMISSION_MODULES } from '@rescuelog/sync-protocol/permissions';
import { PermissionFlags } from '@/components/permissions/permission-flags';
import type { PermissionGrid } from '@/components/permissions/permission-grid';

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
  return (
    <div className="perm-matrix">
      {PERMISSION_MODULES.map((m) => {
        return (
          <fieldset key={m} className="perm-matrix__module" disabled={disabled}>
            <legend className="perm-matrix__legend">{MODULE_LABELS[m]}</legend>
            <PermissionFlags
              module={m}
              value={grid[m]}
              onChange={(next) => onChange({ ...grid, [m]: next })}
            />
          </fieldset>
        );
      })}
    </div>
  );
}
