// A message in the flow of a screen (a locked record, an unsafe scene, a refusal, a GPS fix):
// icon and text side by side, in one tone's colours.
import type { HTMLAttributes } from 'react';
import { cx } from '@/lib/cx';
import styles from './callout.module.css';

export type CalloutTone = 'info' | 'success' | 'warning' | 'danger';

interface CalloutProps extends HTMLAttributes<HTMLElement> {
  tone: CalloutTone;
  /** Less padding (a note inside a panel). */
  compact?: boolean;
  /** Bolder text (a warning that must be read). */
  strong?: boolean;
  /** A paragraph when the message is one run of text (the default is a div). */
  as?: 'div' | 'p';
}

export function Callout({
  tone,
  compact = false,
  strong = false,
  as: Tag = 'div',
  className,
  ...rest
}: CalloutProps) {
  return (
    <Tag
      className={cx(
        styles.callout,
        compact && styles.compact,
        strong && styles.strong,
        styles[tone],
        className,
      )}
      {...rest}
    />
  );
}
