// The vital signs of a case: quick entry of a set (unless read-only), the readings over
// time as a table, and a small trend chart per vital sign. Readings are append-only rows;
// a wrong one is voided with a reason and entered again. The section carries the
// completion link target (#field-vitalSigns).
import { fieldDomId } from '@rescuelog/sync-protocol/cases/fields';
import { useState } from 'react';
import { voidVitalSign } from '../data/case-writes';
import { useCaseVitalSigns, type LocalCase } from '../data/use-case';
import type { ReadingLike } from './vital-display';
import { VitalSignsTable } from './vital-signs-table';
import { VitalTrendCharts } from './vital-trend-chart';
import { VitalsEntryForm, type Reentry } from './vitals-entry-form';
import { formStyles } from '@/components/record-form/form-styles';
import styles from './vitals.module.css';

export interface VitalSignsPanelProps {
  caseRecord: Pick<LocalCase, 'id' | 'approximateAge' | 'gcsTotal' | 'status'>;
  /** Show only (the completed case); a completed case is read-only anyway. */
  readOnly?: boolean;
}

export function VitalSignsPanel({ caseRecord, readOnly = false }: VitalSignsPanelProps) {
  const readings = useCaseVitalSigns(caseRecord.id);
  const [reentry, setReentry] = useState<Reentry | null>(null);
  const locked = readOnly || caseRecord.status === 'completed';
  const age = caseRecord.approximateAge ?? null;
  const rows: ReadingLike[] | undefined = readings?.flatMap((r) =>
    r.type && typeof r.value === 'string' ? [{ ...r, type: r.type, value: r.value }] : [],
  );
  const voidReading = async (reading: ReadingLike, reason: string) => {
    await voidVitalSign(reading.id, caseRecord.id, reason);
    if (reading.timestamp)
      setReentry((prev) => ({
        type: reading.type,
        timestamp: reading.timestamp ?? '',
        key: (prev?.key ?? 0) + 1,
      }));
  };
  return (
    <section
      className={`card ${styles.vitals}`}
      id={fieldDomId('vitalSigns')}
      aria-labelledby="vital-signs-heading"
    >
      <h2 id="vital-signs-heading" className={formStyles.sectionTitle}>
        Vital signs
      </h2>
      {!locked ? <VitalsEntryForm caseRecord={caseRecord} reentry={reentry} /> : null}
      {rows === undefined ? (
        <p className={styles.empty} role="status">
          Loading readings…
        </p>
      ) : rows.length === 0 ? (
        <p className={styles.empty}>No vital signs recorded yet.</p>
      ) : (
        <>
          <VitalSignsTable
            readings={rows}
            ageYears={age}
            onVoid={locked ? undefined : voidReading}
          />
          <h3 className={styles.subtitle}>Trends</h3>
          <VitalTrendCharts readings={rows} ageYears={age} />
        </>
      )}
    </section>
  );
}
