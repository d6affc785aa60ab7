// Human ids for caseId, sessionId and incidentId, generated on the device without
// coordination and short enough to read over a radio: `C-DDDR-RRRR-RRRK`.
//   prefix  C (case), S (CPR session), I (incident: report or mass-casualty incident)
//   DDD     the UTC day (days since 2024-01-01, mod 32768): collisions can only happen
//           between ids made on the same day
//   R x 8   40 random bits
//   K       a check character (Luhn mod 32 over prefix and payload): any single mistyped
//           or misheard character is detected
// Characters are Crockford base32 (no I, L, O or U), so nothing reads as another letter;
// parseHumanId accepts lower case, missing hyphens and O/I/L typed for 0/1/1.
// Uniqueness is still checked by the server: a collision is rejected, never merged.
import { z } from 'zod';
import '../zod-config';

export const HUMAN_ID_ALPHABET = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';
export const HUMAN_ID_PREFIXES = ['C', 'S', 'I'] as const;
export type HumanIdPrefix = (typeof HUMAN_ID_PREFIXES)[number];

const BASE = 32;
const DAY_CHARS = 3;
const RANDOM_CHARS = 8;
const PAYLOAD_CHARS = DAY_CHARS + RANDOM_CHARS;
const EPOCH_MS = Date.UTC(2024, 0, 1);
const DAY_MS = 86_400_000;
/** Bytes of randomness generateHumanId consumes (40 bits). */
export const HUMAN_ID_RANDOM_BYTES = 5;

const PREFIX_VALUE: Record<HumanIdPrefix, number> = { C: 1, S: 2, I: 3 };

export const HUMAN_ID_PATTERN =
  /^[CSI]-[0-9A-HJKMNP-TV-Z]{4}-[0-9A-HJKMNP-TV-Z]{4}-[0-9A-HJKMNP-TV-Z]{4}$/;

function valueOf(char: string): number {
  return HUMAN_ID_ALPHABET.indexOf(char);
}

/** Luhn mod N: the factor-2 step is a permutation of 0..31, so every single substitution changes the sum. */
function luhnSum(values: readonly number[], startFactor: 1 | 2): number {
  let factor = startFactor;
  let sum = 0;
  for (let i = values.length - 1; i >= 0; i--) {
    const addend = factor * (values[i] ?? 0);
    sum += Math.floor(addend / BASE) + (addend % BASE);
    factor = factor === 2 ? 1 : 2;
  }
  return sum % BASE;
}

function checkCharacter(prefix: HumanIdPrefix, payload: string): string {
  const values = [PREFIX_VALUE[prefix], ...[...payload].map(valueOf)];
  const remainder = luhnSum(values, 2);
  return HUMAN_ID_ALPHABET[(BASE - remainder) % BASE] ?? '0';
}

function format(prefix: HumanIdPrefix, body: string): string {
  return `${prefix}-${body.slice(0, 4)}-${body.slice(4, 8)}-${body.slice(8, 12)}`;
}

function encode(value: number, chars: number): string {
  let out = '';
  let v = value;
  for (let i = 0; i < chars; i++) {
    out = (HUMAN_ID_ALPHABET[v % BASE] ?? '0') + out;
    v = Math.floor(v / BASE);
  }
  return out;
}

function randomBytes(): Uint8Array {
  const bytes = new Uint8Array(HUMAN_ID_RANDOM_BYTES);
  globalThis.crypto.getRandomValues(bytes);
  return bytes;
}

/**
 * A new human id. `random` (at least 5 bytes) and `now` are for tests; by default the
 * platform's cryptographic random source and the current time are used.
 */
export function generateHumanId(
  prefix: HumanIdPrefix,
  random?: Uint8Array,
  now: Date = new Date(),
): string {
  const bytes = random ?? randomBytes();
  if (bytes.length < HUMAN_ID_RANDOM_BYTES)
    throw new RangeError(`generateHumanId needs ${HUMAN_ID_RANDOM_BYTES} random bytes`);
  const day = ((Math.floor((now.getTime() - EPOCH_MS) / DAY_MS) % 32_768) + 32_768) % 32_768;
  // 40 bits as two 20-bit halves keeps the arithmetic exact in doubles.
  const b = (i: number): number => bytes[i] ?? 0;
  const high = (b(0) << 12) | (b(1) << 4) | (b(2) >> 4);
  const low = ((b(2) & 0x0f) << 16) | (b(3) << 8) | b(4);
  const payload = encode(day, DAY_CHARS) + encode(high, 4) + encode(low, 4);
  return format(prefix, payload + checkCharacter(prefix, payload));
}

/** True for a canonical human id (upper case, hyphenated) whose check character matches. */
export function isValidHumanId(value: string, prefix?: HumanIdPrefix): boolean {
  if (!HUMAN_ID_PATTERN.test(value)) return false;
  const p = value[0] as HumanIdPrefix;
  if (prefix !== undefined && p !== prefix) return false;
  const body = value.slice(2).replaceAll('-', '');
  return checkCharacter(p, body.slice(0, PAYLOAD_CHARS)) === body[PAYLOAD_CHARS];
}

/**
 * Reads an id as a person typed or heard it: case, spaces and hyphens do not matter and
 * O, I and L count as 0, 1 and 1. Returns the canonical id, or null if it is not valid.
 */
export function parseHumanId(input: string, prefix?: HumanIdPrefix): string | null {
  const compact = input.toUpperCase().replace(/[\s-]/g, '');
  const p = compact[0];
  if (p !== 'C' && p !== 'S' && p !== 'I') return null;
  const body = compact.slice(1).replace(/O/g, '0').replace(/[IL]/g, '1');
  if (body.length !== PAYLOAD_CHARS + 1) return null;
  const canonical = format(p, body);
  return isValidHumanId(canonical, prefix) ? canonical : null;
}

export const HUMAN_ID_MESSAGE = 'Invalid record number';

/** A human id as it crosses the wire: normalised to the canonical form, checked. */
export function humanIdSchema(prefix: HumanIdPrefix) {
  return z
    .string()
    .max(40)
    .transform((v, ctx) => {
      const id = parseHumanId(v, prefix);
      if (id === null) {
        ctx.addIssue({ code: 'custom', message: HUMAN_ID_MESSAGE });
        return z.NEVER;
      }
      return id;
    });
}
