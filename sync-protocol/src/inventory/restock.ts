// The restock list: what to order so that every item is back at its minimum once its expired
// stock is taken out. Pure, so the printed list (web: restock-pdf.ts through the one PDF
// module) and its tests agree on every number.
import { expiryState, stockByBatch, stockOf, type BatchLike, type MovementLike } from './stock';
import { roundQuantity } from './values';

export interface RestockItem {
  description: string;
  unit: string;
  where: string;
  minimumQty: number;
  batches: readonly BatchLike[];
  movements: readonly MovementLike[];
}

export interface RestockLine {
  description: string;
  where: string;
  unit: string;
  onHand: number;
  expired: number;
  minimum: number;
  toOrder: number;
}

/** Lines for the items that need any, most needed first (then by name). */
export function restockLines(items: readonly RestockItem[], today: string): RestockLine[] {
  const lines: RestockLine[] = [];
  for (const item of items) {
    const onHand = stockOf(item.movements);
    const perBatch = stockByBatch(item.movements);
    let expired = 0;
    for (const b of item.batches)
      if (expiryState(b.expiryDate, today) === 'expired')
        expired += Math.max(0, perBatch.get(b.id) ?? 0);
    expired = roundQuantity(expired);
    const usable = Math.max(0, onHand - expired);
    const toOrder = roundQuantity(Math.max(0, item.minimumQty - usable));
    if (toOrder > 0 || expired > 0)
      lines.push({
        description: item.description,
        where: item.where,
        unit: item.unit,
        onHand,
        expired,
        minimum: item.minimumQty,
        toOrder,
      });
  }
  return lines.sort(
    (a, b) => b.toOrder - a.toOrder || a.description.localeCompare(b.description, 'en'),
  );
}
