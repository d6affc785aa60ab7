// The inventory's vocabulary: where an item is kept, why stock moved, which units count whole
// pieces, and the quantity and expiry-day values its records share (docs/domain.md "Medical
// inventory"; spec §3, §5, §9).
import { z } from 'zod';
import '../zod-config';
import { checkCalendarDay } from '../time';

export const INVENTORY_LOCATIONS = ['station', 'vehicle', 'bag'] as const;
export type InventoryLocation = (typeof INVENTORY_LOCATIONS)[number];
export const INVENTORY_LOCATION_LABELS: Record<InventoryLocation, string> = {
  station: 'Station',
  vehicle: 'Vehicle',
  bag: 'Bag',
};

export const INVENTORY_CATEGORIES = [
  'Medication',
  'Airway',
  'Breathing',
  'Circulation',
  'Wound care',
  'Immobilisation',
  'Diagnostics',
  'PPE',
  'Other',
] as const;

export const MOVEMENT_REASONS = [
  'received',
  'used',
  'used_on_case',
  'expired',
  'damaged',
  'stock_take',
  'transfer',
] as const;
export type MovementReason = (typeof MOVEMENT_REASONS)[number];
export const MOVEMENT_REASON_LABELS: Record<MovementReason, string> = {
  received: 'Received',
  used: 'Used',
  used_on_case: 'Used on a case',
  expired: 'Expired',
  damaged: 'Damaged',
  stock_take: 'Stock take',
  transfer: 'Transfer to another location',
};

/** Units whose stock is counted in whole pieces: a movement of 0.5 of these is refused. */
export const WHOLE_UNITS = [
  'pieces',
  'ampoules',
  'vials',
  'tablets',
  'sachets',
  'tubes',
  'bottles',
  'packs',
  'boxes',
  'pairs',
] as const;

export function countsWholePieces(unit: unknown): boolean {
  const text = typeof unit === 'string' ? unit.trim().toLowerCase() : 'pieces';
  return (WHOLE_UNITS as readonly string[]).includes(text === '' ? 'pieces' : text);
}

/** numeric(12, 3): quantities are kept to three decimals on both sides. */
export function roundQuantity(value: number): number {
  const r = Math.round(value * 1000) / 1000;
  return Object.is(r, -0) ? 0 : r;
}

export const MAX_QUANTITY = 1_000_000;

/** A quantity of at least 0, with the §5 message of the field it is. */
export function nonNegativeQuantity(message: string) {
  return z
    .number({ error: message })
    .min(0, message)
    .max(MAX_QUANTITY, `At most ${String(MAX_QUANTITY)}`)
    .transform(roundQuantity);
}

/** A movement's signed quantity (0 and fractions of whole pieces are refused by the mutator). */
export const signedQuantitySchema = z
  .number()
  .min(-MAX_QUANTITY)
  .max(MAX_QUANTITY)
  .transform(roundQuantity);

/** A calendar day, YYYY-MM-DD (an expiry date). */
export const calendarDaySchema = z
  .string()
  .max(10)
  .superRefine((v, ctx) => {
    const checked = checkCalendarDay(v);
    if (!checked.ok) ctx.addIssue({ code: 'custom', message: checked.message });
  });
