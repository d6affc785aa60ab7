import { TypedDateInput, type TypedDateInputProps } from './typed-date-input';
import {
  useId,
  useState,
  type InputHTMLAttributes,
  type ReactNode,
  type Ref,
  type SelectHTMLAttributes,
  type TextareaHTMLAttributes,
} from 'react';

interface FieldShellProps {
  id: string;
  label: string;
  required?: boolean | undefined;
  error?: string | undefined;
  hint?: ReactNode;
  children: ReactNode;
}

function FieldShell({ id, label, required, error, hint, children }: FieldShellProps) {
  return (
    <div className="field">
      <label className="field__label" htmlFor={id}>
        {label}
        {required ? (
          <span className="field__required" aria-hidden="true">
            {' '}
            *
          </span>
        ) : null}
      </label>
      {children}
      {hint ? (
        <p className="field__hint" id={`${id}-hint`}>
          {hint}
        </p>
      ) : null}
      {error ? (
        <p className="field__error" id={`${id}-error`} role="alert">
          {error}
        </p>
      ) : null}
    </div>
  );
}

function describedBy(id: string, error: string | undefined, hint: ReactNode): string | undefined {
  const ids = [hint ? `${id}-hint` : null, error ? `${id}-error` : null].filter(Boolean);
  return ids.length > 0 ? ids.join(' ') : undefined;
}

type TextFieldProps = Omit<InputHTMLAttributes<HTMLInputElement>, 'id'> & {
  label: string;
  error?: string | undefined;
  hint?: ReactNode;
  ref?: Ref<HTMLInputElement>;
};

/** A labelled input with its error shown at the field and announced (spec §5 messages). */
export function TextField({ label, error, hint, required, ref, ...input }: TextFieldProps) {
  const id = useId();
  return (
    <FieldShell id={id} label={label} required={required} error={error} hint={hint}>
      <input
        {...input}
        ref={ref}
        id={id}
        className="input"
        aria-required={required || undefined}
        aria-invalid={error ? true : undefined}
        aria-describedby={describedBy(id, error, hint)}
      />
    </FieldShell>
  );
}

type TextAreaFieldProps = Omit<TextareaHTMLAttributes<HTMLTextAreaElement>, 'id'> & {
  label: string;
  error?: string | undefined;
  hint?: ReactNode;
  ref?: Ref<HTMLTextAreaElement>;
};

/** A labelled multi-line text input, with its error and hint like TextField's. */
export function TextAreaField({
  label,
  error,
  hint,
  required,
  ref,
  ...textarea
}: TextAreaFieldProps) {
  const id = useId();
  return (
    <FieldShell id={id} label={label} required={required} error={error} hint={hint}>
      <textarea
        {...textarea}
        ref={ref}
        id={id}
        className="input"
        aria-required={required || undefined}
        aria-invalid={error ? true : undefined}
        aria-describedby={describedBy(id, error, hint)}
      />
    </FieldShell>
  );
}

type SelectFieldProps = Omit<SelectHTMLAttributes<HTMLSelectElement>, 'id'> & {
  label: string;
  error?: string | undefined;
  ref?: Ref<HTMLSelectElement>;
  children: ReactNode;
};

export function SelectField({
  label,
  error,
  required,
  ref,
  children,
  ...select
}: SelectFieldProps) {
  const id = useId();
  return (
    <FieldShell id={id} label={label} required={required} error={error}>
      <select
        {...select}
        ref={ref}
        id={id}
        className="input"
        aria-required={required || undefined}
        aria-invalid={error ? true : undefined}
        aria-describedby={describedBy(id, error, undefined)}
      >
        {children}
      </select>
    </FieldShell>
  );
}

type DateTimeFieldProps = Omit<TypedDateInputProps, 'id' | 'onUnreadable'> & {
  label: string;
  error?: string | undefined;
  hint?: ReactNode;
};

/** A labelled date (or date and time) in the app's one format (typed-date-input.tsx); text it
 * cannot read is said at the field, unless the screen's own error is showing. */
export function DateTimeField({ label, error, hint, required, ...input }: DateTimeFieldProps) {
  const id = useId();
  const [unreadable, setUnreadable] = useState<string | undefined>();
  const shown = error ?? unreadable;
  return (
    <FieldShell id={id} label={label} required={required} error={shown} hint={hint}>
      <TypedDateInput
        {...input}
        id={id}
        className="input"
        aria-required={required || undefined}
        aria-invalid={shown ? true : undefined}
        aria-describedby={describedBy(id, shown, hint)}
        onUnreadable={setUnreadable}
      />
    </FieldShell>
  );
}
