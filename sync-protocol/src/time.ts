// The one way the product shows time: every screen, PDF and export formats instants here, in
// the service's time zone (Africa/Johannesburg unless System Settings say otherwise), en-GB,
// 24-hour clock. A crew member on a tablet set to another zone, the administrator's laptop
// and a printed handover all read the same clock time for the same moment.
//
// The zone is one value per running app: the web app and the API set it from the system
// settings (setServiceTimeZone) and everything formats through it. Calendar-day arithmetic in
// the zone (search filters, stats boundaries, datetime inputs) lives here too.

export const DEFAULT_SERVICE_TIME_ZONE = 'Africa/Johannesburg';

/** True when the runtime knows the IANA zone name (e.g. 'Africa/Johannesburg'). */
export function isValidTimeZone(zone: string): boolean {
  if (zone.trim() === '') return false;
  try {
    new Intl.DateTimeFormat('en-GB', { timeZone: zone });
    return true;
  } catch {
    return false;
  }
}

interface Formatters {
  zone: string;
  dateTime: Intl.DateTimeFormat;
  date: Intl.DateTimeFormat;
  time: Intl.DateTimeFormat;
  timeWithSeconds: Intl.DateTimeFormat;
}

function makeFormatters(zone: string): Formatters {
  const base = { timeZone: zone, hourCycle: 'h23' } as const;
  return {
    zone,
    dateTime: new Intl.DateTimeFormat('en-GB', {
      ...base,
      day: 'numeric',
      month: 'short',
      year: 'numeric',
      hour: '2-digit',
      minute: '2-digit',
    }),
    date: new Intl.DateTimeFormat('en-GB', {
      timeZone: zone,
      day: 'numeric',
      month: 'short',
      year: 'numeric',
    }),
    time: new Intl.DateTimeFormat('en-GB', { ...base, hour: '2-digit', minute: '2-digit' }),
    timeWithSeconds: new Intl.DateTimeFormat('en-GB', {
      ...base,
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
    }),
  };
}

let formatters = makeFormatters(DEFAULT_SERVICE_TIME_ZONE);
const zoneListeners = new Set<(zone: string) => void>();

/** The zone every time is shown in. */
export function serviceTimeZone(): string {
  return formatters.zone;
}

/**
 * Sets the zone times are shown in (from the system settings). An unknown zone is refused
 * (the settings schema refuses it first) and the current zone is kept.
 */
export function setServiceTimeZone(zone: string): boolean {
  if (!isValidTimeZone(zone)) return false;
  if (zone === formatters.zone) return true;
  formatters = makeFormatters(zone);
  for (const listener of zoneListeners) listener(zone);
  return true;
}

/** Told when the zone changes (the web app re-renders what it shows). */
export function subscribeServiceTimeZone(listener: (zone: string) => void): () => void {
  zoneListeners.add(listener);
  return () => zoneListeners.delete(listener);
}

export type TimeInput = string | number | Date | null | undefined;

function toDate(value: TimeInput): Date | null {
  if (value === null || value === undefined || value === '') return null;
  const d = value instanceof Date ? value : new Date(value);
  return Number.isNaN(d.getTime()) ? null : d;
}

/** What a missing or unreadable time shows as. */
export const UNKNOWN_TIME = 'Unknown time';

/** '4 Mar 2026, 19:05' in the service's zone; `fallback` for a missing or unreadable time. */
export function formatDateTime(value: TimeInput, fallback: string = UNKNOWN_TIME): string {
  const d = toDate(value);
  return d ? formatters.dateTime.format(d) : fallback;
}

/** '4 Mar 2026' in the service's zone. */
export function formatDate(value: TimeInput, fallback: string = UNKNOWN_TIME): string {
  const d = toDate(value);
  return d ? formatters.date.format(d) : fallback;
}

/** '19:05' in the service's zone (with seconds: '19:05:42'). */
export function formatTime(
  value: TimeInput,
  fallback: string = UNKNOWN_TIME,
  options: { seconds?: boolean } = {},
): string {
  const d = toDate(value);
  if (!d) return fallback;
  return (options.seconds ? formatters.timeWithSeconds : formatters.time).format(d);
}

const HOUR_MS = 60 * 60 * 1000;

/**
 * Relative time for lists such as Recent Cases: 'Just now' under an hour (and for
 * clock-skewed future times), '1 hour ago', 'N hours ago' up to 23 hours, then the date
 * ('19 Nov 2026'), because "37 hours ago" is harder to read on scene than a date.
 */
export function formatRelativeTime(value: TimeInput, now: number = Date.now()): string {
  const d = toDate(value);
  if (!d) return UNKNOWN_TIME;
  const hours = Math.floor((now - d.getTime()) / HOUR_MS);
  if (hours < 1) return 'Just now';
  if (hours === 1) return '1 hour ago';
  if (hours < 24) return `${String(hours)} hours ago`;
  return formatDate(d);
}

// ---------------------------------------------------------------------------------------
// Wall-clock arithmetic in a zone
// ---------------------------------------------------------------------------------------

const wallFormatters = new Map<string, Intl.DateTimeFormat>();

/** The zone's wall-clock time at instant `ms`, as if it were UTC (whole seconds). */
export function wallClockMs(ms: number, timeZone: string = serviceTimeZone()): number {
  let format = wallFormatters.get(timeZone);
  if (!format) {
    format = new Intl.DateTimeFormat('en-US', {
      timeZone,
      hourCycle: 'h23',
      era: 'short',
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      hour: 'numeric',
      minute: 'numeric',
      second: 'numeric',
    });
    wallFormatters.set(timeZone, format);
  }
  const parts: Record<string, string> = {};
  for (const p of format.formatToParts(new Date(ms))) parts[p.type] = p.value;
  const year =
    parts.era === 'BC' || parts.era === 'B' ? 1 - Number(parts.year) : Number(parts.year);
  const wall = new Date(0);
  wall.setUTCFullYear(year, Number(parts.month) - 1, Number(parts.day));
  wall.setUTCHours(Number(parts.hour), Number(parts.minute), Number(parts.second), 0);
  return wall.getTime();
}

const floorSecond = (ms: number) => ms - (((ms % 1000) + 1000) % 1000);

/**
 * The instant whose wall clock in `timeZone` reads `wallMs` (a wall-clock time written as if
 * it were UTC). Around a daylight-saving jump the earliest matching instant wins; a wall time
 * that does not exist (skipped by the jump) maps to the instant just after the gap.
 */
export function zonedWallToInstant(wallMs: number, timeZone: string = serviceTimeZone()): number {
  const offsetAt = (ms: number) => wallClockMs(ms, timeZone) - floorSecond(ms);
  const first = wallMs - offsetAt(wallMs);
  const candidates = [
    first,
    wallMs - offsetAt(first),
    wallMs - offsetAt(first - 86_400_000),
    wallMs - offsetAt(first + 86_400_000),
  ];
  const exact = candidates.filter((c) => wallClockMs(c, timeZone) === floorSecond(wallMs));
  if (exact.length > 0) return Math.min(...exact) + (wallMs - floorSecond(wallMs));
  // Skipped by a jump forward: read with the offset before the jump (as Date does), which
  // lands the same distance past the gap.
  return wallMs - offsetAt(wallMs - 86_400_000);
}

function utcMidnight(day: string): number {
  const [year, month, date] = day.split('-').map(Number) as [number, number, number];
  const wall = new Date(0);
  wall.setUTCFullYear(year, month - 1, date);
  return wall.getTime();
}

/** The instant a calendar day (YYYY-MM-DD) starts in `timeZone`, in ms since the epoch. */
export function zonedDayStartMs(day: string, timeZone: string = serviceTimeZone()): number {
  const midnight = utcMidnight(day);
  const offsetAt = (ms: number) => wallClockMs(ms, timeZone) - floorSecond(ms);
  // The offset at local midnight is not known before the instant is: try the offsets around
  // it and keep the earliest instant whose wall clock is on that day (a daylight-saving jump
  // at midnight makes the day start at 01:00).
  const first = midnight - offsetAt(midnight);
  const candidates = [
    first,
    midnight - offsetAt(first),
    midnight - offsetAt(first - 86_400_000),
    midnight - offsetAt(first + 86_400_000),
  ];
  const onDay = candidates.filter((c) => {
    const wall = wallClockMs(c, timeZone);
    return wall >= midnight && wall < midnight + 86_400_000;
  });
  return onDay.length > 0 ? Math.min(...onDay) : first;
}

/** The calendar day (YYYY-MM-DD) of an instant in the service's zone. */
export function zonedDay(value: TimeInput, timeZone: string = serviceTimeZone()): string | null {
  const d = toDate(value);
  if (!d) return null;
  return new Date(wallClockMs(d.getTime(), timeZone)).toISOString().slice(0, 10);
}

const pad = (n: number) => String(n).padStart(2, '0');

/**
 * An instant as the value of an `<input type="datetime-local">` showing the service's zone
 * ('2026-03-04T19:05'), so a time picked on a tablet set to another zone still means the
 * service's clock time. '' for a missing time.
 */
export function toZonedInputValue(value: TimeInput, timeZone: string = serviceTimeZone()): string {
  const d = toDate(value);
  if (!d) return '';
  const wall = new Date(wallClockMs(d.getTime(), timeZone));
  return `${String(wall.getUTCFullYear()).padStart(4, '0')}-${pad(wall.getUTCMonth() + 1)}-${pad(wall.getUTCDate())}T${pad(wall.getUTCHours())}:${pad(wall.getUTCMinutes())}`;
}

/** The instant a `datetime-local` value names in the service's zone; null when incomplete. */
export function fromZonedInputValue(
  text: string,
  timeZone: string = serviceTimeZone(),
): Date | null {
  const match = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2}))?$/.exec(text.trim());
  if (!match) return null;
  const [, y, mo, d, h, mi, s] = match.map(Number) as [
    number,
    number,
    number,
    number,
    number,
    number,
    number | undefined,
  ];
  const wall = new Date(0);
  wall.setUTCFullYear(y, mo - 1, d);
  wall.setUTCHours(h, mi, Number.isFinite(s) ? (s ?? 0) : 0, 0);
  if (wall.getUTCMonth() !== mo - 1 || wall.getUTCDate() !== d) return null;
  return new Date(zonedWallToInstant(wall.getTime(), timeZone));
}

// ---------------------------------------------------------------------------------------
// Dates the product accepts (docs/decisions/057-dates-and-links-the-product-accepts.md)
// ---------------------------------------------------------------------------------------

/**
 * The years a stored time or a searched day may fall in. Nothing this service records
 * happened before 1900, and the wire form (toISOString, PostgreSQL's to_char 'YYYY') has
 * four-digit years; inside the range a day's start in any zone is a year PostgreSQL and
 * toISOString both write (0001-01-01 in Johannesburg starts in year 0, which neither has).
 */
export const EARLIEST_YEAR = 1900;
export const LATEST_YEAR = 9999;
const EARLIEST_MS = Date.UTC(EARLIEST_YEAR, 0, 1);
const LATEST_MS = Date.UTC(LATEST_YEAR + 1, 0, 1) - 1;

const MONTH_NAMES = [
  'January',
  'February',
  'March',
  'April',
  'May',
  'June',
  'July',
  'August',
  'September',
  'October',
  'November',
  'December',
] as const;

export const DATE_MESSAGES = {
  invalid: 'Invalid date and time',
  dayFormat: 'Use a date like 2026-11-21',
  outOfRange: `Use a date between ${String(EARLIEST_YEAR)} and ${String(LATEST_YEAR)}`,
  /** 'There is no 30 February 2026'. */
  noSuchDay: (year: number, month: number, day: number) =>
    `There is no ${String(day)} ${MONTH_NAMES[month - 1] ?? ''} ${String(year)}`,
} as const;

/** A checked date: its instant (ms since the epoch) or the message that refuses it. */
export type DateCheck = { ok: true; ms: number } | { ok: false; message: string };

function daysInMonth(year: number, month: number): number {
  const d = new Date(0);
  d.setUTCFullYear(year, month, 0);
  return d.getUTCDate();
}

/** Year, month and day as written: in range and a real day of the calendar, or why not. */
function checkWrittenDay(
  [yearText, monthText, dayText]: readonly (string | undefined)[],
  malformed: string,
): DateCheck {
  const [year, month, day] = [Number(yearText), Number(monthText), Number(dayText)];
  if (year < EARLIEST_YEAR || year > LATEST_YEAR)
    return { ok: false, message: DATE_MESSAGES.outOfRange };
  if (month < 1 || month > 12 || day < 1) return { ok: false, message: malformed };
  // Date.parse reads every day up to 31 in any month ('2026-02-30' is 2 March): refused here.
  if (day > daysInMonth(year, month))
    return { ok: false, message: DATE_MESSAGES.noSuchDay(year, month, day) };
  return { ok: true, ms: Date.UTC(year, month - 1, day) };
}

/** An instant in the years the product accepts. */
export function checkInstantMs(ms: number): DateCheck {
  if (!Number.isFinite(ms)) return { ok: false, message: DATE_MESSAGES.invalid };
  if (ms < EARLIEST_MS || ms > LATEST_MS) return { ok: false, message: DATE_MESSAGES.outOfRange };
  return { ok: true, ms };
}

/**
 * A written instant ('2026-11-21T09:30:00.000Z', any offset): a real day and time of the
 * calendar, in the accepted years (as a UTC instant too, so an offset cannot carry it out).
 * Expanded years ('+010000-…') are read only to say they are out of range.
 */
export function checkIsoInstant(text: string): DateCheck {
  const written = /^([+-]\d{6}|\d{4,})-(\d{2})-(\d{2})T/.exec(text);
  if (!written) return { ok: false, message: DATE_MESSAGES.invalid };
  const day = checkWrittenDay(written.slice(1), DATE_MESSAGES.invalid);
  if (!day.ok) return day;
  return checkInstantMs(Date.parse(text));
}

/** A calendar day written YYYY-MM-DD (search filters): real, and in the accepted years. */
export function checkCalendarDay(text: string): DateCheck {
  const written = /^(\d{4,})-(\d{2})-(\d{2})$/.exec(text);
  if (!written) return { ok: false, message: DATE_MESSAGES.dayFormat };
  return checkWrittenDay(written.slice(1), DATE_MESSAGES.dayFormat);
}

// ---------------------------------------------------------------------------------------
// Dates typed into the app's own inputs (issue 37, decision 085): one format everywhere
// ---------------------------------------------------------------------------------------

/** What a date-and-time input shows and asks for: the app's one format. */
export const TYPED_DATE_TIME_EXAMPLE = '28 Nov 2026, 14:05';
export const TYPED_DATE_EXAMPLE = '28 Nov 2026';
export const TYPED_DATE_MESSAGES = {
  dateTime: `Enter a date and time like ${TYPED_DATE_TIME_EXAMPLE}`,
  date: `Enter a date like ${TYPED_DATE_EXAMPLE}`,
} as const;

/** The wall-clock value ('2026-11-28T14:05') an instant shows in the service's zone. */
function wallValueOf(day: string, time: string): string {
  return `${day}T${time}`;
}

/**
 * A typed day: '28 Nov 2026', '28 November 2026', '28/11/2026', '28-11-2026', '28.11.2026' or
 * '2026-11-28' (day before month, as in South Africa; never the American month first).
 * 'YYYY-MM-DD' when it is a real day in the accepted years, otherwise null.
 */
function typedDay(text: string): string | null {
  const t = text.trim().toLowerCase();
  let parts: [string, string, string] | null = null;
  const iso = /^(\d{4})-(\d{1,2})-(\d{1,2})$/.exec(t);
  const numeric = /^(\d{1,2})[/.-](\d{1,2})[/.-](\d{4})$/.exec(t);
  const named = /^(\d{1,2})\s+([a-z]{3,9})\.?,?\s+(\d{4})$/.exec(t);
  if (iso) parts = [iso[1] ?? '', iso[2] ?? '', iso[3] ?? ''];
  else if (numeric) parts = [numeric[3] ?? '', numeric[2] ?? '', numeric[1] ?? ''];
  else if (named) {
    const name = named[2] ?? '';
    const month = MONTH_NAMES.findIndex(
      (m) => m.toLowerCase().startsWith(name) && name.length >= 3,
    );
    if (month < 0) return null;
    parts = [named[3] ?? '', String(month + 1), named[1] ?? ''];
  }
  if (!parts) return null;
  const check = checkWrittenDay(parts, DATE_MESSAGES.dayFormat);
  if (!check.ok) return null;
  return `${parts[0]}-${pad(Number(parts[1]))}-${pad(Number(parts[2]))}`;
}

/**
 * A typed date and time, read as the service's wall clock: the day as typedDay reads it,
 * then the time ('14:05', '14h05', '1405'); a comma or 'at' may sit between (or the 'T' of
 * '2026-11-28T14:05', the value itself). Returns the
 * `datetime-local` style value ('2026-11-28T14:05') or null when it is not a real time.
 */
export function parseTypedDateTime(text: string): string | null {
  const match = /^(.*?)(?:,|\s+at)?(?:\s+|(?<=\d)T)(\d{1,2})[:h.]?(\d{2})$/i.exec(text.trim());
  if (!match) return null;
  const day = typedDay(match[1] ?? '');
  const [hours, minutes] = [Number(match[2]), Number(match[3])];
  if (!day || hours > 23 || minutes > 59) return null;
  return wallValueOf(day, `${pad(hours)}:${pad(minutes)}`);
}

/** A typed day ('28 Nov 2026', '28/11/2026', '2026-11-28') as 'YYYY-MM-DD', or null. */
export function parseTypedDate(text: string): string | null {
  return typedDay(text);
}

/** How a wall-clock value ('2026-11-28T14:05') reads in an input: '28 Nov 2026, 14:05'. */
export function formatTypedDateTime(value: string, timeZone: string = serviceTimeZone()): string {
  const instant = value ? fromZonedInputValue(value, timeZone) : null;
  if (!instant) return '';
  return timeZone === formatters.zone
    ? formatDateTime(instant, '')
    : makeFormatters(timeZone).dateTime.format(instant);
}

const utcDate = new Intl.DateTimeFormat('en-GB', {
  timeZone: 'UTC',
  day: 'numeric',
  month: 'short',
  year: 'numeric',
});

/** How a day ('2026-11-28') reads in an input: '28 Nov 2026'. */
export function formatTypedDate(day: string): string {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(day);
  if (!match) return '';
  return utcDate.format(
    new Date(Date.UTC(Number(match[1]), Number(match[2]) - 1, Number(match[3]))),
  );
}
