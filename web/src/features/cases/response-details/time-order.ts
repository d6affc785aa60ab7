// Times that should not run backwards (the same pairs completion checks). On the step they
// are only a warning: a time can be typed out of order for a moment, and capture never
// blocks; Complete Case is where they must be right.
import { TIME_ORDER, type ResponseTimeField } from '@rescuelog/sync-protocol/cases/completion';
import { CASE_FIELD_LABELS } from '@rescuelog/sync-protocol/cases/fields';
import type { CaseField } from '@rescuelog/sync-protocol/cases/case-schema';
import type { LocalCase } from '../data/use-case';

export interface TimeOrderWarning {
  field: ResponseTimeField;
  message: string;
}

function ms(value: unknown): number | null {
  if (typeof value !== 'string' || value === '') return null;
  const t = Date.parse(value);
  return Number.isFinite(t) ? t : null;
}

const label = (field: CaseField) => CASE_FIELD_LABELS[field];

/** One warning per time that is before a time it should follow. */
export function timeOrderWarnings(record: Pick<LocalCase, ResponseTimeField>): TimeOrderWarning[] {
  const warnings: TimeOrderWarning[] = [];
  for (const [earlier, later] of TIME_ORDER) {
    const a = ms(record[earlier]);
    const b = ms(record[later]);
    if (a === null || b === null || b >= a) continue;
    if (warnings.some((w) => w.field === later)) continue;
    warnings.push({
      field: later,
      message: `${label(later)} is before the ${label(earlier).toLowerCase()}: check both.`,
    });
  }
  return warnings;
}
