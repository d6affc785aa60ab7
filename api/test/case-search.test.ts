// GET /api/cases as case search (Cases Logged): every filter and combinations, keyset pages
// across equal createdAt values, visibility, bad input, and a property test that the server
// and the device's matcher (sync-protocol/src/cases/search.ts) return the same ids in the
// same order for the same data. Cases are inserted straight into the database.
import fc from 'fast-check';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Insertable } from 'kysely';
import type { CasesTable } from '@rescuelog/db/schema';
import {
  compareCasesNewestFirst,
  matchesCaseSearch,
  type CaseSearchFilters,
} from '@rescuelog/sync-protocol/cases/search';
import { DEFAULT_SERVICE_TIME_ZONE } from '@rescuelog/sync-protocol/time';
import { caseListSchema, type CaseSummary } from '@rescuelog/sync-protocol/cases/api';
import { decodeCaseCursor, encodeCaseCursor } from '../src/services/cases-service';
import { build, loginAs, type TestApp, type TestClient, type TestUser } from './helpers';

interface ErrorBody {
  error: string;
  code: string;
  fieldErrors?: Record<string, string[]>;
}

type NewCase = Omit<Insertable<CasesTable>, 'userId' | 'caseId'> & {
  userId?: number;
  caseId?: string;
};

describe('GET /api/cases (case search)', () => {
  let t: TestApp;
  let author: TestUser;
  let other: TestUser;
  let admin: TestUser;
  let counter = 0;

  beforeAll(async () => {
    t = await build();
    author = await t.createUser({ fullName: 'Author' });
    other = await t.createUser({ fullName: 'Other' });
    admin = await t.createUser({ role: 'administrator', fullName: 'Chief' });
    // Members see other people's cases only with an explicit casesLogged view (decision 024).
    await t.db
      .updateTable('users')
      .set({ permissions: JSON.stringify({ casesLogged: { view: true } }) })
      .where('id', 'in', [author.row.id, other.row.id])
      .execute();
  });
  afterAll(() => t.close());

  async function insert(cases: NewCase[]): Promise<void> {
    if (cases.length === 0) return;
    await t.db
      .insertInto('cases')
      .values(
        cases.map((c) => {
          counter += 1;
          return {
            ...c,
            caseId: c.caseId ?? `C-T${String(counter).padStart(3, '0')}-0000-0000`,
            userId: c.userId ?? author.row.id,
          };
        }),
      )
      .execute();
  }

  async function list(
    client: TestClient,
    query: string,
  ): Promise<{ cases: CaseSummary[]; next: string | null }> {
    const res = await client.get(`/api/cases${query}`);
    expect(res.status, await res.clone().text()).toBe(200);
    return {
      cases: caseListSchema.parse(await res.json()),
      next: res.headers.get('x-next-cursor'),
    };
  }

  async function ids(client: TestClient, query: string): Promise<string[]> {
    return (await list(client, query)).cases.map((c) => c.caseId);
  }

  describe('filters', () => {
    let client: TestClient;

    beforeAll(async () => {
      await t.db.deleteFrom('cases').execute();
      await insert([
        // 20 Nov 2026 23:30 SAST (21:30 UTC): the 20th in Johannesburg, also the 20th in UTC.
        {
          caseId: 'C-2611-AAAA-0001',
          createdAt: '2026-11-20T21:30:00Z',
          patientName: 'Thandi Nkosi',
          incidentType: 'Fall',
          status: 'completed',
          responderName: 'Sipho Dlamini',
          responderCallSign: 'R7',
        },
        // 21 Nov 00:30 SAST = 20 Nov 22:30 UTC: the 21st in Johannesburg, the 20th in UTC.
        {
          caseId: 'C-2611-AAAA-0002',
          createdAt: '2026-11-20T22:30:00Z',
          patientName: 'Johan van der Merwe',
          incidentType: 'Motor vehicle accident',
          status: 'in_progress',
          responderName: 'Anele Mokoena',
          responderCallSign: 'ALPHA-2',
        },
        {
          caseId: 'C-2611-BBBB-0003',
          createdAt: '2026-11-22T08:00:00Z',
          patientName: null,
          incidentType: 'fall',
          status: 'in_progress',
          responderName: null,
          responderCallSign: 'R70',
          userId: other.row.id,
        },
        {
          caseId: 'C-2612-0010-0004',
          createdAt: '2026-12-01T08:00:00Z',
          patientName: 'Émile Zoë Naidoo',
          incidentType: null,
          status: 'completed',
          responderName: 'Sipho Dlamini',
          responderCallSign: null,
          userId: other.row.id,
        },
        {
          caseId: 'C-2612-CCCC-0005',
          createdAt: '2026-12-02T08:00:00Z',
          patientName: '100% _odd\\ name',
          incidentType: 'Burn',
          status: 'completed',
          responderName: null,
          responderCallSign: null,
          deletedAt: new Date(),
        },
        {
          caseId: 'C-2612-CCCC-0006',
          createdAt: '2026-12-03T08:00:00Z',
          patientName: '100% _odd\\ name',
          incidentType: 'Burn',
          status: 'completed',
        },
      ]);
      client = await loginAs(t, author);
    });

    it('lists every live case newest first with the summary fields', async () => {
      const { cases, next } = await list(client, '');
      expect(cases.map((c) => c.caseId)).toEqual([
        'C-2612-CCCC-0006',
        'C-2612-0010-0004',
        'C-2611-BBBB-0003',
        'C-2611-AAAA-0002',
        'C-2611-AAAA-0001',
      ]);
      expect(next).toBeNull();
      expect(cases[3]).toEqual({
        id: expect.any(String) as string,
        caseId: 'C-2611-AAAA-0002',
        patientName: 'Johan van der Merwe',
        incidentType: 'Motor vehicle accident',
        status: 'in_progress',
        createdAt: '2026-11-20T22:30:00.000Z',
        completedAt: null,
        userId: author.row.id,
        responderName: 'Anele Mokoena',
        responderCallSign: 'ALPHA-2',
      });
    });

    it('case number: from its start, ignoring case, dashes, spaces and O/I/L read-alikes', async () => {
      expect(await ids(client, '?caseId=c-2611-aaaa')).toEqual([
        'C-2611-AAAA-0002',
        'C-2611-AAAA-0001',
      ]);
      expect(await ids(client, '?caseId=C2611AAAA0001')).toEqual(['C-2611-AAAA-0001']);
      expect(await ids(client, '?caseId=C 2612 OOIO')).toEqual(['C-2612-0010-0004']);
      // Not "contains": the middle of a number does not match.
      expect(await ids(client, '?caseId=AAAA')).toEqual([]);
    });

    it('patient name: contains, case-insensitive (accents too), wildcards taken literally', async () => {
      expect(await ids(client, '?patientName=NKOSI')).toEqual(['C-2611-AAAA-0001']);
      expect(await ids(client, '?patientName=van%20der')).toEqual(['C-2611-AAAA-0002']);
      expect(await ids(client, '?patientName=%C3%A9MILE%20zo%C3%8B')).toEqual(['C-2612-0010-0004']);
      expect(await ids(client, `?patientName=${encodeURIComponent('0% _odd\\')}`)).toEqual([
        'C-2612-CCCC-0006',
      ]);
      expect(await ids(client, `?patientName=${encodeURIComponent('%')}`)).toEqual([
        'C-2612-CCCC-0006',
      ]);
      expect(await ids(client, `?patientName=${encodeURIComponent('_')}`)).toEqual([
        'C-2612-CCCC-0006',
      ]);
    });

    it('incident type: exact, case-insensitive', async () => {
      expect(await ids(client, '?incidentType=FALL')).toEqual([
        'C-2611-BBBB-0003',
        'C-2611-AAAA-0001',
      ]);
      expect(await ids(client, '?incidentType=Motor')).toEqual([]);
    });

    it('dates: whole days in Africa/Johannesburg, both ends inclusive', async () => {
      // 00:30 SAST on the 21st is still the 20th in UTC: a UTC day would get this wrong.
      expect(await ids(client, '?from=2026-11-21&to=2026-11-21')).toEqual(['C-2611-AAAA-0002']);
      expect(await ids(client, '?to=2026-11-20')).toEqual(['C-2611-AAAA-0001']);
      expect(await ids(client, '?from=2026-11-22')).toEqual([
        'C-2612-CCCC-0006',
        'C-2612-0010-0004',
        'C-2611-BBBB-0003',
      ]);
      expect(await ids(client, '?from=2026-12-02&to=2026-12-01')).toEqual([]);
    });

    it('status', async () => {
      expect(await ids(client, '?status=in_progress')).toEqual([
        'C-2611-BBBB-0003',
        'C-2611-AAAA-0002',
      ]);
      expect(await ids(client, '?status=completed')).toEqual([
        'C-2612-CCCC-0006',
        'C-2612-0010-0004',
        'C-2611-AAAA-0001',
      ]);
    });

    it('responder: contains in the name or the call sign', async () => {
      expect(await ids(client, '?responder=sipho')).toEqual([
        'C-2612-0010-0004',
        'C-2611-AAAA-0001',
      ]);
      expect(await ids(client, '?responder=r7')).toEqual(['C-2611-BBBB-0003', 'C-2611-AAAA-0001']);
      expect(await ids(client, '?responder=alpha')).toEqual(['C-2611-AAAA-0002']);
    });

    it('contains: one, two and three characters alike (the short ones take another index)', async () => {
      expect(await ids(client, '?patientName=h')).toEqual(['C-2611-AAAA-0002', 'C-2611-AAAA-0001']);
      expect(await ids(client, '?patientName=zo')).toEqual(['C-2612-0010-0004']);
      expect(await ids(client, `?patientName=${encodeURIComponent('Ë')}`)).toEqual([
        'C-2612-0010-0004',
      ]);
      expect(await ids(client, `?patientName=${encodeURIComponent('zoË')}`)).toEqual([
        'C-2612-0010-0004',
      ]);
      expect(await ids(client, `?patientName=${encodeURIComponent('ë n')}`)).toEqual([
        'C-2612-0010-0004',
      ]);
      expect(await ids(client, '?patientName=q')).toEqual([]);
      expect(await ids(client, '?patientName=qq')).toEqual([]);
      expect(await ids(client, '?responder=7')).toEqual(['C-2611-BBBB-0003', 'C-2611-AAAA-0001']);
      expect(await ids(client, '?responder=A-')).toEqual(['C-2611-AAAA-0002']);
      expect(await ids(client, '?responder=o')).toEqual([
        'C-2612-0010-0004',
        'C-2611-AAAA-0002',
        'C-2611-AAAA-0001',
      ]);
      expect(await ids(client, '?responder=zz')).toEqual([]);
    });

    it('responder: a pattern never spans the name and the call sign', async () => {
      // 'Sipho Dlamini' and 'R7': no field holds "i" then "r", nor "ir".
      for (const q of ['ir', 'i r', 'i\u001fr', '\u001fr', 'i\u001f', 'dlamini\u001fr7']) {
        expect(await ids(client, `?responder=${encodeURIComponent(q)}`), JSON.stringify(q)).toEqual(
          [],
        );
      }
    });

    it('contains counts characters, not UTF-16 units: emoji and combining accents', async () => {
      // 'A🚑b e' + U+0301: the ambulance is one character of two UTF-16 units, the é two characters.
      await insert([
        {
          caseId: 'C-2611-GGGG-0001',
          createdAt: '2026-11-26T08:00:00Z',
          patientName: 'A🚑b e\u0301',
          responderCallSign: 'X🚑',
        },
      ]);
      try {
        for (const q of ['🚑', 'a🚑', '🚑B', 'e\u0301', '\u0301', 'b e\u0301']) {
          expect(
            await ids(client, `?patientName=${encodeURIComponent(q)}`),
            JSON.stringify(q),
          ).toEqual(['C-2611-GGGG-0001']);
        }
        // A precomposed é is another character than e + U+0301 (the device compares the same way).
        expect(await ids(client, `?patientName=${encodeURIComponent('é')}`)).toEqual([
          'C-2612-0010-0004',
        ]);
        expect(await ids(client, `?responder=${encodeURIComponent('x🚑')}`)).toEqual([
          'C-2611-GGGG-0001',
        ]);
      } finally {
        await t.db.deleteFrom('cases').where('caseId', '=', 'C-2611-GGGG-0001').execute();
      }
    });

    it('only my cases', async () => {
      expect(await ids(client, '?mine=true')).toEqual([
        'C-2612-CCCC-0006',
        'C-2611-AAAA-0002',
        'C-2611-AAAA-0001',
      ]);
      expect(await ids(await loginAs(t, other), '?mine=true')).toEqual([
        'C-2612-0010-0004',
        'C-2611-BBBB-0003',
      ]);
      // mine=false and an empty value mean "everyone's" (the form's unchecked box).
      expect(await ids(client, '?mine=false')).toHaveLength(5);
      expect(await ids(client, '?mine=')).toHaveLength(5);
    });

    it('combines filters (all must hold); empty values are no filter', async () => {
      expect(await ids(client, '?incidentType=fall&status=in_progress')).toEqual([
        'C-2611-BBBB-0003',
      ]);
      expect(await ids(client, '?responder=sipho&from=2026-11-01&to=2026-11-30')).toEqual([
        'C-2611-AAAA-0001',
      ]);
      expect(
        await ids(client, '?caseId=C-2611&mine=true&status=completed&patientName=thandi'),
      ).toEqual(['C-2611-AAAA-0001']);
      expect(
        await ids(client, '?caseId=C-2611&responder=r7&incidentType=Fall&status=completed'),
      ).toEqual(['C-2611-AAAA-0001']);
      expect(
        await ids(
          client,
          '?caseId=&patientName=&incidentType=&from=&to=&status=&responder=&mine=&cursor=',
        ),
      ).toHaveLength(5);
    });

    it('shows a member whose casesLogged view is withdrawn only their own cases, whatever the filters', async () => {
      const restricted = await t.createUser({ fullName: 'Restricted' });
      await t.db
        .updateTable('users')
        .set({ permissions: JSON.stringify({ casesLogged: { view: false, edit: true } }) })
        .where('id', '=', restricted.row.id)
        .execute();
      await insert([
        {
          caseId: 'C-2611-RRRR-0001',
          createdAt: '2026-11-25T08:00:00Z',
          incidentType: 'Fall',
          userId: restricted.row.id,
        },
      ]);
      const restrictedClient = await loginAs(t, restricted);
      expect(await ids(restrictedClient, '')).toEqual(['C-2611-RRRR-0001']);
      expect(await ids(restrictedClient, '?incidentType=fall')).toEqual(['C-2611-RRRR-0001']);
      expect(await ids(restrictedClient, '?caseId=C-2611-AAAA')).toEqual([]);
      // Whoever holds a casesLogged view grant sees it.
      expect(await ids(client, '?caseId=C-2611-RRRR')).toEqual(['C-2611-RRRR-0001']);
      await t.db.deleteFrom('cases').where('caseId', '=', 'C-2611-RRRR-0001').execute();
    });

    it('refuses bad parameters with 400 and the generic messages, never a 500', async () => {
      const cases: Array<[string, string, string]> = [
        ['?status=open', 'status', 'Invalid enum value'],
        ['?limit=0', 'limit', 'Number must be greater than or equal to 1'],
        ['?limit=201', 'limit', 'Number must be less than or equal to 200'],
        ['?limit=abc', 'limit', 'Invalid input'],
        ['?from=21-11-2026', 'from', 'Use a date like 2026-11-21'],
        ['?to=2026-02-30', 'to', 'There is no 30 February 2026'],
        ['?from=0000-01-01', 'from', 'Use a date between 1900 and 9999'],
        ['?mine=yes', 'mine', 'Invalid enum value'],
        ['?colour=red', '_', "Unrecognized key(s) in object: 'colour'"],
        [
          `?patientName=${'x'.repeat(201)}`,
          'patientName',
          'String must contain at most 200 character(s)',
        ],
        ['?caseId=a&caseId=b', 'caseId', 'Invalid input'],
        ['?cursor=not-a-cursor', 'cursor', 'Invalid input'],
        [
          `?cursor=${Buffer.from('["2026-11-20", "x"]').toString('base64url')}`,
          'cursor',
          'Invalid input',
        ],
        [`?cursor=${Buffer.from('{"a":1}').toString('base64url')}`, 'cursor', 'Invalid input'],
        ['?cursor=%2B%2F%3D', 'cursor', 'Invalid input'],
      ];
      for (const [query, field, message] of cases) {
        const res = await client.get(`/api/cases${query}`);
        expect(res.status, query).toBe(400);
        expect((await res.json()) as ErrorBody, query).toEqual({
          error: message,
          code: 'VALIDATION_FAILED',
          fieldErrors: { [field]: [message] },
        });
      }
    });

    it('needs a signed-in, approved user', async () => {
      expect((await t.client().get('/api/cases')).status).toBe(401);
    });
  });

  describe('keyset pages', () => {
    beforeEach(async () => {
      await t.db.deleteFrom('cases').execute();
    });

    it('walks every case exactly once across pages, with many cases at the same instant', async () => {
      const same = '2026-11-21T06:00:00.000Z';
      await insert([
        ...Array.from({ length: 7 }, (_, i) => ({
          caseId: `C-SAME-${String(i)}`,
          createdAt: same,
        })),
        { caseId: 'C-LATER', createdAt: '2026-11-21T06:00:00.001Z' },
        { caseId: 'C-EARLIER', createdAt: '2026-11-21T05:59:59.999Z' },
        // A microsecond apart: the cursor keeps the database's precision.
        { caseId: 'C-MICRO-A', createdAt: '2026-11-21T05:00:00.000001Z' },
        { caseId: 'C-MICRO-B', createdAt: '2026-11-21T05:00:00.000002Z' },
      ]);
      const client = await loginAs(t, author);
      const seen: string[][] = [];
      let query = '?limit=3';
      for (;;) {
        const { cases, next } = await list(client, query);
        seen.push(cases.map((c) => c.caseId));
        if (next === null) break;
        expect(next).toMatch(/^[A-Za-z0-9_-]+$/);
        query = `?limit=3&cursor=${next}`;
      }
      expect(seen).toEqual([
        ['C-LATER', 'C-SAME-6', 'C-SAME-5'],
        ['C-SAME-4', 'C-SAME-3', 'C-SAME-2'],
        ['C-SAME-1', 'C-SAME-0', 'C-EARLIER'],
        ['C-MICRO-B', 'C-MICRO-A'],
      ]);
    });

    it('keeps the filters across pages and ends without a cursor exactly at the last row', async () => {
      await insert(
        Array.from({ length: 6 }, (_, i) => ({
          caseId: `C-P-${String(i)}`,
          createdAt: new Date(Date.UTC(2026, 10, 21, 8, i)),
          status: i % 2 === 0 ? ('completed' as const) : ('in_progress' as const),
        })),
      );
      const client = await loginAs(t, author);
      const first = await list(client, '?status=completed&limit=2');
      expect(first.cases.map((c) => c.caseId)).toEqual(['C-P-4', 'C-P-2']);
      expect(first.next).not.toBeNull();
      const second = await list(client, `?status=completed&limit=2&cursor=${first.next ?? ''}`);
      expect(second.cases.map((c) => c.caseId)).toEqual(['C-P-0']);
      expect(second.next).toBeNull();
      // Exactly a page's worth: no cursor, no empty extra page.
      const whole = await list(client, '?status=completed&limit=3');
      expect(whole.cases).toHaveLength(3);
      expect(whole.next).toBeNull();
    });

    it('a case added while paging does not shift the next page', async () => {
      await insert(
        Array.from({ length: 4 }, (_, i) => ({
          caseId: `C-K-${String(i)}`,
          createdAt: new Date(Date.UTC(2026, 10, 21, 8, i)),
        })),
      );
      const client = await loginAs(t, author);
      const first = await list(client, '?limit=2');
      await insert([{ caseId: 'C-K-NEW', createdAt: new Date(Date.UTC(2026, 10, 21, 9)) }]);
      const second = await list(client, `?limit=2&cursor=${first.next ?? ''}`);
      expect(second.cases.map((c) => c.caseId)).toEqual(['C-K-1', 'C-K-0']);
    });

    it('the cursor is opaque base64url of the position and round-trips', () => {
      const p = { createdAt: '2026-11-21T06:00:00.000001Z', caseId: 'C-2611-7Q4M-XK3P' };
      expect(decodeCaseCursor(encodeCaseCursor(p))).toEqual(p);
    });
  });

  describe('server and device agree', () => {
    // Small alphabets so filters hit often; accents, wildcards and read-alikes on purpose.
    const word = fc.constantFrom(
      'Thandi',
      'thandi',
      'Nkosi',
      'van der Merwe',
      'Émile',
      'ÉMILE',
      'zoë',
      '50%',
      'a_b',
      'back\\slash',
      'Naidoo',
      'Sipho',
      'A🚑',
    );
    const text = fc.option(
      fc.array(word, { minLength: 1, maxLength: 2 }).map((w) => w.join(' ')),
      { nil: null },
    );
    const incident = fc.option(
      fc.constantFrom('Fall', 'FALL', 'fall', 'Burn', 'Motor vehicle accident', 'Cardiac arrest'),
      { nil: null },
    );
    const callSign = fc.option(fc.constantFrom('R7', 'r70', 'ALPHA-2', 'Medic 5'), { nil: null });
    // Instants around midnight in Johannesburg (22:00 UTC), many shared, to test days and ties.
    const instant = fc.constantFrom(
      '2026-11-20T21:59:59.999Z',
      '2026-11-20T22:00:00.000Z',
      '2026-11-21T08:15:00.000Z',
      '2026-11-21T21:59:59.999Z',
      '2026-11-21T22:00:00.000Z',
      '2026-12-31T22:00:00.000Z',
      '2027-01-01T09:00:00.000Z',
    );
    const caseNumber = fc
      .tuple(
        fc.constantFrom('C', 'c', 'I'),
        fc.constantFrom('2611', '2612', '0010', 'OIL0'),
        fc.constantFrom('AB', 'A-B', '7Q'),
        fc.integer({ min: 0, max: 99 }),
      )
      .map(([p, d, r, n]) => `${p}-${d}-${r}-${String(n)}`);
    const row = fc.record({
      caseId: caseNumber,
      patientName: text,
      incidentType: incident,
      responderName: text,
      responderCallSign: callSign,
      status: fc.constantFrom('in_progress' as const, 'completed' as const),
      createdAt: instant,
      mine: fc.boolean(),
    });
    // Each filter is set in about one query in four, so most queries have one or two
    // filters and still match something.
    const opt = <T>(a: fc.Arbitrary<T>): fc.Arbitrary<T | undefined> =>
      fc.oneof({ weight: 3, arbitrary: fc.constant(undefined) }, { weight: 1, arbitrary: a });
    const query: fc.Arbitrary<CaseSearchFilters> = fc.record({
      caseId: opt(fc.constantFrom('C', 'c-26', 'C2611', 'c 2612 a', 'I-OIL', 'C-0010-A-B', 'i')),
      patientName: opt(
        fc.constantFrom(
          'thandi',
          'É',
          'émile',
          'zoË',
          '%',
          '_',
          '\\',
          'merwe',
          'x',
          'zo',
          'ë n',
          '🚑',
        ),
      ),
      incidentType: opt(fc.constantFrom('fall', 'BURN', 'Motor vehicle accident', 'Cardiac')),
      from: opt(fc.constantFrom('2026-11-20', '2026-11-21', '2026-11-22', '2027-01-01')),
      to: opt(fc.constantFrom('2026-11-20', '2026-11-21', '2026-12-31', '2027-01-01')),
      status: opt(fc.constantFrom('in_progress' as const, 'completed' as const)),
      responder: opt(
        fc.constantFrom('r7', 'sipho', 'ALPHA', '-', 'medic 5', 'é', '7', 'o\u001fr', 'a🚑'),
      ),
      mine: opt(fc.constant(true as const)),
    });

    function toParams(q: CaseSearchFilters, limit: number): string {
      const params = new URLSearchParams({ limit: String(limit) });
      for (const [k, v] of Object.entries(q)) if (v !== undefined) params.set(k, String(v));
      return params.toString();
    }

    it('returns the same ids in the same order as matchesCaseSearch + compareCasesNewestFirst', async () => {
      const client = await loginAs(t, admin);
      await fc.assert(
        fc.asyncProperty(
          fc.uniqueArray(row, {
            selector: (r) => r.caseId.toUpperCase(),
            minLength: 0,
            maxLength: 25,
          }),
          fc.array(query, { minLength: 1, maxLength: 6 }),
          fc.integer({ min: 2, max: 9 }),
          async (rows, queries, limit) => {
            await t.db.deleteFrom('cases').execute();
            await insert(
              rows.map(({ mine, ...r }) => ({ ...r, userId: mine ? admin.row.id : author.row.id })),
            );
            const summaries = rows.map((r) => ({
              ...r,
              userId: r.mine ? admin.row.id : author.row.id,
            }));
            for (const q of queries) {
              const expected = summaries
                .filter((c) =>
                  matchesCaseSearch(c, q, {
                    userId: admin.row.id,
                    timeZone: DEFAULT_SERVICE_TIME_ZONE,
                  }),
                )
                .sort(compareCasesNewestFirst)
                .map((c) => c.caseId);
              const got: string[] = [];
              let cursor: string | null = null;
              do {
                const page: { cases: CaseSummary[]; next: string | null } = await list(
                  client,
                  `?${toParams(q, limit)}${cursor ? `&cursor=${cursor}` : ''}`,
                );
                got.push(...page.cases.map((c) => c.caseId));
                cursor = page.next;
              } while (cursor !== null);
              expect(got, JSON.stringify(q)).toEqual(expected);
            }
          },
        ),
        { numRuns: Number(process.env.CASE_SEARCH_RUNS ?? 25) },
      );
    });
  });
});
