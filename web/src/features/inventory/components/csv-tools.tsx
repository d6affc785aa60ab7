// Export items and movements as CSV (from this device: works offline), and, for who may add
// items, import items from CSV with a report of the rows that could not be added.
import { useId, useState, type ChangeEvent } from 'react';
import { downloadBlob } from '@/lib/download';
import { useLocalList } from '@/lib/sync/use-local-records';
import { serviceToday, type InventoryStock } from '../data/use-inventory';
import { createItem } from '../data/inventory-writes';
import styles from './inventory.module.css';

type Report = { added: number; errors: { line: number; message: string }[] } | null;

function csvBlob(text: string): Blob {
  // A byte-order mark, so a spreadsheet reads the file as UTF-8 (names with accents).
  return new Blob([`\uFEFF${text}`], { type: 'text/csv;charset=utf-8' });
}

export function CsvTools({ stock, canImport }: { stock: InventoryStock; canImport: boolean }) {
  const items = useLocalList('inventoryItem', {});
  const batches = useLocalList('inventoryBatch', {});
  const movements = useLocalList('inventoryMovement', {});
  const [report, setReport] = useState<Report>(null);
  const [failure, setFailure] = useState<string | null>(null);
  const inputId = useId();

  const exportItems = async () => {
    const { itemsCsv } = await import('../inventory-csv');
    const rows = items?.records ?? [];
    downloadBlob(
      `inventory-items-${serviceToday()}.csv`,
      csvBlob(itemsCsv(rows, (id) => stock.of({ id, minimumQty: 0 }).movements)),
    );
  };
  const exportMovements = async () => {
    const { movementsCsv } = await import('../inventory-csv');
    downloadBlob(
      `inventory-movements-${serviceToday()}.csv`,
      csvBlob(
        movementsCsv(
          movements?.records ?? [],
          new Map((items?.records ?? []).map((i) => [i.id, i])),
          new Map((batches?.records ?? []).map((b) => [b.id, b])),
        ),
      ),
    );
  };
  const importFile = async (e: ChangeEvent<HTMLInputElement>) => {
    const file = e.target.files?.[0];
    e.target.value = '';
    if (!file) return;
    setReport(null);
    setFailure(null);
    try {
      const { parseItemsCsv } = await import('../inventory-csv');
      const parsed = parseItemsCsv(await file.text());
      for (const row of parsed.rows) await createItem(row.fields, row.openingStock);
      setReport({ added: parsed.rows.length, errors: parsed.errors });
    } catch (error) {
      setFailure(error instanceof Error ? error.message : String(error));
    }
  };

  const ready = items !== undefined && batches !== undefined && movements !== undefined;
  return (
    <div className={styles.tools}>
      <button
        type="button"
        className="button button--secondary"
        disabled={!ready}
        onClick={() => void exportItems()}
      >
        Export items (CSV)
      </button>
      <button
        type="button"
        className="button button--secondary"
        disabled={!ready}
        onClick={() => void exportMovements()}
      >
        Export movements (CSV)
      </button>
      {canImport ? (
        <label className={`button button--secondary ${styles.fileButton}`} htmlFor={inputId}>
          Import items (CSV)
          <input
            id={inputId}
            className="sr-only"
            type="file"
            accept=".csv,text/csv"
            onChange={(e) => void importFile(e)}
          />
        </label>
      ) : null}
      {report ? (
        <div className={styles.importReport} role="status">
          <p>
            {report.added === 1 ? 'Added 1 item.' : `Added ${String(report.added)} items.`}
            {report.errors.length > 0
              ? ` ${String(report.errors.length)} ${report.errors.length === 1 ? 'row was' : 'rows were'} not added:`
              : ''}
          </p>
          {report.errors.length > 0 ? (
            <ul>
              {report.errors.map((e) => (
                <li key={e.line}>
                  Line {e.line}: {e.message}
                </li>
              ))}
            </ul>
          ) : null}
        </div>
      ) : null}
      {failure ? (
        <p className={styles.error} role="alert">
          {failure}
        </p>
      ) : null}
    </div>
  );
}
