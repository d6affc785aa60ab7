import { PROTOCOL_CATEGORIES, protocolSchema } from '@rescuelog/sync-protocol/reference/first-aid';
import { describe, expect, it } from 'vitest';
import { PROTOCOLS, protocolFor, URGENT } from './protocol-library';
import { searchProtocols } from './protocol-search';

// Every file of the folder, whatever it exports: a file the library would skip fails here.
const modules = import.meta.glob<Record<string, unknown>>('./content/*', { eager: true });
const files = Object.keys(modules).map((k) => k.replace('./content/', ''));

describe('first aid protocol content', () => {
  it.each(files)('%s parses with the protocol schema and is named by its category', (f) => {
    const parsed = protocolSchema.safeParse(modules[`./content/${f}`]?.protocol);
    expect(parsed.error?.issues ?? []).toEqual([]);
    expect(`${parsed.data?.category}.ts`).toBe(f);
  });

  it('has one file for every category of domain.md, in its order', () => {
    expect(files.sort()).toEqual([...PROTOCOL_CATEGORIES].map((c) => `${c}.ts`).sort());
    expect(PROTOCOLS.map((p) => p.category)).toEqual([...PROTOCOL_CATEGORIES]);
  });

  it('has adult, child and infant steps for CPR and choking', () => {
    for (const c of ['cpr', 'choking']) {
      expect(protocolFor(c)?.variants.map((v) => v.age)).toEqual(['adult', 'child', 'infant']);
    }
  });

  it('names a guideline and a warning for each protocol', () => {
    for (const p of PROTOCOLS) {
      expect(p.guideline.name.length, p.category).toBeGreaterThan(10);
      expect(
        p.warnings.some((w) => /^Do not|^Never/.test(w)),
        p.category,
      ).toBe(true);
    }
  });

  it('puts CPR, choking, bleeding and anaphylaxis in the quick grid', () => {
    expect(URGENT.map((p) => p.category)).toEqual([
      'cpr',
      'choking',
      'severe-bleeding',
      'anaphylaxis',
    ]);
  });

  it('refuses a protocol without steps, or with two variants for one age', () => {
    const cpr = protocolFor('cpr');
    expect(protocolSchema.safeParse({ ...cpr, variants: [] }).success).toBe(false);
    const adult = cpr?.variants[0];
    expect(protocolSchema.safeParse({ ...cpr, variants: [adult, adult] }).success).toBe(false);
    expect(protocolSchema.safeParse({ ...cpr, category: 'unknown' }).success).toBe(false);
  });
});

describe('searchProtocols', () => {
  const top = (q: string) => searchProtocols(PROTOCOLS, q)[0]?.category;

  it.each([
    ['bee sting', 'anaphylaxis'],
    ['bleeding', 'severe-bleeding'],
    ['Bleeding ', 'severe-bleeding'],
    ['not breathing', 'cpr'],
    ['heimlich', 'choking'],
    ['face drooping', 'stroke'],
    ['low blood sugar', 'diabetic-emergency'],
    ['burns', 'burns'],
    ['puff adder', 'snake-bite'],
    ['fit', 'seizures'],
  ])('"%s" finds %s first', (q, category) => {
    expect(top(q)).toBe(category);
  });

  it('finds nothing for words no protocol has, and everything for an empty query', () => {
    expect(searchProtocols(PROTOCOLS, 'spaceship warp drive')).toEqual([]);
    expect(searchProtocols(PROTOCOLS, '  ')).toHaveLength(PROTOCOLS.length);
  });
});
