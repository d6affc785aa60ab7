// Uploads over real HTTP: the one-time upload URL, the PUT of raw bytes (type from the bytes,
// 10 MiB enforced while streaming, nothing left on disk after a refusal), who may read a
// stored file and with which headers, and recording documents on the account.
import { createHash } from 'node:crypto';
import { readdir, readFile } from 'node:fs/promises';
import http from 'node:http';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  MAX_UPLOAD_BYTES,
  UPLOAD_MESSAGES,
  type UserDocument,
} from '@rescuelog/sync-protocol/accounts/uploads';
import type { User } from '@rescuelog/sync-protocol/accounts/users';
import { SESSION_COOKIE } from '../src/plugins/external/session';
import { createDiskStorage } from '../src/services/object-storage';
import {
  cleanupUploads,
  LAPSED_TOKEN_GRACE_MS,
  UNREFERENCED_OBJECT_GRACE_MS,
  UPLOAD_URL_TTL_MS,
} from '../src/services/uploads-service';
import { build, loginAs, type TestApp, type TestClient, type TestUser } from './helpers';

interface ErrorBody {
  error: string;
  code: string;
  fieldErrors?: Record<string, string[]>;
}

const PNG = Buffer.concat([
  Buffer.from('89504e470d0a1a0a0000000d4948445200000001000000010806000000', 'hex'),
  Buffer.from('1f15c4890000000d49444154789c6300010000050001', 'hex'),
]);
const PDF = Buffer.from(
  '%PDF-1.7\n%\xe2\xe3\xcf\xd3\n1 0 obj\n<< /Type /Catalog >>\nendobj\ntrailer\n<< /Root 1 0 R >>\n%%EOF\n',
  'latin1',
);
const JPEG = Buffer.concat([
  Buffer.from('ffd8ffe000104a46494600010100000100010000', 'hex'),
  Buffer.alloc(64, 0x11),
  Buffer.from('ffd9', 'hex'),
]);
const GIF = Buffer.from(
  '47494638396101000100800000000000ffffff21f90401000000002c00000000010001000002024401003b',
  'hex',
);
const HTML = Buffer.from('<!doctype html><html><script>alert(document.cookie)</script></html>');

/** A PNG padded with trailing bytes to exactly `size` (decoders ignore data after IEND). */
function pngOfSize(size: number): Buffer {
  return Buffer.concat([PNG, Buffer.alloc(size - PNG.length, 0x20)]);
}

async function put(
  client: TestClient,
  uploadURL: string,
  bytes: Buffer,
  contentType = 'application/octet-stream',
): Promise<Response> {
  const headers: Record<string, string> = {
    'content-type': contentType,
    'x-requested-with': 'rescuelog',
  };
  if (client.sessionCookie) headers.cookie = `${SESSION_COOKIE}=${client.sessionCookie}`;
  return fetch(new URL(uploadURL, client.baseUrl), { method: 'PUT', headers, body: bytes });
}

async function uploadUrl(client: TestClient): Promise<string> {
  const res = await client.post('/api/objects/upload');
  expect(res.status).toBe(200);
  return ((await res.json()) as { uploadURL: string }).uploadURL;
}

async function upload(client: TestClient, bytes: Buffer, contentType?: string): Promise<string> {
  const res = await put(client, await uploadUrl(client), bytes, contentType);
  expect(res.status).toBe(200);
  return ((await res.json()) as { url: string }).url;
}

/**
 * PUT without Content-Length (chunked), over a raw socket, so the server cannot refuse
 * up front and must count while streaming. Resolves with the response once it arrives.
 */
function putChunked(
  client: TestClient,
  uploadURL: string,
  chunks: Iterable<Buffer>,
): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const url = new URL(uploadURL, client.baseUrl);
    const request = http.request(url, {
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
    // Once the server has answered and closed, further writes fail; that is the point.
    request.on('error', () => undefined);
    void (async () => {
      for (const chunk of chunks) {
        if (request.destroyed) return;
        if (!request.write(chunk)) await new Promise((r) => request.once('drain', r));
      }
      request.end();
    })();
  });
}

describe('uploads', () => {
  let t: TestApp;
  let admin: TestUser;
  let adminClient: TestClient;
  let member: TestUser;
  let memberClient: TestClient;
  let uploadsDir: string;

  beforeAll(async () => {
    t = await build();
    admin = await t.createUser({ role: 'administrator', status: 'approved' });
    adminClient = await loginAs(t, admin);
    member = await t.createUser({ status: 'approved' });
    memberClient = await loginAs(t, member);
    uploadsDir = path.join(t.dataDir, 'uploads');
  });
  afterAll(() => t.close());

  async function filesOnDisk(): Promise<string[]> {
    try {
      return (await readdir(uploadsDir)).sort();
    } catch {
      return [];
    }
  }

  it('hands a pending user a one-time, 15-minute upload URL; only a hash of its token is stored', async () => {
    const pending = await loginAs(t, await t.createUser({ status: 'pending' }));
    const before = Date.now();
    const res = await pending.post('/api/objects/upload');
    expect(res.status).toBe(200);
    const { uploadURL, expiresAt } = (await res.json()) as { uploadURL: string; expiresAt: string };
    expect(uploadURL).toMatch(/^\/api\/objects\/upload\/[A-Za-z0-9_-]{43}$/);
    const ttl = Date.parse(expiresAt) - before;
    expect(ttl).toBeGreaterThan(14 * 60 * 1000);
    expect(ttl).toBeLessThanOrEqual(15 * 60 * 1000 + 5000);

    const token = uploadURL.split('/').pop() ?? '';
    const rows = await t.db.selectFrom('uploads').selectAll().execute();
    expect(JSON.stringify(rows)).not.toContain(token);
    expect(rows.some((r) => r.tokenHash === createHash('sha256').update(token).digest('hex'))).toBe(
      true,
    );

    // And the pending user can use it.
    const stored = await put(pending, uploadURL, PDF, 'application/pdf');
    expect(stored.status).toBe(200);
  });

  it('limits how many unused upload URLs one user may hold (429 with Retry-After)', async () => {
    const client = await loginAs(t, await t.createUser({ status: 'approved' }));
    const urls: string[] = [];
    for (let i = 0; i < 20; i += 1) urls.push(await uploadUrl(client));
    const refused = await client.post('/api/objects/upload');
    expect(refused.status).toBe(429);
    const body = (await refused.json()) as ErrorBody & { retryAfterSeconds: number };
    expect(body.code).toBe('RATE_LIMITED');
    expect(body.retryAfterSeconds).toBeGreaterThan(0);
    expect(Number(refused.headers.get('retry-after'))).toBe(body.retryAfterSeconds);
    // Using one frees a place.
    expect((await put(client, urls[0] ?? '', PNG)).status).toBe(200);
    expect((await client.post('/api/objects/upload')).status).toBe(200);
  });

  it('needs a session for both steps', async () => {
    const anonymous = t.client();
    expect((await anonymous.post('/api/objects/upload')).status).toBe(401);
    const url = await uploadUrl(memberClient);
    const res = await put(anonymous, url, PNG, 'image/png');
    expect(res.status).toBe(401);
    // The URL was not spent by the refused attempt.
    expect((await put(memberClient, url, PNG, 'image/png')).status).toBe(200);
  });

  it('stores the bytes under a server-generated name and serves them back to the owner with safe headers', async () => {
    const url = await upload(memberClient, PNG, 'image/png');
    expect(url).toMatch(/^\/api\/objects\/[A-Za-z0-9_-]{32}\.png$/);
    const name = url.split('/').pop() ?? '';
    expect(await readFile(path.join(uploadsDir, name))).toEqual(PNG);

    const res = await memberClient.get(url);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('image/png');
    expect(res.headers.get('content-disposition')).toBe(`attachment; filename="${name}"`);
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    expect(res.headers.get('cache-control')).toContain('no-store');
    expect(Buffer.from(await res.arrayBuffer())).toEqual(PNG);

    const audit = await t.db
      .selectFrom('auditLog')
      .selectAll()
      .where('action', '=', 'upload.store')
      .where('entityId', '=', name)
      .execute();
    expect(audit).toHaveLength(1);
    expect(audit[0]?.actorUserId).toBe(member.row.id);
  });

  it('accepts each allowed type, judged by the bytes and not the declared type', async () => {
    expect(await upload(memberClient, PDF, 'image/png')).toMatch(/\.pdf$/);
    expect(await upload(memberClient, JPEG, 'application/octet-stream')).toMatch(/\.jpg$/);
    expect(await upload(memberClient, PNG, 'application/pdf')).toMatch(/\.png$/);
  });

  it.each([
    ['a GIF', GIF, 'image/gif'],
    ['HTML declared as a PDF', HTML, 'application/pdf'],
    ['an empty body', Buffer.alloc(0), 'image/png'],
    ['JSON', Buffer.from('{"a":1}'), 'application/json'],
  ])('refuses %s with 415 and stores nothing', async (_label, bytes, contentType) => {
    const before = await filesOnDisk();
    const url = await uploadUrl(memberClient);
    const res = await put(memberClient, url, bytes, contentType);
    expect(res.status).toBe(415);
    const body = (await res.json()) as ErrorBody;
    expect(body).toEqual({
      error: UPLOAD_MESSAGES.typeNotAllowed,
      code: 'UPLOAD_TYPE_NOT_ALLOWED',
    });
    expect(await filesOnDisk()).toEqual(before);
  });

  it('is one-time: a second PUT to the same URL is refused', async () => {
    const url = await uploadUrl(memberClient);
    expect((await put(memberClient, url, PNG)).status).toBe(200);
    const again = await put(memberClient, url, PNG);
    expect(again.status).toBe(404);
    expect(((await again.json()) as ErrorBody).code).toBe('UPLOAD_URL_INVALID');
  });

  it('refuses an expired URL, a made-up one, and one handed to another user', async () => {
    const expired = await uploadUrl(memberClient);
    await t.db
      .updateTable('uploads')
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where('status', '=', 'pending')
      .execute();
    expect((await put(memberClient, expired, PNG)).status).toBe(404);

    const madeUp = `/api/objects/upload/${'A'.repeat(43)}`;
    expect(((await (await put(memberClient, madeUp, PNG)).json()) as ErrorBody).code).toBe(
      'UPLOAD_URL_INVALID',
    );
    expect((await put(memberClient, '/api/objects/upload/short', PNG)).status).toBe(404);

    const theirs = await uploadUrl(adminClient);
    const stolen = await put(memberClient, theirs, PNG);
    expect(stolen.status).toBe(404);
    // The owner's URL still works: another user's attempt does not spend it.
    expect((await put(adminClient, theirs, PNG)).status).toBe(200);
  });

  it('accepts exactly 10 MiB', async () => {
    const url = await upload(memberClient, pngOfSize(MAX_UPLOAD_BYTES), 'image/png');
    const name = url.split('/').pop() ?? '';
    expect((await readFile(path.join(uploadsDir, name))).length).toBe(MAX_UPLOAD_BYTES);
  });

  it('refuses one byte more with 413, from the declared length', async () => {
    const before = await filesOnDisk();
    const res = await put(
      memberClient,
      await uploadUrl(memberClient),
      pngOfSize(MAX_UPLOAD_BYTES + 1),
      'image/png',
    );
    expect(res.status).toBe(413);
    expect(((await res.json()) as ErrorBody).code).toBe('PAYLOAD_TOO_LARGE');
    expect(await filesOnDisk()).toEqual(before);
  });

  it('refuses a chunked body while streaming, once it passes 10 MiB, and deletes the partial file', async () => {
    const before = await filesOnDisk();
    const url = await uploadUrl(memberClient);
    function* chunks(): Generator<Buffer> {
      yield PNG;
      // 12 MiB in 64 KiB chunks, with no Content-Length to refuse up front.
      for (let i = 0; i < 192; i += 1) yield Buffer.alloc(64 * 1024, 0x20);
    }
    const res = await putChunked(memberClient, url, chunks());
    expect(res.status).toBe(413);
    expect((JSON.parse(res.body) as ErrorBody).code).toBe('PAYLOAD_TOO_LARGE');
    expect(await filesOnDisk()).toEqual(before);
    const row = await t.db
      .selectFrom('uploads')
      .select(['status', 'storageKey'])
      .where(
        'tokenHash',
        '=',
        createHash('sha256')
          .update(url.split('/').pop() ?? '')
          .digest('hex'),
      )
      .executeTakeFirstOrThrow();
    expect(row).toEqual({ status: 'expired', storageKey: null });
  });

  it('serves a file only to its owner and administrators; other members get 403, audited', async () => {
    const url = await upload(memberClient, PDF);
    const name = url.split('/').pop() ?? '';
    const other = await t.createUser({ status: 'approved' });
    const otherClient = await loginAs(t, other);
    const denied = await otherClient.get(url);
    expect(denied.status).toBe(403);
    expect(((await denied.json()) as ErrorBody).code).toBe('FORBIDDEN');
    const audit = await t.db
      .selectFrom('auditLog')
      .selectAll()
      .where('action', '=', 'access.denied')
      .where('actorUserId', '=', other.row.id)
      .execute();
    expect(audit.some((a) => (a.details as { object?: string }).object === name)).toBe(true);

    const asAdmin = await adminClient.get(url);
    expect(asAdmin.status).toBe(200);
    expect(asAdmin.headers.get('content-type')).toBe('application/pdf');
    const read = await t.db
      .selectFrom('auditLog')
      .selectAll()
      .where('action', '=', 'upload.read')
      .where('entityId', '=', name)
      .execute();
    expect(read).toHaveLength(1);
    expect(read[0]).toMatchObject({ actorUserId: admin.row.id, details: { owner: member.row.id } });
    // The owner's own reads are not logged.
    await memberClient.get(url);
    expect(
      await t.db
        .selectFrom('auditLog')
        .select('id')
        .where('action', '=', 'upload.read')
        .where('entityId', '=', name)
        .execute(),
    ).toHaveLength(1);

    expect((await t.client().get(url)).status).toBe(401);
    expect(
      (await memberClient.get('/api/objects/AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA.png')).status,
    ).toBe(404);
    expect((await memberClient.get('/api/objects/..%2F..%2Fsession-secret')).status).toBe(404);
  });

  it('records documents the user uploaded on their account, and lists them for an administrator', async () => {
    const pending = await t.createUser({ status: 'pending' });
    const client = await loginAs(t, pending);
    const id = await upload(client, PDF);
    const certs = [await upload(client, PNG), await upload(client, JPEG)];

    const res = await client.request('PUT', '/api/user/documents', {
      json: { idDocumentUrl: id, certificationsUrl: certs },
    });
    expect(res.status).toBe(200);
    const { user } = (await res.json()) as { user: User };
    expect(user.idDocumentUrl).toBe(id);
    expect(JSON.parse(user.certificationsUrl ?? '[]')).toEqual(certs);
    expect(
      (
        await t.db
          .selectFrom('auditLog')
          .select('id')
          .where('action', '=', 'user.documents')
          .where('actorUserId', '=', pending.row.id)
          .execute()
      ).length,
    ).toBe(1);

    const listed = await adminClient.get(`/api/admin/users/${String(pending.row.id)}/documents`);
    expect(listed.status).toBe(200);
    const { documents } = (await listed.json()) as { documents: UserDocument[] };
    expect(documents.map((d) => [d.kind, d.url, d.contentType])).toEqual([
      ['idDocument', id, 'application/pdf'],
      ['certification', certs[0], 'image/png'],
      ['certification', certs[1], 'image/jpeg'],
    ]);
    expect(documents[0]?.sizeBytes).toBe(PDF.length);

    // A single URL for certifications is a list of one; null clears.
    const single = (await (
      await client.request('PUT', '/api/user/documents', { json: { certificationsUrl: certs[0] } })
    ).json()) as { user: User };
    expect(JSON.parse(single.user.certificationsUrl ?? '[]')).toEqual([certs[0]]);
    const cleared = (await (
      await client.request('PUT', '/api/user/documents', { json: { idDocumentUrl: null } })
    ).json()) as { user: User };
    expect(cleared.user.idDocumentUrl).toBeNull();
  });

  it('cleans up lapsed URLs and files no account refers to, keeping recorded documents', async () => {
    const owner = await t.createUser({ status: 'approved' });
    const client = await loginAs(t, owner);
    const kept = await upload(client, PDF);
    const orphan = await upload(client, PNG);
    await client.request('PUT', '/api/user/documents', { json: { idDocumentUrl: kept } });
    await uploadUrl(client); // never used
    const storage = createDiskStorage(uploadsDir);
    const name = (url: string) => url.split('/').pop() ?? '';

    // Within the grace periods nothing of this user's goes.
    await cleanupUploads(t.db, storage, { now: new Date(Date.now() + 60_000) });
    expect(await filesOnDisk()).toEqual(expect.arrayContaining([name(kept), name(orphan)]));

    const later = new Date(
      Date.now() +
        Math.max(UNREFERENCED_OBJECT_GRACE_MS, UPLOAD_URL_TTL_MS + LAPSED_TOKEN_GRACE_MS) +
        60_000,
    );
    const result = await cleanupUploads(t.db, storage, { now: later });
    expect(result.objects).toBeGreaterThanOrEqual(1);
    expect(result.tokens).toBeGreaterThanOrEqual(1);
    const files = await filesOnDisk();
    expect(files).toContain(name(kept));
    expect(files).not.toContain(name(orphan));
    expect((await client.get(kept)).status).toBe(200);
    expect((await client.get(orphan)).status).toBe(404);
    const rows = await t.db
      .selectFrom('uploads')
      .select(['status'])
      .where('ownerUserId', '=', owner.row.id)
      .execute();
    expect(rows).toEqual([{ status: 'stored' }]);
  });

  it("refuses URLs that are not the user's own stored uploads", async () => {
    const theirs = await upload(adminClient, PDF);
    const before = await t.db
      .selectFrom('users')
      .select(['idDocumentUrl', 'certificationsUrl'])
      .where('id', '=', member.row.id)
      .executeTakeFirstOrThrow();
    const cases: Array<[unknown, string]> = [
      [{ idDocumentUrl: theirs }, 'idDocumentUrl'],
      [{ idDocumentUrl: '/api/objects/AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA.pdf' }, 'idDocumentUrl'],
      [{ idDocumentUrl: 'https://evil.example/x.pdf' }, 'idDocumentUrl'],
      [{ certificationsUrl: [theirs] }, 'certificationsUrl'],
    ];
    for (const [body, field] of cases) {
      const res = await memberClient.request('PUT', '/api/user/documents', { json: body });
      expect(res.status, JSON.stringify(body)).toBe(400);
      const error = (await res.json()) as ErrorBody;
      expect(error.code).toBe('VALIDATION_FAILED');
      expect(Object.keys(error.fieldErrors ?? {})).toContain(field);
    }
    const six = await memberClient.request('PUT', '/api/user/documents', {
      json: { certificationsUrl: Array.from({ length: 6 }, () => theirs) },
    });
    expect(six.status).toBe(400);
    expect(((await six.json()) as ErrorBody).error).toBe(UPLOAD_MESSAGES.tooManyCertifications);
    const after = await t.db
      .selectFrom('users')
      .select(['idDocumentUrl', 'certificationsUrl'])
      .where('id', '=', member.row.id)
      .executeTakeFirstOrThrow();
    expect(after).toEqual(before);
  });
});
