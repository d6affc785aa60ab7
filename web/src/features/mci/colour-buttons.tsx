// The colours of an incident's triage scale as big buttons (decision 070): one tap tags or
// re-triages. A proposed colour (START/JumpSTART) is marked; any other is an override.
import type { TriageColour } from '@rescuelog/sync-protocol/cases/clinical';
import { colourLabel, SCALE_COLOURS, type TriageScale } from '@rescuelog/sync-protocol/mci/triage';
import { cx } from '@/lib/cx';
import styles from './mci.module.css';

export function colourClass(colour: TriageColour): string {
  return styles[`colour${colour}`] ?? '';
}

export function ColourChip({ colour, scale }: { colour: TriageColour; scale: TriageScale }) {
  return (
    <span className={cx(styles.chip, colourClass(colour))}>
      {colour} <span className={styles.chipLabel}>{colourLabel(colour, scale)}</span>
    </span>
  );
}

export function ColourButtons({
  scale,
  legend,
  proposed,
  disabled,
  onPick,
}: {
  scale: TriageScale;
  legend: string;
  proposed?: TriageColour | null;
  disabled?: boolean;
  onPick: (colour: TriageColour) => void;
}) {
  return (
    <fieldset className={styles.colourSet}>
      <legend className={styles.legend}>{legend}</legend>
      <div className={styles.colourGrid}>
        {SCALE_COLOURS[scale].map((colour) => (
          <button
            key={colour}
            type="button"
            disabled={disabled}
            className={cx(
              styles.colourButton,
              colourClass(colour),
              colour === proposed && styles.proposed,
            )}
            onClick={() => onPick(colour)}
          >
            <span className={styles.colourName}>{colour}</span>
            <span className={styles.colourWord}>
              {colour === proposed ? 'Proposed: ' : ''}
              {colourLabel(colour, scale)}
            </span>
          </button>
        ))}
      </div>
    </fieldset>
  );
}
