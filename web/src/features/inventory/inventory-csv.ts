// Items and movements as CSV, and items from CSV, with papaparse (quoting, line breaks in
// cells, a byte-order mark: the library's, never hand-made). Cells that a spreadsheet would
// run as a formula (=, +, -, @ first) are escaped on the way out. An import checks each row
// with the kind's own fields schema (the §5 messages) and names every bad row by its line;
// the good rows are added.
import {
  INVENTORY_MESSAGES,
  inventoryItemRecord,
} from '@rescuelog/sync-protocol/inventory/inventory-item';
import { stockOf } from '@rescuelog/sync-protocol/inventory/stock';
import {
  INVENTORY_LOCATIONS,
  nonNegativeQuantity,
} from '@rescuelog/sync-protocol/inventory/values';
import Papa from 'papaparse';
import { validateRecordFields } from '@/lib/records/record-writes';
import type { InventoryBatch, InventoryItem, InventoryMovement } from './data/use-inventory';

export const ITEM_COLUMNS = [
  'description',
  'category',
  'unit',
  'minimumQty',
  'stockOnHand',
  'location',
  'locationName',
  'notes',
] as const;

function toCsv(fields: readonly string[], rows: unknown[][]): string {
  return Papa.unparse(
    { fields: [...fields], data: rows },
    { escapeFormulae: true, newline: '\r\n' },
  );
}

export function itemsCsv(
  items: readonly InventoryItem[],
  movementsOf: (itemId: string) => readonly InventoryMovement[],
): string {
  return toCsv(
    ['id', ...ITEM_COLUMNS],
    items.map((i) => [
      i.id,
      i.description ?? '',
      i.category ?? '',
      i.unit ?? 'pieces',
      i.minimumQty ?? 1,
      stockOf(movementsOf(i.id)),
      i.location ?? 'station',
      i.locationName ?? '',
      i.notes ?? '',
    ]),
  );
}

export function movementsCsv(
  movements: readonly InventoryMovement[],
  items: ReadonlyMap<string, InventoryItem>,
  batches: ReadonlyMap<string, InventoryBatch>,
): string {
  return toCsv(
    [
      'id',
      'at',
      'item',
      'itemId',
      'quantity',
      'reason',
      'lot',
      'expiryDate',
      'caseId',
      'userId',
      'note',
      'belowZero',
    ],
    [...movements]
      .sort((a, b) => ((a.at ?? '') < (b.at ?? '') ? -1 : 1))
      .map((m) => {
        const batch = m.batchId ? batches.get(m.batchId) : undefined;
        return [
          m.id,
          m.at ?? '',
          (m.itemId && items.get(m.itemId)?.description) ?? '',
          m.itemId ?? '',
          m.quantity ?? 0,
          m.reason ?? '',
          batch?.lot ?? '',
          batch?.expiryDate ?? '',
          m.caseId ?? '',
          m.userId ?? '',
          m.note ?? '',
          m.belowZero ? 'yes' : 'no',
        ];
      }),
  );
}

export interface ImportRow {
  line: number;
  fields: Record<string, unknown>;
  openingStock: number;
}

export interface ImportReport {
  rows: ImportRow[];
  errors: { line: number; message: string }[];
}

const stockSchema = nonNegativeQuantity(INVENTORY_MESSAGES.stockOnHand);

function numberCell(text: string | undefined, fallback: number): number {
  const t = (text ?? '').trim();
  return t === '' ? fallback : Number(t.replace(',', '.'));
}

/** The rows that can be added and, by line number (the header is line 1), those that cannot. */
export function parseItemsCsv(text: string): ImportReport {
  const parsed = Papa.parse<Record<string, string>>(text, {
    header: true,
    skipEmptyLines: 'greedy',
    transformHeader: (h) => h.trim(),
  });
  const report: ImportReport = { rows: [], errors: [] };
  const headers = parsed.meta.fields ?? [];
  if (!headers.includes('description')) {
    report.errors.push({
      line: 1,
      message: 'The first line must name the columns, description among them',
    });
    return report;
  }
  parsed.data.forEach((cells, index) => {
    const line = index + 2;
    const location = (cells.location ?? '').trim().toLowerCase() || 'station';
    if (!(INVENTORY_LOCATIONS as readonly string[]).includes(location)) {
      report.errors.push({ line, message: 'Kept at must be station, vehicle or bag' });
      return;
    }
    const fields = {
      description: cells.description ?? '',
      minimumQty: numberCell(cells.minimumQty, 1),
      unit: (cells.unit ?? '').trim() || 'pieces',
      category: (cells.category ?? '').trim() || null,
      location,
      locationName: (cells.locationName ?? '').trim() || null,
      notes: (cells.notes ?? '').trim() || null,
    };
    const problems = Object.values(validateRecordFields(inventoryItemRecord, fields));
    const stock = stockSchema.safeParse(numberCell(cells.stockOnHand, 0));
    if (!stock.success) problems.push(INVENTORY_MESSAGES.stockOnHand);
    if (problems.length > 0 || !stock.success) {
      report.errors.push({ line, message: problems.join('; ') });
      return;
    }
    report.rows.push({ line, fields, openingStock: stock.data });
  });
  for (const e of parsed.errors)
    if (e.row !== undefined && e.type !== 'FieldMismatch')
      report.errors.push({ line: e.row + 2, message: e.message });
  report.errors.sort((a, b) => a.line - b.line);
  return report;
}
