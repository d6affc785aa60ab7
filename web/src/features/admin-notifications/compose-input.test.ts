// The compose form's link as the API gets it: a path stays a path, this app's own address
// typed in full becomes its path (the API takes only paths and https addresses), anything
// else goes as typed for the schema to judge.
import { describe, expect, it } from 'vitest';
import { NOTIFICATION_MESSAGES } from '@rescuelog/sync-protocol/notifications';
import { buildNotificationInput, EMPTY_DRAFT, resolveUrl } from './compose-input';

const ORIGIN = 'http://127.0.0.1:5173';

describe('resolveUrl', () => {
  it.each([
    ['  /case-search  ', '/case-search'],
    [`${ORIGIN}/case-search?status=completed#top`, '/case-search?status=completed#top'],
    ['https://example.org/x', 'https://example.org/x'],
    ['http://evil.example/x', 'http://evil.example/x'],
    ['javascript:alert(1)', 'javascript:alert(1)'],
    ['   ', undefined],
  ])('%j -> %j', (typed, sent) => {
    expect(resolveUrl(typed, ORIGIN)).toBe(sent);
  });

  it('refuses at the field what the API would refuse', () => {
    const draft = { ...EMPTY_DRAFT, title: 't', message: 'm' };
    for (const url of ['javascript:alert(1)', 'http://evil.example/x', '//evil.example'])
      expect(buildNotificationInput({ ...draft, url }, { now: 0, origin: ORIGIN })).toEqual({
        ok: false,
        errors: { url: NOTIFICATION_MESSAGES.urlInvalid },
      });
    expect(
      buildNotificationInput({ ...draft, url: `${ORIGIN}/cases` }, { now: 0, origin: ORIGIN }),
    ).toMatchObject({ ok: true, input: { url: '/cases' } });
  });
});
