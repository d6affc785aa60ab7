// Both drivers must hand the same JavaScript values to the code above them. These are the
// choices, applied to pg (through its per-pool `types`) and to PGlite (through `parsers`):
// - int8 (bigint, count(*)) -> string: exact, as pg does by default. Convert with Number()
//   where the value is known to be small (counts).
// - numeric -> string: exact decimals (latitude numeric(10,8) keeps all 8 places).
// - date -> 'YYYY-MM-DD' string: a calendar date has no time zone; pg would otherwise
//   build a Date at local midnight.
// - timestamptz -> Date; json/jsonb -> parsed values; int4[]/text[] -> arrays (both defaults).

export const PG_OID = {
  INT8: 20,
  NUMERIC: 1700,
  DATE: 1082,
} as const;

const asText = (value: string): string => value;

/** PGlite parser overrides keyed by type OID. */
export const pgliteParsers: Record<number, (value: string) => unknown> = {
  [PG_OID.INT8]: asText,
  [PG_OID.NUMERIC]: asText,
  [PG_OID.DATE]: asText,
};

/** OIDs whose text form pg must return unparsed (it already does so for int8 and numeric). */
export const pgTextOids: readonly number[] = [PG_OID.INT8, PG_OID.NUMERIC, PG_OID.DATE];
