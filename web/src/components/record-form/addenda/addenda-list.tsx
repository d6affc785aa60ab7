// The addenda of a locked record, oldest first: who wrote each (the name and call sign the
// addendum was signed with), when, why, and every field's value before and after.
import { formatDateTime } from '@rescuelog/sync-protocol/time';
import styles from './addenda.module.css';

/** An addendum as the device holds it (a kind's addendum record). */
export interface AddendumEntry {
  id: string;
  createdAt?: string | null | undefined;
  deletedAt?: string | null | undefined;
  reason?: string | undefined;
  changes?: readonly { field: string; before?: unknown; after?: unknown }[] | null | undefined;
}

export function AddendaList<A extends AddendumEntry>({
  addenda,
  authorName,
  label,
  format,
}: {
  addenda: readonly A[];
  authorName: (addendum: A) => string;
  /** A field's label; a field the app no longer knows is shown by its name. */
  label: (field: string) => string;
  /** A value as the record's screens show it. */
  format: (field: string, value: unknown) => string;
}) {
  const live = addenda.filter((a) => !a.deletedAt);
  if (live.length === 0) return <p className={styles.empty}>No addenda.</p>;
  return (
    <ol className={styles.list}>
      {live.map((addendum, index) => {
        const headingId = `addendum-${addendum.id}`;
        const changes = addendum.changes ?? [];
        return (
          <li key={addendum.id} className={styles.addendum} aria-labelledby={headingId}>
            <h4 id={headingId} className={styles.title}>
              Addendum {index + 1} · {formatDateTime(addendum.createdAt, 'time not known yet')}
            </h4>
            <p className={styles.author}>By {authorName(addendum)}</p>
            <p className="addendum__reason">
              <span className={styles.reasonLabel}>Reason:</span> {addendum.reason}
            </p>
            {changes.length === 0 ? (
              <p className="addendum__note">A note: no field was changed.</p>
            ) : (
              <div className={styles.tableWrap}>
                <table className={styles.table}>
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
                        <th scope="row">{label(change.field)}</th>
                        <td className={styles.before}>{format(change.field, change.before)}</td>
                        <td className={styles.after}>{format(change.field, change.after)}</td>
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
