// Dates and times are shown in en-GB (spec §2).

const dateTime = new Intl.DateTimeFormat('en-GB', { dateStyle: 'medium', timeStyle: 'short' });
const dateOnly = new Intl.DateTimeFormat('en-GB', {
  day: 'numeric',
  month: 'short',
  year: 'numeric',
});

function toDate(value: string | number | Date | null | undefined): Date | null {
  if (value === null || value === undefined || value === '') return null;
  const d = value instanceof Date ? value : new Date(value);
  return Number.isNaN(d.getTime()) ? null : d;
}

export function formatDateTime(value: string | number | Date | null | undefined): string {
  const d = toDate(value);
  return d ? dateTime.format(d) : 'Unknown time';
}

const HOUR_MS = 60 * 60 * 1000;

/**
 * Relative time for the Recent Cases card: 'Just now' under an hour (and for clock-skewed
 * future times), '1 hour ago', 'N hours ago' up to 23 hours, then the en-GB date
 * (e.g. '19 Nov 2026') because "37 hours ago" is harder to read on scene than a date.
 * A missing or unparsable time is 'Unknown time'.
 */
export function formatRelativeTime(
  value: string | number | Date | null | undefined,
  now: number = Date.now(),
): string {
  const d = toDate(value);
  if (!d) return 'Unknown time';
  const hours = Math.floor((now - d.getTime()) / HOUR_MS);
  if (hours < 1) return 'Just now';
  if (hours === 1) return '1 hour ago';
  if (hours < 24) return `${hours} hours ago`;
  return dateOnly.format(d);
}
