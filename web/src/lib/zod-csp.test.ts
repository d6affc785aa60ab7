// Issue 37: in a page (and the service worker) zod never probes `new Function`, which the
// app's script-src refuses and the browser reports as a CSP violation on every page; the
// shared zod-config.ts turns zod's compiled parsers off there (decision 059).
import { UNDER_CONTENT_SECURITY_POLICY } from '@rescuelog/sync-protocol/zod-config';
import { z } from 'zod';
import { describe, expect, it, vi } from 'vitest';

describe('zod under the CSP', () => {
  it('parses without compiling a function', () => {
    expect(UNDER_CONTENT_SECURITY_POLICY).toBe(true);
    expect(z.config().jitless).toBe(true);
    const compile = vi.spyOn(globalThis, 'Function');
    expect(z.object({ a: z.string() }).parse({ a: 'x' })).toEqual({ a: 'x' });
    expect(compile).not.toHaveBeenCalled();
    compile.mockRestore();
  });
});
