// The app's one date input (issue 37, decision 085). A browser's own date and time inputs show
// the browser's locale ('11/28/2026, 02:05 PM' beside the app's '28 Nov 2026, 14:05'), so every
// date in the app is typed as text in the one format the formatter shows, and read by
// time.ts (parseTypedDateTime / parseTypedDate, day before month, in the service's zone).
// The value it speaks is the one a `datetime-local` (or `date`) input would: '2026-11-28T14:05'
// ('2026-11-28'), so the screens' own logic does not change. Most times are set with the
// screens' one-tap "Now"; typing is the exception, and a text it cannot read is said so on
// leaving the field, never silently dropped.
import {
  TYPED_DATE_EXAMPLE,
  TYPED_DATE_MESSAGES,
  TYPED_DATE_TIME_EXAMPLE,
  formatTypedDate,
  formatTypedDateTime,
  parseTypedDate,
  parseTypedDateTime,
} from '@rescuelog/sync-protocol/time';
import { useState, type InputHTMLAttributes, type Ref } from 'react';

export interface TypedDateInputProps extends Omit<
  InputHTMLAttributes<HTMLInputElement>,
  'value' | 'onChange' | 'type' | 'ref' | 'onInvalid'
> {
  /** 'date-time': '2026-11-28T14:05' in the service's zone; 'date': '2026-11-28'. */
  mode?: 'date-time' | 'date';
  /** The value, '' for none. */
  value: string;
  /** A value read from the text as it is typed, or '' when the field is left empty.
   * Unreadable text sends nothing. */
  onChange: (value: string) => void;
  /** The message for text it cannot read (on leaving the field), undefined once it can. */
  onUnreadable?: (message: string | undefined) => void;
  ref?: Ref<HTMLInputElement>;
}

export function TypedDateInput({
  mode = 'date-time',
  value,
  onChange,
  onUnreadable,
  onBlur,
  onFocus,
  ref,
  ...input
}: TypedDateInputProps) {
  const format = mode === 'date' ? formatTypedDate : formatTypedDateTime;
  const parse = mode === 'date' ? parseTypedDate : parseTypedDateTime;
  const shownValue = format(value);
  const [draft, setDraft] = useState(shownValue);
  const [seen, setSeen] = useState(shownValue);
  const [focused, setFocused] = useState(false);
  // A new value from outside ("Now", a sync, a reset, a clock) replaces what the field shows,
  // unless someone is typing in it or the text already means that value.
  if (seen !== shownValue && !focused) {
    setSeen(shownValue);
    if (parse(draft) !== value) setDraft(shownValue);
  }
  return (
    <input
      {...input}
      ref={ref}
      type="text"
      inputMode="text"
      autoComplete="off"
      spellCheck={false}
      placeholder={
        input.placeholder ?? (mode === 'date' ? TYPED_DATE_EXAMPLE : TYPED_DATE_TIME_EXAMPLE)
      }
      value={draft}
      onFocus={(e) => {
        setFocused(true);
        onFocus?.(e);
      }}
      onChange={(e) => {
        const text = e.target.value;
        setDraft(text);
        // Emptied: said on leaving the field (select-all and retype must not clear first).
        if (text.trim() === '') {
          onUnreadable?.(undefined);
          return;
        }
        const parsed = parse(text);
        if (parsed !== null) {
          onUnreadable?.(undefined);
          if (parsed !== value) onChange(parsed);
        }
      }}
      onBlur={(e) => {
        setFocused(false);
        const text = draft.trim();
        const parsed = text === '' ? '' : parse(text);
        if (parsed === null) {
          onUnreadable?.(mode === 'date' ? TYPED_DATE_MESSAGES.date : TYPED_DATE_MESSAGES.dateTime);
        } else if (parsed === '') {
          if (value !== '') onChange('');
        } else {
          // Read: shown the one way the app writes dates.
          setDraft(format(parsed));
        }
        onBlur?.(e);
      }}
    />
  );
}
