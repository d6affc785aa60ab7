// The normal range for the patient's age under a reading (a span, to sit in a hint), and
// its flag in words once there is a value: 'HIGH Normal range (Adult): 12–20 /min'.
import {
  classifyVital,
  formatNormalRange,
  normalRange,
} from '@rescuelog/sync-protocol/cases/vital-ranges';
import type { VitalSignType } from '@rescuelog/sync-protocol/cases/clinical';
import { flagText } from './vital-display';
import styles from './vitals.module.css';
import { cx } from '@/lib/cx';

export function VitalRangeNote({
  type,
  value,
  ageYears,
  id,
}: {
  type: VitalSignType;
  value: string;
  ageYears: number | null;
  id?: string;
}) {
  const range = normalRange(type, ageYears);
  if (!range) return null;
  const status = value.trim() === '' ? null : classifyVital(type, value, ageYears);
  const flag = flagText(status);
  return (
    <span className={styles.range} id={id}>
      {flag ? (
        <span className={cx(styles.flag, styles[`flag-${status ?? 'normal'}`])}>{flag}</span>
      ) : null}
      {status === 'normal' ? (
        <span className={cx(styles.flag, styles['flag-normal'])}>In range</span>
      ) : null}
      <span className="vital-range__text">
        Normal range ({range.label}): {formatNormalRange(range)}
      </span>
    </span>
  );
}
