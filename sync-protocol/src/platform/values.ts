// Value schemas for synced fields. Each normalises to the one form the server stores and
// returns, so a record the device saved and the same record pulled back compare equal:
// timestamps become UTC ISO strings with milliseconds, coordinates numbers rounded to the
// database's 8 decimals, uuids lower case.
import { z } from 'zod';
import '../zod-config';
import { checkInstantMs, checkIsoInstant } from '../time';

export const uuidSchema = z
  .string()
  .regex(
    /^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$/,
    'Invalid UUID',
  )
  .transform((v) => v.toLowerCase());

/**
 * A point in time: ISO 8601 string (any offset) or Date in, `YYYY-MM-DDTHH:mm:ss.sssZ` out.
 * Only a real day of the calendar ('2026-02-30' is refused, where Date.parse would read
 * 2 March) in the years the product accepts (time.ts checkIsoInstant, decision 057). Every
 * synced time uses this schema, so the device refuses such a value at save and the server
 * rejects it in a push, each with the message naming the day.
 */
export const timestampSchema = z.union([z.string().max(40), z.date()]).transform((v, ctx) => {
  const checked = v instanceof Date ? checkInstantMs(v.getTime()) : checkIsoInstant(v);
  if (!checked.ok) {
    ctx.addIssue({ code: 'custom', message: checked.message });
    return z.NEVER;
  }
  return new Date(checked.ms).toISOString();
});

function roundTo(value: number, decimals: number): number {
  const f = 10 ** decimals;
  const r = Math.round(value * f) / f;
  return Object.is(r, -0) ? 0 : r;
}

/** Decimal numbers given as string or number (spec: latitude/longitude "may be given as string or number"). */
function decimalSchema(min: number, max: number, decimals: number, message: string) {
  return z.union([z.number(), z.string().trim().max(40)]).transform((v, ctx) => {
    const n = typeof v === 'number' ? v : v === '' ? Number.NaN : Number(v);
    if (!Number.isFinite(n) || n < min || n > max) {
      ctx.addIssue({ code: 'custom', message });
      return z.NEVER;
    }
    return roundTo(n, decimals);
  });
}

/** numeric(10, 8) */
export const latitudeSchema = decimalSchema(-90, 90, 8, 'Latitude must be between -90 and 90');
/** numeric(11, 8) */
export const longitudeSchema = decimalSchema(
  -180,
  180,
  8,
  'Longitude must be between -180 and 180',
);
/** Seconds, numeric(4, 1). */
export const capillaryRefillSchema = decimalSchema(
  0,
  999.9,
  1,
  'Capillary refill must be between 0 and 999.9 seconds',
);
/** A reading's numeric part (unconstrained numeric column); kept to 6 decimals. */
export const measurementSchema = decimalSchema(-1e9, 1e9, 6, 'Invalid number');

export const shortText = z.string().max(500);
export const longText = z.string().max(20_000);

/** Any JSON value (jsonb columns with free structure). */
export const jsonValueSchema = z.json();
export const jsonObjectSchema = z.record(z.string().max(200), z.json());

/** A server version: bigint as a decimal string. */
export const versionSchema = z.string().regex(/^\d{1,19}$/, 'Invalid version');

/** Columns every synced record has on the server. */
export const serverColumns = {
  version: versionSchema,
  updatedAt: timestampSchema,
  deletedAt: timestampSchema.nullable(),
};

/**
 * A record owned by the person who created it, as the server sends it: its id, the kind's own
 * columns, who created it and when, and the server's columns.
 */
export function ownedRecordSchema<S extends z.ZodRawShape>(shape: S) {
  return z.object({
    id: uuidSchema,
    ...shape,
    createdAt: timestampSchema,
    userId: z.number().int(),
    ...serverColumns,
  });
}
