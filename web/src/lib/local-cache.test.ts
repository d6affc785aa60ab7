import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { CACHE_MAX_AGE_MS, clearCached, getCached, setCached } from './local-cache';

const schema = z.object({ n: z.number() });

describe('cache_ local storage', () => {
  afterEach(() => localStorage.clear());

  it('stores under a cache_ key and reads back within 24 h', () => {
    setCached('stats', { n: 3 }, 1000);
    expect(localStorage.getItem('cache_stats')).not.toBeNull();
    expect(getCached('stats', schema, 1000 + CACHE_MAX_AGE_MS)).toEqual({ n: 3 });
  });

  it('drops an entry older than 24 h', () => {
    setCached('stats', { n: 3 }, 1000);
    expect(getCached('stats', schema, 1000 + CACHE_MAX_AGE_MS + 1)).toBeUndefined();
    expect(localStorage.getItem('cache_stats')).toBeNull();
  });

  it('ignores entries that do not match the schema or are not JSON', () => {
    setCached('stats', { n: 'three' }, 1000);
    expect(getCached('stats', schema, 1000)).toBeUndefined();
    localStorage.setItem('cache_bad', '{oops');
    expect(getCached('bad', schema, 1000)).toBeUndefined();
  });

  it('clears only cache_ entries', () => {
    setCached('a', { n: 1 });
    setCached('b', { n: 2 });
    localStorage.setItem('device-id', 'keep');
    clearCached();
    expect(localStorage.length).toBe(1);
    expect(localStorage.getItem('device-id')).toBe('keep');
  });
});
