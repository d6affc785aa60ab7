// The session's patient case: link an existing case by its number (as on the radio), or start
// a new case for the patient (CPR performed ticked). Both are saved on the device.
import { useId, useState } from 'react';
import { Link } from 'react-router-dom';
import { useLocalRecord } from '@/lib/sync/use-local-records';
import { linkCprSessionToCase, linkCprSessionToNewCase } from '../data/cpr-writes';
import type { LocalCprSession } from '../data/use-cpr-session';
import styles from '../cpr.module.css';

export function CaseLink({ session, readOnly }: { session: LocalCprSession; readOnly: boolean }) {
  const linked = useLocalRecord('case', session.caseId ?? undefined);
  const [number, setNumber] = useState('');
  const [message, setMessage] = useState<string | null>(null);
  const id = useId();
  const fail = (error: unknown) =>
    setMessage(`Not linked: ${error instanceof Error ? error.message : String(error)}`);
  return (
    <div className={styles.caseLink}>
      {session.caseId ? (
        <p className={styles.rowTitle}>
          Linked case:{' '}
          {linked?.caseId ? (
            <Link to={`/patient-details/${linked.caseId}`}>{linked.caseId}</Link>
          ) : (
            'not on this device'
          )}
        </p>
      ) : (
        <p className={styles.muted}>No patient case linked.</p>
      )}
      {!readOnly ? (
        <form
          className={styles.caseLinkForm}
          onSubmit={(e) => {
            e.preventDefault();
            if (!number.trim()) return;
            linkCprSessionToCase(session, number).then((result) => {
              setMessage('error' in result ? result.error : `Linked to case ${result.caseNumber}.`);
              if (!('error' in result)) setNumber('');
            }, fail);
          }}
        >
          <label className="field__label" htmlFor={id}>
            Case number
          </label>
          <input
            id={id}
            className="input"
            value={number}
            autoComplete="off"
            onChange={(e) => setNumber(e.target.value)}
          />
          <button type="submit" className="button">
            Link case
          </button>
          <button
            type="button"
            className="button"
            onClick={() => {
              linkCprSessionToNewCase(session).then(
                (caseNumber) => setMessage(`New case ${caseNumber} started and linked.`),
                fail,
              );
            }}
          >
            New case for this patient
          </button>
        </form>
      ) : null}
      {message ? (
        <p role="status" className={styles.muted}>
          {message}
        </p>
      ) : null}
    </div>
  );
}
