// /medical-inventory, /medical-inventory/new and /medical-inventory/:itemId (issue 38).
import { InventoryItemPage } from '@/features/inventory/components/inventory-item-page';
import { InventoryPage } from '@/features/inventory/components/inventory-page';
import { NewItemPage } from '@/features/inventory/components/new-item-page';

export function InventoryRoute() {
  return <InventoryPage />;
}

export function NewInventoryItemRoute() {
  return <NewItemPage />;
}

export function InventoryItemRoute() {
  return <InventoryItemPage />;
}
