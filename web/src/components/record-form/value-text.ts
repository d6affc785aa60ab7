// A field's value as a person reads it on a record screen, in the inbox and on the
// conflict review: text as typed, yes/no, lists joined, times in the service's time zone.
import { formatDateTime } from '@rescuelog/sync-protocol/time';

const ISO_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}/;

export function valueText(value: unknown): string {
  if (value === null || value === undefined || value === '') return '(empty)';
  if (typeof value === 'boolean') return value ? 'Yes' : 'No';
  if (typeof value === 'string') return ISO_TIME.test(value) ? formatDateTime(value) : value;
  if (typeof value === 'number') return String(value);
  if (Array.isArray(value)) return value.length === 0 ? '(empty)' : value.map(valueText).join(', ');
  return JSON.stringify(value);
}
