// Routes whose call carries no payload (spec §7 "none") still see whatever a client sends.
// They accept nothing or an empty JSON object and refuse anything else, so a stray or hostile
// body is a 400 rather than silently ignored.
import { z } from 'zod';
import { parseInput } from './api-error';

const noBodySchema = z.strictObject({}).optional();

export function expectNoBody(body: unknown): void {
  parseInput(noBodySchema, body);
}
