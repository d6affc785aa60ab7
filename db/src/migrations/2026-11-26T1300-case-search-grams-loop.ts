// case_search_grams(t) (2026-11-21T0840) computed in one pass over t's characters
// (docs/decisions/036-push-insert-cost.md). Every insert of a case, and every change of its
// patient name or responder, runs it twice (the two grams indexes); as an SQL function with two
// `array(select … from generate_series(…))` subqueries it was most of a new case's insert cost on
// the embedded database: ~40–70 µs a call there (~12–40 µs on PostgreSQL), against ~8–20 µs
// (~10–16 µs) for this loop.
// The result is the same array, element for element and in the same order (every character,
// then every pair of neighbouring characters), so the indexes built with the old body stay
// valid: nothing is reindexed. string_to_array(t, null) splits t into characters as substr
// and length count them (code points in UTF-8).
import { sql } from 'kysely';
import type { Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`create or replace function case_search_grams(t text) returns text[]
    language plpgsql immutable strict parallel safe
    as $$
      declare
        c text[] := string_to_array(t, null);
        grams text[] := c;
      begin
        for i in 1 .. coalesce(array_length(c, 1), 0) - 1 loop
          grams := grams || (c[i] || c[i + 1]);
        end loop;
        return grams;
      end
    $$`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`create or replace function case_search_grams(t text) returns text[]
    language sql immutable strict parallel safe
    as $$ select array(select substr(t, i, 1) from generate_series(1, length(t)) i)
              || array(select substr(t, i, 2) from generate_series(1, length(t) - 1) i) $$`.execute(
    db,
  );
}
