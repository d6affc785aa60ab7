// CSV out and in: real quoting (commas, quotes, line breaks), formulas escaped, and an import
// that keeps the good rows and names the bad ones with the §5 messages.
import Papa from 'papaparse';
import { describe, expect, it } from 'vitest';
import type { InventoryItem, InventoryMovement } from './data/use-inventory';
import { itemsCsv, parseItemsCsv } from './inventory-csv';

describe('inventory CSV', () => {
  it('exports items with their derived stock, quoting what needs it and escaping formulas', () => {
    const item = {
      id: 'i1',
      description: 'Saline 0,9 % "bag"\nlarge',
      category: 'Circulation',
      unit: 'ml',
      minimumQty: 2.5,
      location: 'vehicle',
      locationName: 'Vehicle 2',
      notes: '=HYPERLINK("x")',
    } as InventoryItem;
    const movements = [{ quantity: 1000 }, { quantity: -250.5 }] as InventoryMovement[];
    const csv = itemsCsv([item], () => movements);
    const back = Papa.parse<Record<string, string>>(csv, { header: true }).data[0];
    expect(back).toMatchObject({
      description: 'Saline 0,9 % "bag"\nlarge',
      stockOnHand: '749.5',
      minimumQty: '2.5',
      location: 'vehicle',
      notes: `'=HYPERLINK("x")`,
    });
  });

  it('imports the good rows and names each bad one by its line', () => {
    const report = parseItemsCsv(
      [
        'description,minimumQty,stockOnHand,unit,location,category',
        'Adrenaline 1 mg/ml,4,6,ampoules,bag,Medication',
        ',1,1,pieces,station,',
        'Gauze,-1,5,pieces,station,',
        'Splint,1,-3,pieces,station,',
        'Oxygen mask,1,2,pieces,boat,',
        '"Glucose gel, 15 g",2,,tubes,,Medication',
      ].join('\n'),
    );
    expect(report.rows.map((r) => [r.line, r.fields.description, r.openingStock])).toEqual([
      [2, 'Adrenaline 1 mg/ml', 6],
      [7, 'Glucose gel, 15 g', 0],
    ]);
    expect(report.rows[1]?.fields).toMatchObject({ location: 'station', unit: 'tubes' });
    expect(report.errors).toEqual([
      { line: 3, message: 'Description is required' },
      { line: 4, message: 'Minimum quantity must be 0 or greater' },
      { line: 5, message: 'Stock on hand must be 0 or greater' },
      { line: 6, message: 'Kept at must be station, vehicle or bag' },
    ]);
  });

  it('refuses a file without a header naming the description', () => {
    expect(parseItemsCsv('Adrenaline,4\n').errors).toEqual([
      { line: 1, message: 'The first line must name the columns, description among them' },
    ]);
  });
});
