// "Complete case" for a case still in progress: the completion check (the same rules the
// server runs again on case.complete) over what the device holds, each problem a link that
// opens its step with the field focused; with nothing left, a confirmation, then the case is
// completed and locked. Nothing here blocks saving a draft: every step saved as it went.
import { fieldDomId } from '@rescuelog/sync-protocol/case/fields';
import {
  validateCaseForCompletion,
  type CompletionProblem,
} from '@rescuelog/sync-protocol/case/completion';
import { CASE_STEPS, stepPath } from '@rescuelog/sync-protocol/case/steps';
import { AlertTriangle, CheckCircle2, Lock } from 'lucide-react';
import { useRef, useState } from 'react';
import { Link } from 'react-router-dom';
import { ConfirmDialog } from '@/components/ui/confirm-dialog';
import { toast } from '@/lib/toast-store';
import { completeCase } from '../data/case-writes';
import type { LocalCase, LocalVitalSign } from '../data/use-case';
import styles from './completed.module.css';

export function completionProblems(
  record: Partial<LocalCase>,
  vitals: readonly LocalVitalSign[],
): CompletionProblem[] {
  return validateCaseForCompletion(
    record,
    vitals.map((v) => ({
      type: v.type ?? '',
      voidedAt: v.voidedAt ?? null,
      deletedAt: v.deletedAt ?? null,
    })),
  );
}

/** Where a problem's link goes: its step, scrolled to and focusing the field. */
export function problemHref(problem: CompletionProblem, caseId: string): string {
  return `${stepPath(problem.step, caseId)}#${fieldDomId(problem.field)}`;
}

export function CompletionPanel({
  record,
  vitals,
}: {
  record: LocalCase & { caseId: string };
  vitals: readonly LocalVitalSign[] | undefined;
}) {
  const [confirming, setConfirming] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const headingRef = useRef<HTMLHeadingElement>(null);
  const problems = vitals === undefined ? null : completionProblems(record, vitals);

  const start = () => {
    setError(null);
    if (problems && problems.length > 0) {
      headingRef.current?.focus();
      return;
    }
    setConfirming(true);
  };

  const confirm = async () => {
    // Check again with what the device holds now (another tab may have changed it).
    if (!vitals || completionProblems(record, vitals).length > 0) return;
    setBusy(true);
    try {
      await completeCase(record);
      toast({
        title: 'Case completed',
        description: `Case ${record.caseId} is locked. Corrections are added as addenda.`,
      });
    } catch (e) {
      setError(e instanceof Error ? e.message : String(e));
    } finally {
      setBusy(false);
    }
  };

  return (
    <section
      className={`card ${styles.completedCard} completion`}
      aria-labelledby="completion-heading"
    >
      <h2 id="completion-heading" className="case-section__title">
        Complete case
      </h2>
      <p className={styles.completionNote}>
        Everything is saved on this device as you go, so the case can stay in progress and be
        finished later. Completing it locks the record; corrections after that are addenda with a
        reason.
      </p>

      {problems === null ? (
        <p role="status">Checking the record…</p>
      ) : problems.length === 0 ? (
        <p className={styles.completionReady} role="status">
          <CheckCircle2 size={22} aria-hidden="true" /> Everything needed to complete this case is
          recorded.
        </p>
      ) : (
        <div className={styles.completionProblems}>
          <h3 ref={headingRef} tabIndex={-1} className={styles.completionProblemsTitle}>
            <AlertTriangle size={20} aria-hidden="true" />{' '}
            {problems.length === 1
              ? '1 thing to finish'
              : `${String(problems.length)} things to finish`}{' '}
            before completing
          </h3>
          {CASE_STEPS.filter((s) => problems.some((p) => p.step === s.key)).map((step) => (
            <div key={step.key} className="completion__step">
              <h4 className={styles.completionStepTitle}>{step.title}</h4>
              <ul className={styles.completionList}>
                {problems
                  .filter((p) => p.step === step.key)
                  .map((p) => (
                    <li key={p.field}>
                      <Link to={problemHref(p, record.caseId)} className={styles.completionLink}>
                        {p.message}
                      </Link>
                    </li>
                  ))}
              </ul>
            </div>
          ))}
        </div>
      )}

      {error ? (
        <p className="case-field__error" role="alert">
          Could not complete the case on this device: {error}
        </p>
      ) : null}

      <button
        type="button"
        className={`button button--primary ${styles.completionButton}`}
        onClick={start}
        disabled={busy || problems === null}
      >
        <Lock size={20} aria-hidden="true" /> Complete case
      </button>

      <ConfirmDialog
        open={confirming}
        onOpenChange={setConfirming}
        title="Complete and lock this case?"
        description={`Case ${record.caseId} becomes read-only. Corrections after this are addenda: who, when, why, and each field before and after. The completion reaches the server when this device syncs.`}
        confirmLabel="Complete and lock"
        onConfirm={() => void confirm()}
      />
    </section>
  );
}
