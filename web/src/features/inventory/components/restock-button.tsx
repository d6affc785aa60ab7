// "Restock list (PDF)": what to order, from the stock this device holds (works offline).
import { FileDown } from 'lucide-react';
import { useState } from 'react';
import { downloadBlob } from '@/lib/download';
import { useServiceSettings } from '@/lib/service-settings';
import { readStoredSettings } from '@/lib/stored-settings';
import { useLocalList } from '@/lib/sync/use-local-records';
import { serviceToday, type InventoryStock } from '../data/use-inventory';
import { whereKept } from './where-kept';
import styles from './inventory.module.css';

export function RestockButton({ stock }: { stock: InventoryStock }) {
  const items = useLocalList('inventoryItem', {});
  const { data: settings } = useServiceSettings();
  const [message, setMessage] = useState<{ error: boolean; text: string } | null>(null);
  const [busy, setBusy] = useState(false);
  const save = async () => {
    setBusy(true);
    setMessage(null);
    try {
      const copy = settings ?? readStoredSettings();
      const { restockPdf } = await import('../restock-pdf');
      const file = await restockPdf(
        (items?.records ?? []).map((item) => {
          const s = stock.of(item);
          return {
            description: item.description ?? '',
            unit: item.unit ?? 'pieces',
            where: whereKept(item),
            minimumQty: item.minimumQty ?? 1,
            batches: s.batches,
            movements: s.movements,
          };
        }),
        serviceToday(),
        { name: copy?.organisationName ?? null, logoUrl: copy?.organisationLogoUrl ?? null },
      );
      downloadBlob(file.fileName, file.blob);
      setMessage({ error: false, text: `Saved ${file.fileName}.` });
    } catch (e) {
      setMessage({
        error: true,
        text: `Could not make the PDF here (${e instanceof Error ? e.message : String(e)}).`,
      });
    } finally {
      setBusy(false);
    }
  };
  return (
    <div className={styles.formRow}>
      <button
        type="button"
        className="button button--secondary"
        disabled={busy || !items}
        onClick={() => void save()}
      >
        <FileDown aria-hidden="true" size={20} />
        {busy ? 'Making the PDF…' : 'Restock list (PDF)'}
      </button>
      {message ? (
        <p
          className={message.error ? styles.error : undefined}
          role={message.error ? 'alert' : 'status'}
        >
          {message.text}
        </p>
      ) : null}
    </div>
  );
}
