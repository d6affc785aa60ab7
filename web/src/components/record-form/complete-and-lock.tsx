// "Complete" for a record still in progress, on any record screen: the validation summary
// (what is still missing, grouped, each a link that opens the field), then a confirmation,
// then the record is completed and locked (corrections after that go another way, e.g. case
// addenda). The record's own rules decide what is missing; the same mutator refuses an
// incomplete completion on the device and on the server.
import { AlertTriangle, CheckCircle2, Lock } from 'lucide-react';
import { useRef, useState } from 'react';
import { Link } from 'react-router-dom';
import { ConfirmDialog } from '@/components/ui/confirm-dialog';
import formStyles from './record-form.module.css';
import styles from './complete-and-lock.module.css';

export interface MissingItem {
  /** Unique within the list, e.g. the field's name. */
  key: string;
  /** The group it is shown under (e.g. the case step). */
  group: string;
  message: string;
  /** Where the link opens the field (its screen and `#field-…`). */
  href: string;
}

interface CompleteAndLockProps {
  title: string;
  note: string;
  /** null while the record is still being read. */
  missing: readonly MissingItem[] | null;
  /** Group keys and titles, in the order they are shown. */
  groups: readonly { key: string; title: string }[];
  confirmTitle: string;
  confirmDescription: string;
  confirmLabel: string;
  buttonLabel: string;
  /** Shown when nothing is missing, e.g. 'Everything needed to complete this case is recorded.' */
  readyText: string;
  /** Before the reason a completion failed on the device, e.g. 'Could not complete the case on this device'. */
  errorText: string;
  /** Completes and locks; may throw (shown as the error). Checked again before it runs. */
  onComplete: () => Promise<void>;
  /** Re-checks what is missing now (another tab may have changed the record). */
  stillMissing: () => number;
}

export function CompleteAndLock({
  title,
  note,
  missing,
  groups,
  confirmTitle,
  confirmDescription,
  confirmLabel,
  buttonLabel,
  readyText,
  errorText,
  onComplete,
  stillMissing,
}: CompleteAndLockProps) {
  const [confirming, setConfirming] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const headingRef = useRef<HTMLHeadingElement>(null);

  const start = () => {
    setError(null);
    if (missing && missing.length > 0) {
      headingRef.current?.focus();
      return;
    }
    setConfirming(true);
  };

  const confirm = async () => {
    if (stillMissing() > 0) return;
    setBusy(true);
    try {
      await onComplete();
    } catch (e) {
      setError(e instanceof Error ? e.message : String(e));
    } finally {
      setBusy(false);
    }
  };

  return (
    <section className={`card ${styles.panel} completion`} aria-labelledby="completion-heading">
      <h2 id="completion-heading" className={formStyles.sectionTitle}>
        {title}
      </h2>
      <p className={styles.note}>{note}</p>

      {missing === null ? (
        <p role="status">Checking the record…</p>
      ) : missing.length === 0 ? (
        <p className={styles.ready} role="status">
          <CheckCircle2 size={22} aria-hidden="true" /> {readyText}
        </p>
      ) : (
        <div className={styles.problems}>
          <h3 ref={headingRef} tabIndex={-1} className={styles.problemsTitle}>
            <AlertTriangle size={20} aria-hidden="true" />{' '}
            {missing.length === 1
              ? '1 thing to finish'
              : `${String(missing.length)} things to finish`}{' '}
            before completing
          </h3>
          {groups
            .filter((g) => missing.some((m) => m.group === g.key))
            .map((group) => (
              <div key={group.key} className="completion__step">
                <h4 className={styles.groupTitle}>{group.title}</h4>
                <ul className={styles.list}>
                  {missing
                    .filter((m) => m.group === group.key)
                    .map((m) => (
                      <li key={m.key}>
                        <Link to={m.href} className={styles.link}>
                          {m.message}
                        </Link>
                      </li>
                    ))}
                </ul>
              </div>
            ))}
        </div>
      )}

      {error ? (
        <p className={formStyles.error} role="alert">
          {errorText}: {error}
        </p>
      ) : null}

      <button
        type="button"
        className={`button button--primary ${styles.button}`}
        onClick={start}
        disabled={busy || missing === null}
      >
        <Lock size={20} aria-hidden="true" /> {buttonLabel}
      </button>

      <ConfirmDialog
        open={confirming}
        onOpenChange={setConfirming}
        title={confirmTitle}
        description={confirmDescription}
        confirmLabel={confirmLabel}
        onConfirm={() => void confirm()}
      />
    </section>
  );
}
