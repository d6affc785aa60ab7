// The page's mark of the ends of sessions it has not finished (web/src/lib/auth.ts keeps it in
// localStorage, decision 023): whose data to clear or hold at the next start if the page
// closes meanwhile. A list, so an end cut short is still marked when another user's end on
// the same device is marked after it. This file has no imports: the page writes the mark
// synchronously, before anything can be interrupted, and the schema that reads it
// (session-end.ts endingUsersSchema) loads with the sync code, only when a mark exists.

/** Enough for every account a shared tablet sees between two starts that reach the end. */
export const MAX_ENDING_USERS = 20;

/**
 * The stored mark (`stored`: its JSON, or null) with `user` added last. Earlier entries are
 * kept as stored, unparsed (the reader parses each); an earlier one with the same id goes; the
 * newest MAX_ENDING_USERS stay. A mark a build before the list wrote (one object) becomes the
 * list's first entry; an unreadable one is dropped.
 */
export function addEndingUser(stored: string | null, user: { id: number; name: string }): string {
  let earlier: unknown[] = [];
  try {
    const value: unknown = stored === null ? [] : JSON.parse(stored);
    earlier = Array.isArray(value) ? value : [value];
  } catch {
    earlier = [];
  }
  const others = earlier.filter(
    (entry) =>
      typeof entry !== 'object' || entry === null || !('id' in entry) || entry.id !== user.id,
  );
  const entry = { id: user.id, name: user.name.slice(0, 200) || `User ${String(user.id)}` };
  return JSON.stringify([...others, entry].slice(-MAX_ENDING_USERS));
}
