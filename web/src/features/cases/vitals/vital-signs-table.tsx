// Readings over time: one row per time, one column per vital sign. A flag is the word
// ('HIGH' / 'LOW') and a colour; a voided reading stays, struck through, with its reason.
// Where corrections are allowed, tapping a reading opens the void dialog (the reading stays
// on the record; the right value is entered again as a new reading).
import * as Dialog from '@radix-ui/react-dialog';
import { formatDateTime, formatTime, zonedDay } from '@rescuelog/sync-protocol/time';
import { VITAL_SIGNS } from '@rescuelog/sync-protocol/cases/clinical';
import { useId, useState, type FormEvent } from 'react';
import {
  flagText,
  formatReading,
  isVoided,
  readingStatus,
  typesWithReadings,
  vitalLabel,
  type ReadingLike,
} from './vital-display';
import { formStyles } from '@/components/record-form/form-styles';
import styles from './vitals.module.css';
import { cx } from '@/lib/cx';

export interface VitalSignsTableProps {
  readings: readonly ReadingLike[];
  ageYears: number | null;
  /** Given when corrections are allowed: void the reading with this reason. */
  onVoid?: ((reading: ReadingLike, reason: string) => Promise<void>) | undefined;
}

const QUICK_REASONS = [
  'Typing error',
  'Entered in the wrong box',
  'Equipment error',
  'Wrong patient',
];

function sameDay(readings: readonly ReadingLike[]): boolean {
  const days = new Set(readings.map((r) => zonedDay(r.timestamp)));
  return days.size <= 1;
}

export function VitalSignsTable({ readings, ageYears, onVoid }: VitalSignsTableProps) {
  const captionId = useId();
  const [voiding, setVoiding] = useState<ReadingLike | null>(null);
  const shown = readings.filter((r) => !r.deletedAt && r.timestamp);
  if (shown.length === 0) {
    return <p className={styles.empty}>No vital signs recorded yet.</p>;
  }
  const types = typesWithReadings(shown);
  const times = [...new Set(shown.map((r) => r.timestamp ?? ''))].sort();
  const withDate = !sameDay(shown);
  const timeText = (iso: string) => (withDate ? formatDateTime(iso, iso) : formatTime(iso, iso));

  return (
    <>
      <div className={styles.tableWrap} role="region" aria-labelledby={captionId} tabIndex={0}>
        <table className={styles.table}>
          <caption id={captionId} className={styles.tableCaption}>
            Readings over time{onVoid ? ' (tap a reading to void it)' : ''}
          </caption>
          <thead>
            <tr>
              <th scope="col">Time</th>
              {types.map((type) => (
                <th scope="col" key={type}>
                  {vitalLabel(type)}
                  {VITAL_SIGNS[type].unit ? (
                    <span className={styles.tableUnit}> {VITAL_SIGNS[type].unit}</span>
                  ) : null}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {times.map((time) => (
              <tr key={time}>
                <th scope="row" className={styles.tableTime}>
                  {timeText(time)}
                </th>
                {types.map((type) => {
                  const cell = shown.filter((r) => r.timestamp === time && r.type === type);
                  return (
                    <td
                      key={type}
                      data-label={vitalLabel(type)}
                      className={cell.length === 0 ? styles.cellEmpty : undefined}
                    >
                      {cell.map((reading) => (
                        <ReadingCell
                          key={reading.id}
                          reading={reading}
                          ageYears={ageYears}
                          time={timeText(time)}
                          onVoid={onVoid ? () => setVoiding(reading) : undefined}
                        />
                      ))}
                    </td>
                  );
                })}
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      {onVoid ? (
        <VoidDialog
          reading={voiding}
          ageYears={ageYears}
          timeText={voiding?.timestamp ? timeText(voiding.timestamp) : ''}
          onClose={() => setVoiding(null)}
          onVoid={onVoid}
        />
      ) : null}
    </>
  );
}

function ReadingCell({
  reading,
  ageYears,
  time,
  onVoid,
}: {
  reading: ReadingLike;
  ageYears: number | null;
  time: string;
  onVoid: (() => void) | undefined;
}) {
  if (isVoided(reading)) {
    return (
      <span className={cx(styles.reading, styles.readingVoid)}>
        <del>
          <span className="sr-only">Voided: </span>
          {reading.value}
        </del>
        <span className={styles.readingReason}>
          Voided{reading.voidReason ? `: ${reading.voidReason}` : ''}
        </span>
      </span>
    );
  }
  const status = readingStatus(reading, ageYears);
  const flag = flagText(status);
  const content = (
    <>
      <span className={styles.readingValue}>{reading.value}</span>
      {flag ? (
        <>
          {' '}
          <span className={cx(styles.flag, styles[`flag-${status ?? 'normal'}`])}>{flag}</span>
        </>
      ) : null}
    </>
  );
  if (!onVoid)
    return (
      <span className={cx(styles.reading, styles[`reading-${status ?? 'normal'}`])}>{content}</span>
    );
  return (
    <button
      type="button"
      className={cx(styles.reading, styles[`reading-${status ?? 'normal'}`], styles.readingButton)}
      aria-label={`Void ${vitalLabel(reading.type)} ${reading.value}${flag ? ` ${flag}` : ''}, ${time}`}
      onClick={onVoid}
    >
      {content}
    </button>
  );
}

function VoidDialog({
  reading,
  ageYears,
  timeText,
  onClose,
  onVoid,
}: {
  reading: ReadingLike | null;
  ageYears: number | null;
  timeText: string;
  onClose: () => void;
  onVoid: (reading: ReadingLike, reason: string) => Promise<void>;
}) {
  const [reason, setReason] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const reasonId = useId();
  const close = () => {
    setReason('');
    setError(null);
    onClose();
  };
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (!reading || busy) return;
    if (reason.trim() === '') {
      setError('A reason is required');
      return;
    }
    setBusy(true);
    try {
      await onVoid(reading, reason.trim());
      close();
    } catch (e) {
      setError(`Could not void on this device: ${e instanceof Error ? e.message : String(e)}`);
    } finally {
      setBusy(false);
    }
  };
  const flag = reading ? flagText(readingStatus(reading, ageYears)) : '';
  return (
    <Dialog.Root open={reading !== null} onOpenChange={(open) => (open ? undefined : close())}>
      <Dialog.Portal>
        <Dialog.Overlay className="dialog-overlay" />
        <Dialog.Content className="dialog">
          <Dialog.Title className="dialog__title">Void this reading?</Dialog.Title>
          <Dialog.Description className="dialog__description">
            {reading
              ? `${vitalLabel(reading.type)} ${formatReading(reading.type, reading.value)}${flag ? ` ${flag}` : ''} at ${timeText}. `
              : ''}
            It stays on the record, struck through, with your reason. Then enter the right value as
            a new reading.
          </Dialog.Description>
          <form className={styles.void} noValidate onSubmit={(e) => void submit(e)}>
            <div className={styles.voidQuick} role="group" aria-label="Common reasons">
              {QUICK_REASONS.map((r) => (
                <button
                  key={r}
                  type="button"
                  className="button button--secondary"
                  aria-pressed={reason === r}
                  onClick={() => setReason(r)}
                >
                  {r}
                </button>
              ))}
            </div>
            <label className={formStyles.label} htmlFor={reasonId}>
              Reason
            </label>
            <input
              id={reasonId}
              className={`input ${formStyles.textInput}`}
              type="text"
              value={reason}
              maxLength={2000}
              aria-invalid={error ? true : undefined}
              aria-describedby={error ? `${reasonId}-error` : undefined}
              onChange={(e) => {
                setReason(e.target.value);
                setError(null);
              }}
            />
            {error ? (
              <p className={formStyles.error} id={`${reasonId}-error`} role="alert">
                {error}
              </p>
            ) : null}
            <div className="dialog__actions">
              <Dialog.Close className="button button--secondary" type="button">
                Cancel
              </Dialog.Close>
              <button type="submit" className="button button--danger" disabled={busy}>
                Void reading
              </button>
            </div>
          </form>
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}
