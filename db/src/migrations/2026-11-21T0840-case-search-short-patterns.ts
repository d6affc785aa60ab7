// Case search "contains" filters that trigrams cannot answer, and the responder filter over
// one expression (docs/decisions/010-case-search.md, "Short patterns and the responder").
//
// 1. Short patterns. pg_trgm extracts no trigram from a pattern of one or two characters
//    (`%r7%`), so such a filter read the whole table: at 100,000 cases 30–50 ms for a call
//    sign nobody has, and a name + call sign search sorted every trigram match of the name.
//    case_search_grams(t) is every substring of one and two characters of t; a GIN index
//    over it answers "contains q" exactly when q has one or two characters (q is a
//    substring of t if and only if it is one of t's grams), with the planner's array element
//    statistics for the estimate. It needs no extension, so it works where pg_trgm is missing.
// 2. The responder filter (name or call sign) is one expression, lower(name || U+001F ||
//    call sign): a pattern without U+001F matches it exactly when it matches one of the two
//    (it cannot span the separator), so one index (trigram and grams) answers it instead of a
//    BitmapOr of two trigram indexes whose combined estimate the planner got wrong. The
//    separate name and call-sign trigram indexes of 2026-11-21T0830 are no longer used.
// 3. A bounded GIN pending list. GIN queues new entries in a pending list that every search
//    reads in full until VACUUM (or the list passing gin_pending_list_limit, 4 MB by default)
//    merges it. PGlite has no autovacuum, so there the list only ever empties at the limit.
//    With 8,000 cases added since the last vacuum (PostgreSQL, 100,000 cases), a name that
//    matches nothing took 13 ms instead of 0.07 ms. These indexes, and 0830's patient name
//    trigram index, flush at 64 kB instead (writes stay batched: about 0.1 ms more per case
//    for the four indexes).
// Whole-table indexes, like 0830's: the planner keeps statistics for their expressions.
import { sql } from 'kysely';
import type { Kysely } from 'kysely';

const NAME_GRAMS = sql`case_search_grams(lower(patient_name))`;
/** The responder text as searched; cases-service.ts writes the same expression. */
const RESPONDER = sql`lower(coalesce(responder_name, '') || E'\\x1f' || coalesce(responder_call_sign, ''))`;
/** In kB (the smallest allowed). */
const PENDING_LIMIT = sql`gin_pending_list_limit = 64`;
const OLD_RESPONDER_TRIGRAM = [
  ['cases_search_responder_name_trgm_idx', 'responder_name'],
  ['cases_search_responder_call_sign_trgm_idx', 'responder_call_sign'],
] as const;

async function hasTrigrams(db: Kysely<unknown>): Promise<boolean> {
  const result = await sql<{
    ok: boolean;
  }>`select exists (select 1 from pg_extension where extname = 'pg_trgm') as ok`.execute(db);
  return result.rows[0]?.ok === true;
}

export async function up(db: Kysely<unknown>): Promise<void> {
  // Immutable (the same text always gives the same grams), so it may be indexed. Strict: a
  // null field has no grams and matches nothing, as in the device's matcher.
  await sql`create function case_search_grams(t text) returns text[]
    language sql immutable strict parallel safe
    as $$ select array(select substr(t, i, 1) from generate_series(1, length(t)) i)
              || array(select substr(t, i, 2) from generate_series(1, length(t) - 1) i) $$`.execute(
    db,
  );
  await sql`create index cases_search_patient_name_grams_idx on cases using gin (${NAME_GRAMS}) with (${PENDING_LIMIT})`.execute(
    db,
  );
  await sql`create index cases_search_responder_grams_idx on cases using gin (case_search_grams(${RESPONDER})) with (${PENDING_LIMIT})`.execute(
    db,
  );
  if (await hasTrigrams(db)) {
    await sql`create index cases_search_responder_trgm_idx on cases using gin (${RESPONDER} gin_trgm_ops) with (${PENDING_LIMIT})`.execute(
      db,
    );
    await sql`alter index if exists cases_search_patient_name_trgm_idx set (${PENDING_LIMIT})`.execute(
      db,
    );
  }
  for (const [name] of OLD_RESPONDER_TRIGRAM)
    await sql`drop index if exists ${sql.id(name)}`.execute(db);
  // Statistics for the new expressions now, not at the next autovacuum.
  await sql`analyze cases`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const name of [
    'cases_search_responder_trgm_idx',
    'cases_search_responder_grams_idx',
    'cases_search_patient_name_grams_idx',
  ]) {
    await sql`drop index if exists ${sql.id(name)}`.execute(db);
  }
  await sql`drop function if exists case_search_grams(text)`.execute(db);
  if (await hasTrigrams(db)) {
    await sql`alter index if exists cases_search_patient_name_trgm_idx reset (gin_pending_list_limit)`.execute(
      db,
    );
    for (const [name, column] of OLD_RESPONDER_TRIGRAM) {
      await sql`create index ${sql.id(name)} on cases using gin (lower(${sql.id(column)}) gin_trgm_ops)`.execute(
        db,
      );
    }
  }
}
