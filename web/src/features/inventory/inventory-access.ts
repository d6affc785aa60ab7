// What the signed-in person may do with the inventory (spec §6 medicalInventory), asked of the
// same access rule the server applies (platform/access.ts), so a button shows only when the
// server would accept what it does.
import type { User } from '@rescuelog/sync-protocol/accounts/users';
import { decideAccess } from '@rescuelog/sync-protocol/platform/access';
import { INVENTORY_ACCESS } from '@rescuelog/sync-protocol/inventory/inventory-item';

export interface InventoryRights {
  create: boolean;
  /** Change the item's fields, book stock, add batches. */
  change: (item: { userId?: number | undefined }) => boolean;
  delete: (item: { userId?: number | undefined }) => boolean;
}

export function inventoryRights(user: User | null | undefined): InventoryRights {
  if (!user) return { create: false, change: () => false, delete: () => false };
  const owners = (item: { userId?: number | undefined }) =>
    item.userId === undefined ? [user.id] : [item.userId];
  return {
    create: decideAccess(user, INVENTORY_ACCESS, 'create', []).allowed,
    change: (item) => decideAccess(user, INVENTORY_ACCESS, 'change', owners(item)).allowed,
    delete: (item) => decideAccess(user, INVENTORY_ACCESS, 'delete', owners(item)).allowed,
  };
}
