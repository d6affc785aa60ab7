// Small schemas several contract files share.
import { z } from 'zod';
import './zod-config';

/** A timestamp as it crosses the wire: the API may hand a Date, JSON carries an ISO string. */
export const isoDateSchema = z
  .union([z.string(), z.date()])
  .transform((v) => (v instanceof Date ? v.toISOString() : v));
