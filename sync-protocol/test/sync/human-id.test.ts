import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import {
  HUMAN_ID_ALPHABET,
  HUMAN_ID_PREFIXES,
  generateHumanId,
  humanIdSchema,
  isValidHumanId,
  parseHumanId,
} from '../../src/platform/human-id';

const prefix = fc.constantFrom(...HUMAN_ID_PREFIXES);
const bytes = fc.uint8Array({ minLength: 5, maxLength: 5 });
const when = fc.date({
  min: new Date('2024-01-01T00:00:00Z'),
  max: new Date('2100-01-01T00:00:00Z'),
  noInvalidDate: true,
});

describe('generateHumanId', () => {
  it('has the radio-readable shape C-XXXX-XXXX-XXXX', () => {
    const id = generateHumanId(
      'C',
      new Uint8Array([1, 2, 3, 4, 5]),
      new Date('2026-11-21T05:00:00Z'),
    );
    expect(id).toMatch(/^C-[0-9A-Z]{4}-[0-9A-Z]{4}-[0-9A-Z]{4}$/);
    expect(isValidHumanId(id)).toBe(true);
    expect(isValidHumanId(id, 'C')).toBe(true);
    expect(isValidHumanId(id, 'S')).toBe(false);
  });

  it('uses the platform random source by default and differs between calls', () => {
    const ids = new Set(Array.from({ length: 200 }, () => generateHumanId('S')));
    expect(ids.size).toBe(200);
    for (const id of ids) expect(isValidHumanId(id, 'S')).toBe(true);
  });

  it('is always valid and never uses an ambiguous character (I, L, O, U)', () => {
    fc.assert(
      fc.property(prefix, bytes, when, (p, r, d) => {
        const id = generateHumanId(p, r, d);
        expect(isValidHumanId(id, p)).toBe(true);
        expect(id.slice(1)).not.toMatch(/[ILOU]/);
        expect(id.startsWith(`${p}-`)).toBe(true);
      }),
    );
  });

  it('encodes all 40 random bits: different randomness on the same day gives different ids', () => {
    fc.assert(
      fc.property(prefix, bytes, bytes, when, (p, a, b, d) => {
        fc.pre(a.some((x, i) => x !== b[i]));
        expect(generateHumanId(p, a, d)).not.toBe(generateHumanId(p, b, d));
      }),
    );
  });

  it('refuses too little randomness', () => {
    expect(() => generateHumanId('C', new Uint8Array(4))).toThrow(RangeError);
  });
});

describe('check character', () => {
  it('catches every single-character substitution', () => {
    const chars = [...HUMAN_ID_ALPHABET, 'C', 'S', 'I', '-'];
    fc.assert(
      fc.property(
        prefix,
        bytes,
        when,
        fc.nat(),
        fc.constantFrom(...chars),
        (p, r, d, pos, replacement) => {
          const id = generateHumanId(p, r, d);
          const i = pos % id.length;
          fc.pre(id[i] !== replacement);
          const changed = id.slice(0, i) + replacement + id.slice(i + 1);
          expect(isValidHumanId(changed)).toBe(false);
          // parseHumanId reads I as 1 on purpose (a read-alike, not a different character),
          // so that substitution gives back the original id; every other one is refused.
          const readAlike = i > 1 && replacement === 'I' && id[i] === '1';
          expect(parseHumanId(changed)).toBe(readAlike ? id : null);
        },
      ),
    );
  });
});

describe('parseHumanId', () => {
  it('round-trips: the canonical id parses to itself', () => {
    fc.assert(
      fc.property(prefix, bytes, when, (p, r, d) => {
        const id = generateHumanId(p, r, d);
        expect(parseHumanId(id)).toBe(id);
        expect(parseHumanId(id, p)).toBe(id);
      }),
    );
  });

  it('reads an id as typed or heard: lower case, spaces, no hyphens, O/I/L for 0/1/1', () => {
    fc.assert(
      fc.property(prefix, bytes, when, (p, r, d) => {
        const id = generateHumanId(p, r, d);
        const sloppy = id.toLowerCase().replaceAll('-', ' ');
        expect(parseHumanId(sloppy)).toBe(id);
        const body = id.slice(1).replaceAll('0', 'O').replaceAll('1', 'l');
        expect(parseHumanId(id[0] + body)).toBe(id);
      }),
    );
  });

  it('rejects other shapes and the wrong prefix', () => {
    const id = generateHumanId('C', new Uint8Array([9, 9, 9, 9, 9]));
    expect(parseHumanId(id, 'I')).toBeNull();
    expect(parseHumanId('')).toBeNull();
    expect(parseHumanId('C-1234')).toBeNull();
    expect(parseHumanId(`X${id.slice(1)}`)).toBeNull();
    expect(isValidHumanId(id.toLowerCase())).toBe(false);
  });
});

describe('humanIdSchema', () => {
  it('normalises to the canonical id and refuses an invalid one with a message', () => {
    const id = generateHumanId('I', new Uint8Array([200, 1, 2, 3, 4]));
    expect(humanIdSchema('I').parse(id.toLowerCase())).toBe(id);
    const result = humanIdSchema('I').safeParse('I-0000-0000-0000');
    // One check character in 32 is right by chance; this one is not.
    expect(parseHumanId('I-0000-0000-0000')).toBeNull();
    expect(result.success).toBe(false);
    if (!result.success) expect(result.error.issues[0]?.message).toBe('Invalid record number');
  });
});
