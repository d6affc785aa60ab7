// Unique violations are recognisable, by constraint name, on either driver.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { UNIQUE_KEYS, databaseError, isUniqueViolation } from '../src/errors';
import { createTestDatabase } from '../src/testing';
import type { TestDatabaseHandle } from '../src/testing';
import { insertUser } from './helpers';

let h: TestDatabaseHandle;
beforeAll(async () => {
  h = await createTestDatabase();
});
afterAll(async () => {
  await h?.close();
});

async function failure(promise: Promise<unknown>): Promise<unknown> {
  return promise.then(
    () => {
      throw new Error('Expected the statement to fail');
    },
    (error: unknown) => error,
  );
}

describe('database errors', () => {
  it('name the constraint behind each unique key', async () => {
    const userId = await insertUser(h.db, 'first@example.org');
    const duplicateEmail = await failure(insertUser(h.db, 'FIRST@example.org'));
    expect(isUniqueViolation(duplicateEmail)).toBe(true);
    expect(isUniqueViolation(duplicateEmail, UNIQUE_KEYS.userEmail)).toBe(true);
    expect(isUniqueViolation(duplicateEmail, UNIQUE_KEYS.roleName)).toBe(false);

    const duplicateRole = await failure(
      h.db.insertInto('roles').values({ name: 'member', displayName: 'M' }).execute(),
    );
    expect(isUniqueViolation(duplicateRole, UNIQUE_KEYS.roleName)).toBe(true);

    await h.db.insertInto('cases').values({ caseId: 'E-1', userId }).execute();
    const duplicateCase = await failure(
      h.db.insertInto('cases').values({ caseId: 'E-1', userId }).execute(),
    );
    expect(isUniqueViolation(duplicateCase, UNIQUE_KEYS.caseId)).toBe(true);

    await h.db
      .insertInto('cprSessions')
      .values({ sessionId: 'E-2', startTime: new Date(), userId })
      .execute();
    const duplicateSession = await failure(
      h.db
        .insertInto('cprSessions')
        .values({ sessionId: 'E-2', startTime: new Date(), userId })
        .execute(),
    );
    expect(isUniqueViolation(duplicateSession, UNIQUE_KEYS.cprSessionId)).toBe(true);

    await h.db
      .insertInto('incidentReports')
      .values({ incidentId: 'E-3', incidentType: 'other', userId })
      .execute();
    const duplicateReport = await failure(
      h.db
        .insertInto('incidentReports')
        .values({ incidentId: 'E-3', incidentType: 'other', userId })
        .execute(),
    );
    expect(isUniqueViolation(duplicateReport, UNIQUE_KEYS.incidentReportId)).toBe(true);

    await h.db
      .insertInto('mciIncidents')
      .values({ incidentId: 'E-4', startedAt: new Date(), userId })
      .execute();
    const duplicateMci = await failure(
      h.db
        .insertInto('mciIncidents')
        .values({ incidentId: 'E-4', startedAt: new Date(), userId })
        .execute(),
    );
    expect(isUniqueViolation(duplicateMci, UNIQUE_KEYS.mciIncidentId)).toBe(true);

    const subscription = {
      userId,
      endpoint: 'https://push.example.org/abc',
      p256dh: 'k',
      auth: 'a',
    };
    await h.db.insertInto('pushSubscriptions').values(subscription).execute();
    const duplicateEndpoint = await failure(
      h.db.insertInto('pushSubscriptions').values(subscription).execute(),
    );
    expect(isUniqueViolation(duplicateEndpoint, UNIQUE_KEYS.pushEndpoint)).toBe(true);

    const upload = {
      tokenHash: 'same',
      ownerUserId: userId,
      expiresAt: new Date(Date.now() + 60_000),
    };
    await h.db.insertInto('uploads').values(upload).execute();
    const duplicateToken = await failure(h.db.insertInto('uploads').values(upload).execute());
    expect(isUniqueViolation(duplicateToken, UNIQUE_KEYS.uploadToken)).toBe(true);
  });

  it('tell other failures apart', async () => {
    const missingUser = await failure(
      h.db.insertInto('cases').values({ caseId: 'E-5', userId: 999_999 }).execute(),
    );
    expect(isUniqueViolation(missingUser)).toBe(false);
    expect(databaseError(missingUser)?.code).toBe('23503');
    expect(databaseError(new Error('plain'))).toBeUndefined();
    expect(
      databaseError(Object.assign(new Error('connect'), { code: 'ECONNREFUSED' })),
    ).toBeUndefined();
  });
});
