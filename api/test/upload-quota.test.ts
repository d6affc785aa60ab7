// Attacks on the disk through uploads (issue 12): a pending account filling it with files it
// never attaches, many accounts from one address, parallel PUTs racing a quota, oversized
// PUTs that used to leave their URL usable, tokens in the request log, and the sweep that
// removes files nobody attached. Real app, real database, real HTTP.
import { readdir } from 'node:fs/promises';
import http from 'node:http';
import path from 'node:path';
import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { UPLOAD_MESSAGES } from '@rescuelog/sync-protocol/accounts/uploads';
import { SESSION_COOKIE } from '../src/plugins/external/session';
import { createDiskStorage } from '../src/services/object-storage';
import { cleanupUploads } from '../src/services/uploads-service';
import { build, loginAs, type TestApp, type TestClient } from './helpers';

interface ErrorBody {
  error: string;
  code: string;
  retryAfterSeconds?: number;
}

const PNG = Buffer.concat([
  Buffer.from('89504e470d0a1a0a0000000d4948445200000001000000010806000000', 'hex'),
  Buffer.from('1f15c4890000000d49444154789c6300010000050001', 'hex'),
]);
const KIB = 1024;

/** A PNG padded to exactly `size` bytes (decoders ignore data after the image). */
function png(size: number): Buffer {
  return Buffer.concat([PNG, Buffer.alloc(size - PNG.length, 0x20)]);
}

async function uploadUrl(client: TestClient): Promise<Response> {
  return client.post('/api/objects/upload');
}

async function newUrl(client: TestClient): Promise<string> {
  const res = await uploadUrl(client);
  expect(res.status, await res.clone().text()).toBe(200);
  return ((await res.json()) as { uploadURL: string }).uploadURL;
}

function put(client: TestClient, url: string, bytes: Buffer): Promise<Response> {
  return fetch(new URL(url, client.baseUrl), {
    method: 'PUT',
    headers: {
      'content-type': 'image/png',
      'x-requested-with': 'rescuelog',
      cookie: `${SESSION_COOKIE}=${client.sessionCookie ?? ''}`,
    },
    body: bytes,
  });
}

/** A PUT without Content-Length, so only counting while streaming can stop it. */
function putChunked(
  client: TestClient,
  url: string,
  total: number,
): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const request = http.request(new URL(url, client.baseUrl), {
      method: 'PUT',
      headers: {
        'content-type': 'image/png',
        'transfer-encoding': 'chunked',
        'x-requested-with': 'rescuelog',
        cookie: `${SESSION_COOKIE}=${client.sessionCookie ?? ''}`,
      },
    });
    request.on('response', (response) => {
      let body = '';
      response.setEncoding('utf8');
      response.on('data', (d: string) => (body += d));
      response.on('end', () => resolve({ status: response.statusCode ?? 0, body }));
      response.on('error', reject);
    });
    request.on('error', () => undefined);
    void (async () => {
      const bytes = png(total);
      for (let at = 0; at < bytes.length; at += 4 * KIB) {
        if (request.destroyed) return;
        if (!request.write(bytes.subarray(at, at + 4 * KIB)))
          await new Promise((r) => request.once('drain', r));
      }
      request.end();
    })();
  });
}

async function filesIn(t: TestApp): Promise<string[]> {
  try {
    return (await readdir(path.join(t.dataDir, 'uploads'))).sort();
  } catch {
    return [];
  }
}

describe('upload quota per account', () => {
  let t: TestApp;
  beforeAll(async () => {
    // 64 KiB per account; the other budgets out of the way.
    t = await build({ env: { UPLOAD_QUOTA_ACCOUNT_MIB: '0.0625' } });
  });
  afterAll(() => t.close());

  it('a pending account cannot store more than its quota, whether it declares the size or streams it', async () => {
    const client = await loginAs(t, await t.createUser({ status: 'pending' }));
    expect((await put(client, await newUrl(client), png(40 * KIB))).status).toBe(200);

    const files = await filesIn(t);
    const declared = await put(client, await newUrl(client), png(40 * KIB));
    expect(declared.status).toBe(413);
    expect((await declared.json()) as ErrorBody).toEqual({
      error: UPLOAD_MESSAGES.quotaAccount,
      code: 'UPLOAD_QUOTA',
    });

    const streamed = await putChunked(client, await newUrl(client), 40 * KIB);
    expect(streamed.status).toBe(413);
    expect((JSON.parse(streamed.body) as ErrorBody).code).toBe('UPLOAD_QUOTA');
    expect(await filesIn(t)).toEqual(files);

    // What fits still fits; once the quota is full, no new upload URL is handed out.
    expect((await put(client, await newUrl(client), png(24 * KIB))).status).toBe(200);
    const full = await uploadUrl(client);
    expect(full.status).toBe(413);
    expect(((await full.json()) as ErrorBody).code).toBe('UPLOAD_QUOTA');
  });

  it('parallel PUTs cannot race past the quota: each reserves its bytes when it spends its URL', async () => {
    const client = await loginAs(t, await t.createUser({ status: 'pending' }));
    const urls: string[] = [];
    for (let i = 0; i < 8; i += 1) urls.push(await newUrl(client));
    const results = await Promise.all(urls.map((url) => put(client, url, png(20 * KIB))));
    const statuses = results.map((r) => r.status).sort();
    // 64 KiB holds three files of 20 KiB, never more.
    expect(statuses).toEqual([200, 200, 200, 413, 413, 413, 413, 413]);
    const stored = await t.db
      .selectFrom('uploads')
      .select(['sizeBytes', 'reservedBytes'])
      .where(
        'ownerUserId',
        '=',
        ((await client.get('/api/user').then((r) => r.json())) as { user: { id: number } }).user.id,
      )
      .where('status', '=', 'stored')
      .execute();
    expect(stored).toHaveLength(3);
    // Every reservation ended with its PUT.
    const reserved = await t.db
      .selectFrom('uploads')
      .select('id')
      .where('reservedBytes', '>', '0')
      .execute();
    expect(reserved).toEqual([]);
  });
});

describe('upload quota per address and for pending accounts together', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await build({
      env: {
        UPLOAD_QUOTA_ADDRESS_MIB: '0.125', // 128 KiB a window from one address
        UPLOAD_QUOTA_ADDRESS_HOURS: '1',
        UPLOAD_QUOTA_PENDING_TOTAL_MIB: '0.0625', // 64 KiB for every pending account together
      },
    });
  });
  afterAll(() => t.close());

  it('pending accounts together stop at their total; an approved member is not held by it', async () => {
    const first = await loginAs(t, await t.createUser({ status: 'pending' }));
    const second = await loginAs(t, await t.createUser({ status: 'pending' }));
    expect((await put(first, await newUrl(first), png(40 * KIB))).status).toBe(200);
    const refused = await put(second, await newUrl(second), png(40 * KIB));
    expect(refused.status).toBe(429);
    const body = (await refused.json()) as ErrorBody;
    expect(body.code).toBe('UPLOAD_QUOTA');
    expect(body.error).toBe(UPLOAD_MESSAGES.quotaPending);
    expect(Number(refused.headers.get('retry-after'))).toBe(body.retryAfterSeconds);

    const member = await loginAs(t, await t.createUser({ status: 'approved' }));
    expect((await put(member, await newUrl(member), png(40 * KIB))).status).toBe(200);
  });

  it('one address stops at its quota across accounts, with Retry-After until the window frees room', async () => {
    // 80 KiB from 127.0.0.1 so far (the test above); 48 KiB more fit.
    const member = await loginAs(t, await t.createUser({ status: 'approved' }));
    expect((await put(member, await newUrl(member), png(40 * KIB))).status).toBe(200);
    const other = await loginAs(t, await t.createUser({ status: 'approved' }));
    const refused = await put(other, await newUrl(other), png(40 * KIB));
    expect(refused.status).toBe(429);
    const body = (await refused.json()) as ErrorBody;
    expect(body).toMatchObject({ code: 'UPLOAD_QUOTA', error: UPLOAD_MESSAGES.quotaAddress });
    expect(body.retryAfterSeconds).toBeGreaterThan(3500);
    expect(body.retryAfterSeconds).toBeLessThanOrEqual(3600);

    // Once the window has passed, the address may upload again.
    await t.db
      .updateTable('uploads')
      .set({ storedAt: new Date(Date.now() - 2 * 60 * 60 * 1000) })
      .where('status', '=', 'stored')
      .execute();
    expect((await put(other, await newUrl(other), png(40 * KIB))).status).toBe(200);
  });
});

describe('upload URLs are spent by any attempt, and never logged', () => {
  const lines: string[] = [];
  let t: TestApp;
  beforeAll(async () => {
    const stream = new Writable({
      write(chunk: Buffer, _encoding, done) {
        lines.push(chunk.toString('utf8'));
        done();
      },
    });
    t = await build({ logger: { level: 'info', stream } });
  });
  afterAll(() => t.close());

  it('a PUT refused for its declared size spends the URL', async () => {
    const client = await loginAs(t, await t.createUser({ status: 'pending' }));
    const url = await newUrl(client);
    const tooBig = await put(client, url, png(10 * 1024 * 1024 + 1));
    expect(tooBig.status).toBe(413);
    expect(((await tooBig.json()) as ErrorBody).code).toBe('PAYLOAD_TOO_LARGE');
    const again = await put(client, url, PNG);
    expect(again.status).toBe(404);
    expect(((await again.json()) as ErrorBody).code).toBe('UPLOAD_URL_INVALID');
  });

  it('the request log shows upload URLs with the token redacted', async () => {
    const client = await loginAs(t, await t.createUser({ status: 'pending' }));
    const url = await newUrl(client);
    const token = url.split('/').pop() ?? '';
    expect((await put(client, url, PNG)).status).toBe(200);
    expect((await put(client, url, PNG)).status).toBe(404);
    const log = lines.join('');
    expect(log).toContain('/api/objects/upload/[redacted]');
    expect(log).not.toContain(token);
  });
});

describe('the sweep of uploads nobody attached', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await build({ env: { UPLOAD_ORPHAN_HOURS: '2' } });
  });
  afterAll(() => t.close());

  async function orphanOf(client: TestClient, ageHours: number): Promise<string> {
    const res = await put(client, await newUrl(client), PNG);
    const name = ((await res.json()) as { url: string }).url.split('/').pop() ?? '';
    await t.db
      .updateTable('uploads')
      .set({ storedAt: new Date(Date.now() - ageHours * 60 * 60 * 1000) })
      .where('storageKey', '=', name)
      .execute();
    return name;
  }

  it('runs when an instance starts, and removes files unattached past UPLOAD_ORPHAN_HOURS only', async () => {
    const client = await loginAs(t, await t.createUser({ status: 'pending' }));
    const old = await orphanOf(client, 3);
    const recent = await orphanOf(client, 1);
    const attached = await orphanOf(client, 3);
    expect(
      (
        await client.request('PUT', '/api/user/documents', {
          json: { idDocumentUrl: `/api/objects/${attached}` },
        })
      ).status,
    ).toBe(200);

    // A second instance on the same database sweeps at its start.
    const second = await build({
      database: { db: t.db, close: async () => {} },
      env: { UPLOAD_ORPHAN_HOURS: '2' },
    });
    try {
      const deadline = Date.now() + 10_000;
      const keys = async () =>
        (await t.db.selectFrom('uploads').select('storageKey').execute()).map((r) => r.storageKey);
      while ((await keys()).includes(old) && Date.now() < deadline)
        await new Promise((r) => setTimeout(r, 50));
      expect(await keys()).not.toContain(old);
      expect(await keys()).toEqual(expect.arrayContaining([recent, attached]));
    } finally {
      await second.close();
    }
  });

  it('two instances sweeping at once remove each file exactly once, without errors', async () => {
    const client = await loginAs(t, await t.createUser({ status: 'pending' }));
    const names: string[] = [];
    for (let i = 0; i < 6; i += 1) names.push(await orphanOf(client, 5));
    const storage = createDiskStorage(path.join(t.dataDir, 'uploads'));
    const [a, b] = await Promise.all([
      cleanupUploads(t.db, storage, { orphanGraceMs: 2 * 60 * 60 * 1000 }),
      cleanupUploads(t.db, storage, { orphanGraceMs: 2 * 60 * 60 * 1000 }),
    ]);
    expect(a.objects + b.objects).toBe(6);
    const files = await filesIn(t);
    for (const name of names) expect(files).not.toContain(name);
  });
});
