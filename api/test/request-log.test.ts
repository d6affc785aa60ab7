// Production logs one line per request, written when it is answered: what was asked, the
// status and how long it took (Fastify's default was two lines, "incoming request" and
// "request completed", doubling the log and its cost under load).
import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { build, type TestApp } from './helpers';

interface LogLine {
  reqId?: string;
  msg?: string;
  req?: { method?: string; url?: string };
  res?: { statusCode?: number };
  responseTime?: number;
}

describe('the request log', () => {
  const lines: LogLine[] = [];
  let t: TestApp;
  beforeAll(async () => {
    const stream = new Writable({
      write(chunk: Buffer, _encoding, done) {
        for (const line of chunk.toString('utf8').split('\n'))
          if (line.trim() !== '') lines.push(JSON.parse(line) as LogLine);
        done();
      },
    });
    t = await build({ logger: { level: 'info', stream } });
  });
  afterAll(() => t.close());

  it('writes one line per request, with its route, status and time', async () => {
    lines.length = 0;
    expect((await fetch(`${t.url}/api/health`)).status).toBe(200);
    expect((await fetch(`${t.url}/api/no-such-route`)).status).toBe(404);
    const requests = lines.filter((line) => line.reqId !== undefined);
    expect(requests.map((line) => [line.msg, line.req?.url, line.res?.statusCode])).toEqual([
      ['request completed', '/api/health', 200],
      ['request completed', '/api/no-such-route', 404],
    ]);
    for (const line of requests) expect(line.responseTime).toBeGreaterThanOrEqual(0);
  });
});
