// The handover summary and the ways a record leaves the screen, at any point of the case and
// offline: print (the browser's print dialog, the summary alone on one page), save as PDF (a
// PDF file made on this device), and export as a FHIR R4 Bundle. Each is an access to
// patient data and is recorded (print, pdf, export) through the outbox, so it reaches the
// audit log even when it happened offline.
import type { Handover } from '@rescuelog/sync-protocol/cases/handover';
import { FileDown, FileJson, Printer } from 'lucide-react';
import { useState } from 'react';
import { recordCaseAccess } from '../data/case-writes';
import { HandoverView } from './handover-view';
import { formStyles } from '@/components/record-form/form-styles';
import layout from '../components/case-layout.module.css';
import styles from './completed.module.css';

export interface HandoverCardProps {
  caseUuid: string;
  caseId: string;
  handover: Handover;
  /** The organisation's logo (System Settings) for the PDF's header; null: none. */
  logoUrl: string | null;
  /** Saves a file for the user (the export helper's download). */
  download: (fileName: string, blob: Blob) => void | Promise<void>;
  /** Builds the FHIR export; `recorded` when the builder records the access itself (server). */
  exportFhir: () => Promise<{ fileName: string; blob: Blob; recorded: boolean }>;
}

type Busy = 'pdf' | 'fhir' | null;

export function HandoverCard({
  caseUuid,
  caseId,
  handover,
  logoUrl,
  download,
  exportFhir,
}: HandoverCardProps) {
  const [busy, setBusy] = useState<Busy>(null);
  const [message, setMessage] = useState<{ tone: 'ok' | 'error'; text: string } | null>(null);

  const record = (action: 'print' | 'pdf' | 'export', detail: string) =>
    recordCaseAccess(caseUuid, action, detail).catch(() => undefined);

  const print = async () => {
    setMessage(null);
    // The dialog opens within the tap (some browsers allow print only then); the access is
    // stored meanwhile.
    const recorded = record('print', 'handover');
    window.print();
    await recorded;
  };

  const savePdf = async () => {
    setMessage(null);
    setBusy('pdf');
    try {
      await record('pdf', 'handover');
      const { handoverPdfBlob, handoverPdfFileName } = await import('./handover-pdf');
      await download(handoverPdfFileName(caseId), await handoverPdfBlob(handover, logoUrl));
      setMessage({ tone: 'ok', text: `Saved ${handoverPdfFileName(caseId)}.` });
    } catch (e) {
      setMessage({
        tone: 'error',
        text: `Could not make the PDF here (${e instanceof Error ? e.message : String(e)}). Use Print handover and choose "Save as PDF" as the printer.`,
      });
    } finally {
      setBusy(null);
    }
  };

  const saveFhir = async () => {
    setMessage(null);
    setBusy('fhir');
    try {
      const file = await exportFhir();
      if (!file.recorded) await record('export', 'fhir-r4');
      await download(file.fileName, file.blob);
      setMessage({ tone: 'ok', text: `Saved ${file.fileName}.` });
    } catch (e) {
      setMessage({
        tone: 'error',
        text: `Could not export the case: ${e instanceof Error ? e.message : String(e)}`,
      });
    } finally {
      setBusy(null);
    }
  };

  return (
    <section
      className={`card ${styles.completedCard} handover-card`}
      aria-labelledby="handover-heading"
    >
      <h2 id="handover-heading" className={formStyles.sectionTitle}>
        Handover summary
      </h2>
      <div className={`${layout.columns} ${layout.columns3}`}>
        <div className={styles.handoverActionsItem}>
          <button
            type="button"
            className="button button--primary"
            onClick={() => void print()}
            aria-describedby="print-hint"
          >
            <Printer size={20} aria-hidden="true" /> Print handover
          </button>
          <p id="print-hint" className="field__hint">
            Prints this summary on one page.
          </p>
        </div>
        <div className={styles.handoverActionsItem}>
          <button
            type="button"
            className="button button--secondary"
            onClick={() => void savePdf()}
            disabled={busy !== null}
            aria-describedby="pdf-hint"
          >
            <FileDown size={20} aria-hidden="true" />{' '}
            {busy === 'pdf' ? 'Making the PDF…' : 'Save as PDF'}
          </button>
          <p id="pdf-hint" className="field__hint">
            Makes the PDF file on this device, so it works offline. (Printing and choosing “Save as
            PDF” as the printer gives the same page.)
          </p>
        </div>
        <div className={styles.handoverActionsItem}>
          <button
            type="button"
            className="button button--secondary"
            onClick={() => void saveFhir()}
            disabled={busy !== null}
            aria-describedby="fhir-hint"
          >
            <FileJson size={20} aria-hidden="true" />{' '}
            {busy === 'fhir' ? 'Exporting…' : 'Export FHIR'}
          </button>
          <p id="fhir-hint" className="field__hint">
            The whole case as a FHIR R4 file for a hospital or another system.
          </p>
        </div>
      </div>
      {message ? (
        <p
          className={message.tone === 'ok' ? styles.completedSuccess : 'field__error'}
          role={message.tone === 'ok' ? 'status' : 'alert'}
        >
          {message.text}
        </p>
      ) : null}
      <HandoverView handover={handover} />
    </section>
  );
}
