// The page's mark of unfinished ends of sessions (decision 023): written without zod, read
// with it, from the list and from the one-user object earlier builds wrote.
import { describe, expect, it } from 'vitest';
import { addEndingUser, MAX_ENDING_USERS } from '../../src/client/ending-users';
import { endingUsersSchema } from '../../src/client/session-end';

const read = (stored: string) => endingUsersSchema.parse(JSON.parse(stored));

describe('the ending-users mark', () => {
  it('keeps a user marked by an earlier build when another user is marked after', () => {
    const earlier = JSON.stringify({ id: 41, name: 'Thandi Nkosi' });
    expect(read(addEndingUser(earlier, { id: 42, name: 'Pieter Botha' }))).toEqual([
      { id: 41, name: 'Thandi Nkosi' },
      { id: 42, name: 'Pieter Botha' },
    ]);
  });

  it('names each user once, in the order of their latest end', () => {
    let stored = addEndingUser(null, { id: 41, name: 'Thandi' });
    stored = addEndingUser(stored, { id: 42, name: 'Pieter' });
    stored = addEndingUser(stored, { id: 41, name: 'Thandi Nkosi' });
    expect(read(stored)).toEqual([
      { id: 42, name: 'Pieter' },
      { id: 41, name: 'Thandi Nkosi' },
    ]);
    // Duplicates written by two tabs at once are read once, the last one winning.
    expect(
      read(
        JSON.stringify([
          { id: 41, name: 'A' },
          { id: 42, name: 'B' },
          { id: 41, name: 'C' },
        ]),
      ),
    ).toEqual([
      { id: 42, name: 'B' },
      { id: 41, name: 'C' },
    ]);
  });

  it('is bounded, keeping the newest ends', () => {
    let stored: string | null = null;
    for (let id = 1; id <= MAX_ENDING_USERS + 5; id++)
      stored = addEndingUser(stored, { id, name: `User ${String(id)}` });
    const users = read(stored ?? '[]');
    expect(users).toHaveLength(MAX_ENDING_USERS);
    expect(users[0]?.id).toBe(6);
    expect(users.at(-1)?.id).toBe(MAX_ENDING_USERS + 5);
  });

  it('skips entries it cannot read and replaces an unreadable mark', () => {
    expect(read(JSON.stringify([{ id: 'x' }, null, { id: 42, name: 'Pieter' }]))).toEqual([
      { id: 42, name: 'Pieter' },
    ]);
    expect(endingUsersSchema.safeParse({ id: 'x' }).success).toBe(false);
    expect(read(addEndingUser('{not json', { id: 42, name: '' }))).toEqual([
      { id: 42, name: 'User 42' },
    ]);
  });
});
