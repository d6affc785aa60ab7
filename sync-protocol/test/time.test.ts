import { afterEach, describe, expect, it } from 'vitest';
import {
  DEFAULT_SERVICE_TIME_ZONE,
  formatDate,
  formatDateTime,
  formatRelativeTime,
  formatTime,
  formatTypedDate,
  formatTypedDateTime,
  fromZonedInputValue,
  parseTypedDate,
  parseTypedDateTime,
  serviceTimeZone,
  setServiceTimeZone,
  toZonedInputValue,
  zonedDay,
  zonedDayStartMs,
} from '../src/time';

const NOW = Date.parse('2026-11-21T12:00:00.000Z');
const ago = (ms: number) => new Date(NOW - ms).toISOString();
const HOUR = 3_600_000;

afterEach(() => {
  setServiceTimeZone(DEFAULT_SERVICE_TIME_ZONE);
});

describe('formatRelativeTime', () => {
  it.each([
    [ago(0), 'Just now'],
    [ago(HOUR - 1), 'Just now'],
    [new Date(NOW + 5 * 60_000).toISOString(), 'Just now'],
    [ago(HOUR), '1 hour ago'],
    [ago(2 * HOUR - 1), '1 hour ago'],
    [ago(2 * HOUR), '2 hours ago'],
    [ago(23 * HOUR + 59 * 60_000), '23 hours ago'],
    [ago(24 * HOUR), '20 Nov 2026'],
    [ago(40 * 24 * HOUR), '12 Oct 2026'],
  ])('%s -> %s', (value, expected) => {
    expect(formatRelativeTime(value, NOW)).toBe(expected);
  });

  it.each([null, undefined, '', 'not a date'])("says 'Unknown time' for %s", (value) => {
    expect(formatRelativeTime(value, NOW)).toBe('Unknown time');
  });
});

describe('one formatter in the service time zone', () => {
  it('shows Johannesburg time whatever zone the process runs in', () => {
    // 17:05 UTC is 19:05 SAST (UTC+2).
    expect(serviceTimeZone()).toBe('Africa/Johannesburg');
    expect(formatDateTime('2026-03-04T17:05:00.000Z')).toBe('4 Mar 2026, 19:05');
    expect(formatTime('2026-03-04T17:05:42.000Z')).toBe('19:05');
    expect(formatTime('2026-03-04T17:05:42.000Z', '', { seconds: true })).toBe('19:05:42');
    expect(formatDate('2026-03-04T22:30:00.000Z')).toBe('5 Mar 2026');
  });

  it('a missing or unreadable time shows the fallback', () => {
    expect(formatDateTime(null)).toBe('Unknown time');
    expect(formatDateTime('garbage', '—')).toBe('—');
    expect(formatTime(undefined, '')).toBe('');
  });

  it('follows the configured zone and refuses an unknown one', () => {
    expect(setServiceTimeZone('Europe/London')).toBe(true);
    expect(formatDateTime('2026-07-04T17:05:00.000Z')).toBe('4 Jul 2026, 18:05');
    expect(setServiceTimeZone('Mars/Olympus_Mons')).toBe(false);
    expect(serviceTimeZone()).toBe('Europe/London');
  });

  it('datetime inputs show and read the service clock', () => {
    expect(toZonedInputValue('2026-11-21T21:59:00.000Z')).toBe('2026-11-21T23:59');
    expect(fromZonedInputValue('2026-11-21T23:59')?.toISOString()).toBe('2026-11-21T21:59:00.000Z');
    expect(fromZonedInputValue('2026-02-30T10:00')).toBeNull();
    expect(fromZonedInputValue('2026-11-21T2')).toBeNull();
    expect(toZonedInputValue(null)).toBe('');
  });

  it('round-trips inputs across a daylight-saving change', () => {
    setServiceTimeZone('Europe/London');
    for (const iso of [
      '2026-03-29T00:30:00.000Z',
      '2026-03-29T01:30:00.000Z',
      '2026-10-25T00:30:00.000Z',
    ]) {
      const text = toZonedInputValue(iso);
      expect(fromZonedInputValue(text)?.toISOString()).toBe(iso);
    }
    // 01:30 on 29 March 2026 does not exist in London: the clock jumps from 01:00 to 02:00.
    expect(fromZonedInputValue('2026-03-29T01:30')?.toISOString()).toBe('2026-03-29T01:30:00.000Z');
  });

  it('calendar days are the zone’s days', () => {
    expect(zonedDay('2026-11-21T22:30:00.000Z')).toBe('2026-11-22');
    expect(new Date(zonedDayStartMs('2026-11-22')).toISOString()).toBe('2026-11-21T22:00:00.000Z');
  });
});

describe('dates typed into the app (issue 37: one en-GB format, inputs included)', () => {
  it('reads the format the app shows, and the day-first forms people type', () => {
    for (const text of [
      '28 Nov 2026, 14:05',
      '28 Nov 2026 14:05',
      '28 November 2026 at 14:05',
      '28 nov 2026, 1405',
      '28/11/2026 14:05',
      '28-11-2026 14h05',
      '28.11.2026 14:05',
      '2026-11-28 14:05',
      '2026-11-28T14:05',
    ])
      expect(parseTypedDateTime(text), text).toBe('2026-11-28T14:05');
    expect(parseTypedDate('3 Sept 2026')).toBe('2026-09-03');
    expect(parseTypedDate('03/09/2026')).toBe('2026-09-03');
  });

  it('refuses days that do not exist, the years outside 1900–9999 and impossible times', () => {
    for (const text of [
      '30 Feb 2026, 10:00',
      '31/04/2026 10:00',
      '29/02/2025 10:00',
      '01/01/0001 10:00',
      '28 Nov 2026, 24:00',
      '28 Nov 2026, 10:60',
      '11/28/2026 10:00',
      'yesterday 10:00',
      '28 Nov 2026',
    ])
      expect(parseTypedDateTime(text), text).toBeNull();
    expect(parseTypedDate('29 Feb 2028')).toBe('2028-02-29');
    expect(parseTypedDate('29 Feb 2027')).toBeNull();
  });

  it('shows a value as the formatter does everywhere else, in the service zone', () => {
    expect(formatTypedDateTime('2026-11-28T14:05', 'Africa/Johannesburg')).toBe(
      formatDateTime('2026-11-28T12:05:00.000Z'),
    );
    expect(formatTypedDateTime('2026-11-28T14:05', 'Africa/Johannesburg')).toBe(
      '28 Nov 2026, 14:05',
    );
    expect(formatTypedDate('2026-11-28')).toBe('28 Nov 2026');
    expect(formatTypedDateTime('')).toBe('');
    // What the input shows reads back as the same value.
    expect(parseTypedDateTime(formatTypedDateTime('2026-09-03T07:30'))).toBe('2026-09-03T07:30');
  });
});
