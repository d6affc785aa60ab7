// A labelled field with its hint and error, the frame of every text, number and time control.
import type { ReactNode } from 'react';
import { useRecordForm } from './record-form';
import styles from './record-form.module.css';

interface FieldFrameProps {
  field: string;
  label: string;
  required?: boolean | undefined;
  hint?: ReactNode;
  error?: string | undefined;
  children: ReactNode;
}

export function FieldFrame({ field, label, required, hint, error, children }: FieldFrameProps) {
  const { fieldId } = useRecordForm();
  const id = fieldId(field);
  return (
    <div className={styles.field}>
      <label className={styles.label} htmlFor={id}>
        {label}
        {required ? <span className={styles.required}> (required to complete)</span> : null}
      </label>
      {children}
      {hint ? (
        <p className={styles.hint} id={`${id}-hint`}>
          {hint}
        </p>
      ) : null}
      {error ? (
        <p className={styles.error} id={`${id}-error`} role="alert">
          {error}
        </p>
      ) : null}
    </div>
  );
}

/** The ids of a field's hint and error, for aria-describedby. */
export function describedBy(
  id: string,
  hint: unknown,
  error: string | undefined,
): string | undefined {
  const ids = [hint ? `${id}-hint` : null, error ? `${id}-error` : null].filter(Boolean);
  return ids.length > 0 ? ids.join(' ') : undefined;
}
