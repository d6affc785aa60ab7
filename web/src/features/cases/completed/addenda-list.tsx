// The addenda of a case, oldest first: who wrote each (the name and call sign the addendum
// was signed with), when, why, and every field's value before and after.
import { CASE_FIELD_LABELS, formatCaseValue } from '@rescuelog/sync-protocol/case/fields';
import type { CaseField } from '@rescuelog/sync-protocol/records/case';
import { CASE_FIELDS } from '@rescuelog/sync-protocol/records/case';
import { formatDateTime } from '@rescuelog/sync-protocol/time';
import type { LocalAddendum } from '../data/use-case';
import styles from './completed.module.css';

const KNOWN_FIELDS = new Set<string>(CASE_FIELDS);

function fieldLabel(field: string): string {
  return KNOWN_FIELDS.has(field) ? CASE_FIELD_LABELS[field as CaseField] : field;
}

function valueText(field: string, value: unknown): string {
  return KNOWN_FIELDS.has(field)
    ? formatCaseValue(field as CaseField, value)
    : JSON.stringify(value ?? null);
}

export function AddendaList({
  addenda,
  authorName,
}: {
  addenda: readonly LocalAddendum[];
  authorName: (addendum: LocalAddendum) => string;
}) {
  const live = addenda.filter((a) => !a.deletedAt);
  if (live.length === 0) return <p className={styles.completedEmpty}>No addenda.</p>;
  return (
    <ol className={styles.addenda}>
      {live.map((addendum, index) => {
        const headingId = `addendum-${addendum.id}`;
        const changes = addendum.changes ?? [];
        return (
          <li key={addendum.id} className={styles.addendum} aria-labelledby={headingId}>
            <h4 id={headingId} className={styles.addendumTitle}>
              Addendum {index + 1} · {formatDateTime(addendum.createdAt, 'time not known yet')}
            </h4>
            <p className={styles.addendumAuthor}>By {authorName(addendum)}</p>
            <p className="addendum__reason">
              <span className={styles.addendumReasonLabel}>Reason:</span> {addendum.reason}
            </p>
            {changes.length === 0 ? (
              <p className="addendum__note">A note: no field was changed.</p>
            ) : (
              <div className={styles.addendumTableWrap}>
                <table className={styles.addendumTable}>
                  <caption className="sr-only">Fields changed by addendum {index + 1}</caption>
                  <thead>
                    <tr>
                      <th scope="col">Field</th>
                      <th scope="col">Before</th>
                      <th scope="col">After</th>
                    </tr>
                  </thead>
                  <tbody>
                    {changes.map((change) => (
                      <tr key={change.field}>
                        <th scope="row">{fieldLabel(change.field)}</th>
                        <td className={styles.addendumBefore}>
                          {valueText(change.field, change.before)}
                        </td>
                        <td className={styles.addendumAfter}>
                          {valueText(change.field, change.after)}
                        </td>
                      </tr>
                    ))}
                  </tbody>
                </table>
              </div>
            )}
          </li>
        );
      })}
    </ol>
  );
}
