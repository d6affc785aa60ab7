// Field helpers the record definitions share.
import { z } from 'zod';
import '../zod-config';
import { longText, shortText, timestampSchema } from './values';

export const int = (min: number, max: number) => z.number().int().min(min).max(max);
export const nShort = shortText.nullable();
export const nLong = longText.nullable();
export const nTime = timestampSchema.nullable();
export const nBool = z.boolean().nullable();
