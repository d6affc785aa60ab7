import { describe, expect, it } from 'vitest';
import { formatDateTime, formatRelativeTime } from './format';

const NOW = Date.parse('2026-11-21T12:00:00.000Z');
const ago = (ms: number) => new Date(NOW - ms).toISOString();
const HOUR = 3_600_000;

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

describe('formatDateTime', () => {
  it('uses en-GB day-month order and a 24-hour clock', () => {
    expect(formatDateTime('2026-03-04T17:05:00.000Z')).toBe('4 Mar 2026, 17:05');
  });
});
