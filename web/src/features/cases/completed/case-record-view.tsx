// The completed-case screen's body, for a case on this device or one fetched from the server:
// where the case stands (locked or in progress), the completion check (device, in progress),
// the handover with print / PDF / FHIR, the addenda (adding one on a locked case held by this
// device), the whole record read-only, the vital signs, and the administrator's tools.
import { addendumAuthorLabel } from '@rescuelog/sync-protocol/cases/addendum-author';
import {
  buildHandover,
  type AddendumLike,
  type VitalLike2,
} from '@rescuelog/sync-protocol/cases/handover';
import { formatDateTime } from '@rescuelog/sync-protocol/time';
import type { VitalSignType } from '@rescuelog/sync-protocol/cases/clinical';
import { FilePlus2, Lock, PencilLine } from 'lucide-react';
import { useCallback, useMemo, useState } from 'react';
import { useUser } from '@/lib/auth';
import { useServiceSettings } from '@/lib/service-settings';
import { readStoredSettings } from '@/lib/stored-settings';
import type { LocalAddendum, LocalCase, LocalVitalSign } from '../data/use-case';
import { VitalSignsTable } from '../vitals/vital-signs-table';
import type { ReadingLike } from '../vitals/vital-display';
import { CaseAddendaList, CaseAddendumForm } from './case-addenda';
import { AdminCaseTools } from './admin-case-tools';
import { CaseSummary } from './case-summary';
import { CompletionPanel } from './completion-panel';
import { HandoverCard, type HandoverCardProps } from './handover-card';
import { formStyles } from '@/components/record-form/form-styles';
import styles from './completed.module.css';
import { cx } from '@/lib/cx';

export interface CaseRecordViewProps {
  record: LocalCase & { caseId: string };
  vitals: readonly LocalVitalSign[] | undefined;
  addenda: readonly LocalAddendum[] | undefined;
  /** 'device': this device holds the case (it can be completed or corrected here). */
  source: 'device' | 'server';
  download: HandoverCardProps['download'];
  exportFhir: HandoverCardProps['exportFhir'];
}

function readings(vitals: readonly LocalVitalSign[]): ReadingLike[] {
  return vitals.flatMap((v) =>
    v.type && typeof v.value === 'string'
      ? [{ ...v, type: v.type as VitalSignType, value: v.value }]
      : [],
  );
}

export function CaseRecordView({
  record,
  vitals,
  addenda,
  source,
  download,
  exportFhir,
}: CaseRecordViewProps) {
  const { data: user } = useUser();
  // The organisation's name and logo on the handover (system settings; the device's last copy
  // offline).
  const { data: settings } = useServiceSettings();
  const knownSettings = settings ?? readStoredSettings();
  const organisation = knownSettings?.organisationName ?? null;
  const logoUrl = knownSettings?.organisationLogoUrl ?? null;
  const [adding, setAdding] = useState(false);
  const completed = record.status === 'completed';
  const onDevice = source === 'device';

  // An addendum carries its author's name and call sign as signed (decision 011: stamped by the
  // server, filled by this device for its own pending ones), so it shows offline too. One
  // written before names were stamped has only a user id: the signed-in user's own show
  // their name, anyone else's their user number.
  const authorName = useCallback(
    (addendum: LocalAddendum) => {
      const signed = addendumAuthorLabel(addendum);
      if (signed) return signed;
      const { userId } = addendum;
      if (userId !== undefined && user && userId === user.id)
        return (
          addendumAuthorLabel({ authorName: user.fullName, authorCallSign: user.callSign }) ??
          `User ${String(userId)}`
        );
      return userId === undefined ? 'Unknown author' : `User ${String(userId)}`;
    },
    [user],
  );

  const handover = useMemo(() => {
    const handoverVitals: VitalLike2[] = (vitals ?? []).flatMap((v) =>
      v.type && typeof v.value === 'string' && v.timestamp
        ? [
            {
              type: v.type,
              value: v.value,
              timestamp: v.timestamp,
              status: v.status ?? null,
              voidedAt: v.voidedAt ?? null,
              deletedAt: v.deletedAt ?? null,
            },
          ]
        : [],
    );
    const handoverAddenda: AddendumLike[] = (addenda ?? []).map((a) => ({
      createdAt: a.createdAt ?? new Date().toISOString(),
      reason: a.reason ?? '',
      changes: a.changes ?? [],
      authorName: authorName(a),
      deletedAt: a.deletedAt ?? null,
    }));
    return buildHandover({
      case: record,
      vitals: handoverVitals,
      addenda: handoverAddenda,
      generatedAt: new Date(),
      organisation: organisation ?? null,
    });
  }, [record, vitals, addenda, authorName, organisation]);

  const liveAddenda = (addenda ?? []).filter((a) => !a.deletedAt);

  return (
    <div className={styles.completed}>
      <section
        className={cx('card', styles.completedStatus, completed && styles.completedStatusLocked)}
        aria-label="Case status"
      >
        {completed ? (
          <p className={styles.completedStatusBadge}>
            <Lock size={22} aria-hidden="true" /> Completed and locked
          </p>
        ) : (
          <p className={styles.completedStatusBadge}>
            <PencilLine size={22} aria-hidden="true" /> In progress
          </p>
        )}
        <p className={styles.completedStatusMeta}>
          {completed
            ? `Completed ${formatDateTime(record.completedAt, '(time not known yet)')}. Read-only: corrections are addenda.`
            : `Started ${formatDateTime(record.createdAt, '(time not known yet)')}.`}
          {onDevice ? null : ' Opened from the server: this device does not hold this case.'}
        </p>
      </section>

      {!completed && onDevice ? <CompletionPanel record={record} vitals={vitals} /> : null}

      <HandoverCard
        logoUrl={logoUrl}
        caseUuid={record.id}
        caseId={record.caseId}
        handover={handover}
        download={download}
        exportFhir={exportFhir}
      />

      {completed || liveAddenda.length > 0 ? (
        <section className={`card ${styles.completedCard}`} aria-labelledby="addenda-heading">
          <div className={styles.completedCardHead}>
            <h2
              id="addenda-heading"
              className={`${formStyles.sectionTitle} ${styles.completedCardTitle}`}
            >
              Addenda
            </h2>
            {completed && onDevice && !adding ? (
              <button
                type="button"
                className="button button--primary"
                onClick={() => setAdding(true)}
              >
                <FilePlus2 size={20} aria-hidden="true" /> Add addendum
              </button>
            ) : null}
          </div>
          {completed && !onDevice ? (
            <p className="field__hint">Addenda are added on a device that holds the case.</p>
          ) : null}
          {adding ? <CaseAddendumForm record={record} onDone={() => setAdding(false)} /> : null}
          {addenda === undefined ? (
            <p role="status">Loading addenda…</p>
          ) : (
            <CaseAddendaList addenda={addenda} authorName={authorName} />
          )}
        </section>
      ) : null}

      <CaseSummary record={record} caseId={record.caseId} editable={!completed && onDevice} />

      <section
        className={`card ${styles.completedCard}`}
        aria-labelledby="completed-vitals-heading"
      >
        <h2 id="completed-vitals-heading" className={formStyles.sectionTitle}>
          Vital signs
        </h2>
        {vitals === undefined ? (
          <p role="status">Loading readings…</p>
        ) : (
          <VitalSignsTable readings={readings(vitals)} ageYears={record.approximateAge ?? null} />
        )}
      </section>

      {user?.role === 'administrator' ? (
        <AdminCaseTools caseId={record.caseId} completed={completed} />
      ) : null}
    </div>
  );
}
