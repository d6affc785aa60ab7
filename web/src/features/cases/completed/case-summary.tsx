// The whole record, read-only, step by step in the order the capture screens show the fields
// (CASE_FIELD_ORDER). Empty answers (and checkboxes left at their default, unticked) are
// hidden so the record reads like a report; "Show empty fields" lists every field, which is
// how a reviewer checks what was never answered.
import {
  CASE_FIELD_LABELS,
  CASE_FIELD_ORDER,
  FIELD_STEP,
  formatCaseValue,
  isEmptyCaseValue,
} from '@rescuelog/sync-protocol/cases/fields';
import { CASE_STEPS, stepPath, type CaseStepKey } from '@rescuelog/sync-protocol/cases/steps';
import { CASE_FIELD_DEFAULTS, type CaseField } from '@rescuelog/sync-protocol/cases/case-schema';
import { useId, useState } from 'react';
import { Link } from 'react-router-dom';
import type { LocalCase } from '../data/use-case';
import { formStyles } from '@/components/record-form/form-styles';
import styles from './completed.module.css';
import { cx } from '@/lib/cx';

/** Nothing worth showing: empty, or still the default of an always-set field (an unticked box). */
export function isUnanswered(field: CaseField, value: unknown): boolean {
  if (isEmptyCaseValue(value)) return true;
  return value === false && CASE_FIELD_DEFAULTS[field] === false;
}

const SUMMARY_STEPS = CASE_STEPS.filter((s) => s.key !== 'case-completed');

export function CaseSummary({
  record,
  caseId,
  editable,
}: {
  record: Partial<LocalCase>;
  caseId: string;
  editable: boolean;
}) {
  const [showAll, setShowAll] = useState(false);
  const toggleId = useId();
  return (
    <section className={`card ${styles.completedCard}`} aria-labelledby="case-record-heading">
      <div className={styles.completedCardHead}>
        <h2
          id="case-record-heading"
          className={`${formStyles.sectionTitle} ${styles.completedCardTitle}`}
        >
          Case record
        </h2>
        <label className={styles.completedToggle} htmlFor={toggleId}>
          <input
            id={toggleId}
            type="checkbox"
            checked={showAll}
            onChange={(e) => setShowAll(e.target.checked)}
          />
          Show empty fields
        </label>
      </div>
      {SUMMARY_STEPS.map((step) => (
        <StepSummary
          key={step.key}
          step={step.key}
          title={step.title}
          record={record}
          caseId={caseId}
          showAll={showAll}
          editable={editable}
        />
      ))}
    </section>
  );
}

function StepSummary({
  step,
  title,
  record,
  caseId,
  showAll,
  editable,
}: {
  step: CaseStepKey;
  title: string;
  record: Partial<LocalCase>;
  caseId: string;
  showAll: boolean;
  editable: boolean;
}) {
  const fields = CASE_FIELD_ORDER.filter((f) => FIELD_STEP[f] === step);
  const shown = showAll ? fields : fields.filter((f) => !isUnanswered(f, record[f]));
  const headingId = `summary-${step}`;
  return (
    <section className={styles.summaryStep} aria-labelledby={headingId}>
      <div className={styles.summaryStepHead}>
        <h3 id={headingId} className={styles.summaryStepTitle}>
          {title}
        </h3>
        {editable ? (
          <Link
            to={stepPath(step, caseId)}
            className="button summary-step__edit"
            aria-label={`Edit ${title}`}
          >
            Edit
          </Link>
        ) : null}
      </div>
      {shown.length === 0 ? (
        <p className={styles.summaryStepEmpty}>Nothing recorded on this step.</p>
      ) : (
        <dl className={styles.summaryList}>
          {shown.map((field) => {
            const value = record[field];
            const empty = isUnanswered(field, value);
            return (
              <div
                key={field}
                className={cx(styles.summaryListRow, empty && styles.summaryListRowEmpty)}
              >
                <dt>{CASE_FIELD_LABELS[field]}</dt>
                <dd>
                  {empty && typeof value !== 'boolean'
                    ? 'Not recorded'
                    : formatCaseValue(field, value)}
                </dd>
              </div>
            );
          })}
        </dl>
      )}
    </section>
  );
}
