// The lazily loaded boundary schemas (lib/boundary-schemas.ts): an answer is still parsed with
// the schema before anyone sees it, and an error answer never waits for the schema's chunk.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { boundarySchemas, getJson, HttpError, parseErrorBody, sendJson } from './api-client';

function answer(status: number, body: unknown): Response {
  return new Response(JSON.stringify(body), {
    status,
    headers: { 'content-type': 'application/json' },
  });
}

describe('api-client with a schema loaded on demand', () => {
  afterEach(() => {
    vi.unstubAllGlobals();
  });

  it('parses the answer with the loaded schema and refuses one that does not match', async () => {
    const schema = z.object({ user: z.object({ id: z.number() }) });
    vi.stubGlobal('fetch', vi.fn().mockResolvedValue(answer(200, { user: { id: 'x' } })));
    await expect(getJson('/api/user', () => Promise.resolve(schema))).rejects.toBeInstanceOf(
      z.ZodError,
    );
    vi.stubGlobal('fetch', vi.fn().mockResolvedValue(answer(200, { user: { id: 7 } })));
    await expect(getJson('/api/user', () => Promise.resolve(schema))).resolves.toEqual({
      user: { id: 7 },
    });
  });

  it('refuses a current-user answer the shared schema does not accept', async () => {
    const load = () => boundarySchemas().then((s) => s.currentUserResponseSchema);
    vi.stubGlobal('fetch', vi.fn().mockResolvedValue(answer(200, { user: { id: 1 } })));
    await expect(getJson('/api/user', load)).rejects.toBeInstanceOf(z.ZodError);
  });

  it('reports an error answer without waiting for the schema', async () => {
    vi.stubGlobal('fetch', vi.fn().mockResolvedValue(answer(401, { error: 'no' })));
    const never = () => new Promise<z.ZodType>(() => undefined);
    await expect(sendJson('POST', '/api/login', never, {})).rejects.toBeInstanceOf(HttpError);
  });

  it('reads an error body with the API error schema once it is loaded, never unparsed', async () => {
    await boundarySchemas();
    const structured = new HttpError(
      400,
      'Bad Request',
      JSON.stringify({ error: 'Invalid input', code: 'VALIDATION_FAILED' }),
    );
    expect(parseErrorBody(structured)).toMatchObject({ code: 'VALIDATION_FAILED' });
    const malformed = new HttpError(400, 'Bad Request', JSON.stringify({ code: 42 }));
    expect(parseErrorBody(malformed)).toBeUndefined();
  });
});
