// Where an item is kept, for people: "Station", "Vehicle: Vehicle 2", "Bag: ALS bag".
import { INVENTORY_LOCATION_LABELS } from '@rescuelog/sync-protocol/inventory/values';
import type { InventoryItem } from '../data/use-inventory';

export function whereKept(item: Pick<InventoryItem, 'location' | 'locationName'>): string {
  const place = INVENTORY_LOCATION_LABELS[item.location ?? 'station'];
  return item.locationName ? `${place}: ${item.locationName}` : place;
}
