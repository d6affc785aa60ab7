// Conflicts on a record screen (decision 015): when two devices changed the same field of
// this record from the same version, the server kept the later value and both values. The
// record shows each open one at the top — the field, both values, who and when — so the
// person whose value was replaced sees it here, offline, and knows an administrator will
// decide. Any record screen uses it (cases now; CPR, MCI and incident reports next).
import { appRegistry } from '@rescuelog/sync-protocol/records/registry';
import { formatDateTime } from '@rescuelog/sync-protocol/time';
import { GitCompare } from 'lucide-react';
import { useLocalList } from '@/lib/sync/use-local-records';
import { useSyncSession } from '@/lib/sync/use-sync';
import styles from './record-conflicts.module.css';
import { valueText } from './value-text';

interface RecordConflictsProps {
  /** The record's kind: its field labels come from its definition. */
  kind: string;
  recordId: string;
}

export function RecordConflicts({ kind, recordId }: RecordConflictsProps) {
  const session = useSyncSession();
  const conflicts = useLocalList('syncConflict', { where: 'entityId', equals: recordId });
  const open = (conflicts?.records ?? []).filter((c) => (c.resolvedAt ?? null) === null);
  if (open.length === 0) return null;
  const me = session?.userId;
  const labels = appRegistry.has(kind) ? appRegistry.get(kind).fieldLabels : undefined;
  const fieldLabel = (field: string) => labels?.[field] ?? field;
  const who = (id: number | null | undefined, name: string | null | undefined) =>
    id !== undefined && id !== null && id === me ? 'you' : (name ?? 'another responder');
  return (
    <section className={styles.conflicts} aria-labelledby={`conflicts-${recordId}`}>
      <h2 id={`conflicts-${recordId}`} className={styles.title}>
        <GitCompare aria-hidden="true" size={22} />
        {open.length === 1
          ? 'Changed on two devices at once'
          : `${String(open.length)} fields changed on two devices at once`}
      </h2>
      <ul className={styles.list}>
        {open.map((c) => (
          <li key={c.id} className={styles.item}>
            <p className={styles.field}>{fieldLabel(c.field ?? '')}</p>
            <dl className={styles.values}>
              <dt>Kept now, entered by {who(c.clientAuthor, c.clientAuthorName)}</dt>
              <dd>{valueText(c.clientValue)}</dd>
              <dt>Replaced, entered by {who(c.serverAuthor, c.serverAuthorName)}</dt>
              <dd>{valueText(c.serverValue)}</dd>
            </dl>
            <p className="text-muted">
              {c.createdAt ? `Noticed ${formatDateTime(c.createdAt)}. ` : ''}An administrator will
              decide which value to keep; both are saved.
            </p>
          </li>
        ))}
      </ul>
    </section>
  );
}
