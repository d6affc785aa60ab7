// Keys, defaults, precisions and triggers of the migrated schema, on whichever driver the
// environment selects (PGlite without DATABASE_URL, PostgreSQL with it).
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase } from '../src/testing';
import type { TestDatabaseHandle } from '../src/testing';
import { insertUser, sqlState } from './helpers';

const UNIQUE_VIOLATION = '23505';
const CHECK_VIOLATION = '23514';
const NUMERIC_OVERFLOW = '22003';

// The checklist of docs/domain.md, as the cases table must carry it.
const INTERVENTIONS = [
  'headTiltChinLift',
  'jawThrust',
  'oropharyngealAirway',
  'nasopharyngealAirway',
  'suctioning',
  'supraglotticAirway',
  'endotrachealIntubation',
  'foreignBodyRemoval',
  'oxygenAdministered',
  'bagValveMaskVentilation',
  'nebulisation',
  'cpapApplied',
  'chestSeal',
  'needleDecompression',
  'cprPerformed',
  'aedUsed',
  'manualDefibrillation',
  'ivAccess',
  'ioAccess',
  'ivFluids',
  'bleedingControl',
  'directPressure',
  'woundPacking',
  'haemostaticDressing',
  'tourniquetApplication',
  'pelvicBinder',
  'spinalImmobilization',
  'cervicalCollar',
  'scoopStretcher',
  'longSpineBoard',
  'vacuumMattress',
  'splintingTechniques',
  'tractionSplint',
  'slingApplied',
  'woundCare',
  'burnTreatment',
  'eyeIrrigation',
  'bloodGlucoseTest',
  'glucogelAdministered',
  'epiPenUsed',
  'aspirinGiven',
  'ecg12Lead',
  'cardiacMonitoring',
  'pulseOximetry',
  'coolingMeasures',
  'warmingMeasures',
  'decontamination',
  'emergencyChildbirth',
  'neonatalCare',
  'extrication',
  'recoveryPosition',
  'psychologicalSupport',
];

const toSnake = (name: string): string => name.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);

let h: TestDatabaseHandle;

beforeAll(async () => {
  h = await createTestDatabase();
});

afterAll(async () => {
  await h?.close();
});

describe('accounts', () => {
  it('seeds the system roles', async () => {
    const roles = await h.db
      .selectFrom('roles')
      .select(['name', 'displayName', 'isSystem', 'permissions'])
      .orderBy('name')
      .execute();
    expect(roles.map((r) => [r.name, r.displayName, r.isSystem])).toEqual([
      ['administrator', 'Administrator', true],
      ['member', 'Member', true],
      ['observer', 'Observer', true],
      ['responder', 'Responder', true],
      ['stores', 'Stores', true],
    ]);
    // Administrator and Member carry no entries (the §6 defaults); the others say what they allow.
    expect(roles.filter((r) => Object.keys(r.permissions).length === 0).map((r) => r.name)).toEqual(
      ['administrator', 'member'],
    );
  });

  it('gives a new user status pending, role member and empty permissions', async () => {
    const user = await h.db
      .insertInto('users')
      .values({ email: 'new.member@example.org', passwordHash: 'h', fullName: 'New Member' })
      .returningAll()
      .executeTakeFirstOrThrow();
    expect(user.status).toBe('pending');
    expect(user.role).toBe('member');
    expect(user.permissions).toEqual({});
    expect(user.roleId).toBeNull();
    expect(user.createdAt).toBeInstanceOf(Date);
  });

  it('refuses a second account whose email differs only in case', async () => {
    await insertUser(h.db, 'Duty.Officer@Example.org');
    expect(await sqlState(insertUser(h.db, 'duty.officer@example.ORG'))).toBe(UNIQUE_VIOLATION);
  });

  it('refuses a duplicate role name', async () => {
    expect(
      await sqlState(
        h.db
          .insertInto('roles')
          .values({ name: 'member', displayName: 'Another member' })
          .execute(),
      ),
    ).toBe(UNIQUE_VIOLATION);
  });

  it('accepts only the known roles and statuses', async () => {
    expect(
      await sqlState(
        h.db
          .insertInto('users')
          .values({
            email: 'x1@example.org',
            passwordHash: 'h',
            fullName: 'X',
            role: 'root' as 'member',
          })
          .execute(),
      ),
    ).toBe(CHECK_VIOLATION);
    expect(
      await sqlState(
        h.db
          .insertInto('users')
          .values({
            email: 'x2@example.org',
            passwordHash: 'h',
            fullName: 'X',
            status: 'active' as 'approved',
          })
          .execute(),
      ),
    ).toBe(CHECK_VIOLATION);
  });

  it('keeps permissions keys exactly as stored (no case conversion inside jsonb)', async () => {
    const permissions = { newCase: { read: true, create: false }, user_management: true };
    const role = await h.db
      .insertInto('roles')
      .values({ name: 'shift-lead', displayName: 'Shift lead', permissions })
      .returning(['permissions'])
      .executeTakeFirstOrThrow();
    expect(role.permissions).toEqual(permissions);
  });

  it('ends a user’s sessions when the user is deleted', async () => {
    const userId = await insertUser(h.db);
    await h.db
      .insertInto('sessions')
      .values({ sid: 's-cascade', userId, data: {}, expiresAt: new Date(Date.now() + 60_000) })
      .execute();
    await h.db.deleteFrom('users').where('id', '=', userId).execute();
    expect(
      await h.db.selectFrom('sessions').where('sid', '=', 's-cascade').select('sid').execute(),
    ).toEqual([]);
  });
});

describe('audit log', () => {
  it('accepts inserts and refuses UPDATE and DELETE', async () => {
    const entry = await h.db
      .insertInto('auditLog')
      .values({
        action: 'login',
        outcome: 'success',
        entityType: 'user',
        entityId: '1',
        details: { method: 'password' },
      })
      .returningAll()
      .executeTakeFirstOrThrow();
    expect(typeof entry.id).toBe('string');
    expect(entry.details).toEqual({ method: 'password' });

    await expect(
      h.db.updateTable('auditLog').set({ outcome: 'failure' }).where('id', '=', entry.id).execute(),
    ).rejects.toThrow(/append-only/);
    await expect(h.db.deleteFrom('auditLog').where('id', '=', entry.id).execute()).rejects.toThrow(
      /append-only/,
    );
    await expect(sql`truncate audit_log`.execute(h.db)).rejects.toThrow(/append-only/);
    const still = await h.db
      .selectFrom('auditLog')
      .select('outcome')
      .where('id', '=', entry.id)
      .executeTakeFirstOrThrow();
    expect(still.outcome).toBe('success');
  });

  // Every push keeps these up for each of its mutations; each one here has a reader (decision
  // 044). A new index on either table needs a query that uses it.
  it('and the handled mutations carry only the indexes a query uses', async () => {
    const { rows } = await sql<{ table: string; index: string; method: string }>`
      select c.relname as "table", i.relname as "index", am.amname as method
      from pg_index x
        join pg_class i on i.oid = x.indexrelid
        join pg_class c on c.oid = x.indrelid
        join pg_am am on am.oid = i.relam
      where c.relname in ('audit_log', 'applied_mutations')
        and c.relnamespace = current_schema()::regnamespace
      order by 1, 2`.execute(h.db);
    expect(rows).toEqual([
      { table: 'applied_mutations', index: 'applied_mutations_pkey', method: 'btree' },
      { table: 'audit_log', index: 'audit_log_access_event_idx', method: 'btree' },
      { table: 'audit_log', index: 'audit_log_at_idx', method: 'brin' },
      { table: 'audit_log', index: 'audit_log_case_idx', method: 'btree' },
      { table: 'audit_log', index: 'audit_log_entity_idx', method: 'btree' },
      { table: 'audit_log', index: 'audit_log_pkey', method: 'btree' },
    ]);
  });

  it('accepts only the three outcomes', async () => {
    expect(
      await sqlState(
        h.db
          .insertInto('auditLog')
          .values({ action: 'x', outcome: 'maybe' as 'success' })
          .execute(),
      ),
    ).toBe(CHECK_VIOLATION);
  });
});

describe('cases', () => {
  it('has every intervention of domain.md as boolean not null default false', async () => {
    const domainMd = fileURLToPath(new URL('../../docs/domain.md', import.meta.url));
    const text = readFileSync(domainMd, 'utf8');
    const section = text.split('## Interventions checklist')[1]?.split('Advanced items')[0] ?? '';
    const names = [...section.matchAll(/^- [^:]+:\s*([\s\S]*?)(?=^- |$(?![\s\S]))/gm)]
      .flatMap((m) => (m[1] ?? '').split(','))
      .map((s) => s.trim())
      .filter(Boolean);
    expect(new Set(names)).toEqual(new Set(INTERVENTIONS));

    // Result keys pass through CamelCasePlugin like any other query's.
    const columns = await sql<{
      columnName: string;
      isNullable: string;
      columnDefault: string | null;
      dataType: string;
    }>`
      select column_name, is_nullable, column_default, data_type from information_schema.columns
      where table_schema = current_schema() and table_name = 'cases'`.execute(h.db);
    const byName = new Map(columns.rows.map((c) => [c.columnName, c]));
    for (const name of INTERVENTIONS) {
      const column = byName.get(toSnake(name));
      expect(column, name).toMatchObject({
        dataType: 'boolean',
        isNullable: 'NO',
        columnDefault: 'false',
      });
    }

    const userId = await insertUser(h.db);
    const row = await h.db
      .insertInto('cases')
      .values({ caseId: 'CASE-DEFAULTS', userId })
      .returningAll()
      .executeTakeFirstOrThrow();
    const record = row as unknown as Record<string, unknown>;
    for (const name of INTERVENTIONS) expect(record[name], name).toBe(false);
    expect(row.status).toBe('in_progress');
    expect(row.symptoms).toEqual([]);
    expect(row.patientRefusedTransport).toBe(false);
    expect(row.deletedAt).toBeNull();
  });

  it('refuses a duplicate caseId', async () => {
    const userId = await insertUser(h.db);
    await h.db.insertInto('cases').values({ caseId: 'CASE-DUP', userId }).execute();
    expect(
      await sqlState(h.db.insertInto('cases').values({ caseId: 'CASE-DUP', userId }).execute()),
    ).toBe(UNIQUE_VIOLATION);
  });

  it('keeps latitude and longitude to 8 decimal places, given as string or number', async () => {
    const userId = await insertUser(h.db);
    const fromNumbers = await h.db
      .insertInto('cases')
      .values({
        caseId: 'CASE-GPS-1',
        userId,
        incidentLatitude: -33.92584912,
        incidentLongitude: 18.42322111,
      })
      .returning(['incidentLatitude', 'incidentLongitude'])
      .executeTakeFirstOrThrow();
    expect(fromNumbers).toEqual({
      incidentLatitude: '-33.92584912',
      incidentLongitude: '18.42322111',
    });

    const fromStrings = await h.db
      .insertInto('cases')
      .values({
        caseId: 'CASE-GPS-2',
        userId,
        incidentLatitude: '-89.12345678',
        incidentLongitude: '-179.98765432',
      })
      .returning(['incidentLatitude', 'incidentLongitude'])
      .executeTakeFirstOrThrow();
    expect(fromStrings).toEqual({
      incidentLatitude: '-89.12345678',
      incidentLongitude: '-179.98765432',
    });

    // numeric(10,8) holds at most 2 integer digits; 100 degrees is not a latitude.
    expect(
      await sqlState(
        h.db
          .insertInto('cases')
          .values({ caseId: 'CASE-GPS-3', userId, incidentLatitude: '100.0' })
          .execute(),
      ),
    ).toBe(NUMERIC_OVERFLOW);
  });

  it('assigns a new version from one global sequence on every insert and update', async () => {
    const userId = await insertUser(h.db);
    const created = await h.db
      .insertInto('cases')
      .values({ caseId: 'CASE-VERSION', userId, version: 1 })
      .returning(['id', 'version'])
      .executeTakeFirstOrThrow();
    const report = await h.db
      .insertInto('incidentReports')
      .values({ incidentId: 'INC-VERSION', incidentType: 'water-rescue', userId })
      .returning('version')
      .executeTakeFirstOrThrow();
    const updated = await h.db
      .updateTable('cases')
      .set({ patientName: 'Jane', version: 1 })
      .where('id', '=', created.id)
      .returning('version')
      .executeTakeFirstOrThrow();
    expect(BigInt(created.version)).toBeGreaterThan(1n);
    expect(BigInt(report.version)).toBeGreaterThan(BigInt(created.version));
    expect(BigInt(updated.version)).toBeGreaterThan(BigInt(report.version));
  });

  it('checks GCS ranges and pain score', async () => {
    const userId = await insertUser(h.db);
    expect(
      await sqlState(
        h.db.insertInto('cases').values({ caseId: 'CASE-GCS', userId, gcsEyeOpening: 5 }).execute(),
      ),
    ).toBe(CHECK_VIOLATION);
    expect(
      await sqlState(
        h.db.insertInto('cases').values({ caseId: 'CASE-PAIN', userId, painScore: 11 }).execute(),
      ),
    ).toBe(CHECK_VIOLATION);
  });

  it('stores vital signs, addenda and a jsonb array given as JSON text', async () => {
    const userId = await insertUser(h.db);
    const c = await h.db
      .insertInto('cases')
      .values({ caseId: 'CASE-CHILD', userId, symptoms: JSON.stringify(['chest pain', 'nausea']) })
      .returning(['id', 'symptoms'])
      .executeTakeFirstOrThrow();
    expect(c.symptoms).toEqual(['chest pain', 'nausea']);
    const vital = await h.db
      .insertInto('vitalSigns')
      .values({
        caseId: c.id,
        type: 'heart_rate',
        value: '112',
        numericValue: 112,
        timestamp: '2026-11-21T05:00:00Z',
        userId,
      })
      .returningAll()
      .executeTakeFirstOrThrow();
    expect(vital.numericValue).toBe('112');
    expect(vital.timestamp).toEqual(new Date('2026-11-21T05:00:00Z'));
    const addendum = await h.db
      .insertInto('caseAddenda')
      .values({
        caseId: c.id,
        userId,
        reason: 'Wrong age captured',
        changes: JSON.stringify([{ field: 'approximateAge', before: 40, after: 45 }]),
      })
      .returning('changes')
      .executeTakeFirstOrThrow();
    expect(addendum.changes).toEqual([{ field: 'approximateAge', before: 40, after: 45 }]);
  });
});

describe('updated_at', () => {
  it('moves on every update unless the update sets it', async () => {
    const role = await h.db
      .insertInto('roles')
      .values({ name: 'touch-test', displayName: 'Touch', updatedAt: '2020-01-01T00:00:00Z' })
      .returning(['id', 'updatedAt'])
      .executeTakeFirstOrThrow();
    expect(role.updatedAt).toEqual(new Date('2020-01-01T00:00:00Z'));
    const touched = await h.db
      .updateTable('roles')
      .set({ description: 'changed' })
      .where('id', '=', role.id)
      .returning('updatedAt')
      .executeTakeFirstOrThrow();
    expect(touched.updatedAt.getTime()).toBeGreaterThan(Date.now() - 60_000);
    const explicit = await h.db
      .updateTable('roles')
      .set({ description: 'again', updatedAt: '2021-06-01T12:00:00Z' })
      .where('id', '=', role.id)
      .returning('updatedAt')
      .executeTakeFirstOrThrow();
    expect(explicit.updatedAt).toEqual(new Date('2021-06-01T12:00:00Z'));
  });
});

describe('CPR, incident reports, mass-casualty incidents', () => {
  it('refuses a duplicate sessionId and applies CPR defaults', async () => {
    const userId = await insertUser(h.db);
    const session = await h.db
      .insertInto('cprSessions')
      .values({ sessionId: 'CPR-1', startTime: new Date(), userId })
      .returningAll()
      .executeTakeFirstOrThrow();
    expect(session.status).toBe('in_progress');
    expect(session.events).toEqual([]);
    expect(
      await sqlState(
        h.db
          .insertInto('cprSessions')
          .values({ sessionId: 'CPR-1', startTime: new Date(), userId })
          .execute(),
      ),
    ).toBe(UNIQUE_VIOLATION);
    const event = await h.db
      .insertInto('cprEvents')
      .values({
        cprSessionId: session.id,
        type: 'shock',
        at: new Date(),
        userId,
        details: { energyJ: 200 },
      })
      .returning('details')
      .executeTakeFirstOrThrow();
    expect(event.details).toEqual({ energyJ: 200 });
  });

  it('refuses a duplicate incidentId and applies report defaults', async () => {
    const userId = await insertUser(h.db);
    const report = await h.db
      .insertInto('incidentReports')
      .values({
        incidentId: 'INC-1',
        incidentType: 'hazmat',
        userId,
        latitude: '-26.20410280',
        longitude: 28.0473051,
      })
      .returningAll()
      .executeTakeFirstOrThrow();
    expect(report).toMatchObject({
      status: 'in_progress',
      priority: 'normal',
      typeSpecificData: {},
      mediaUrls: [],
      latitude: '-26.20410280',
      longitude: '28.04730510',
    });
    expect(
      await sqlState(
        h.db
          .insertInto('incidentReports')
          .values({ incidentId: 'INC-1', incidentType: 'other', userId })
          .execute(),
      ),
    ).toBe(UNIQUE_VIOLATION);
  });

  it('keeps casualties as rows with a checked triage colour', async () => {
    const userId = await insertUser(h.db);
    const mci = await h.db
      .insertInto('mciIncidents')
      .values({ incidentId: 'MCI-1', startedAt: new Date(), userId })
      .returning(['id', 'status'])
      .executeTakeFirstOrThrow();
    expect(mci.status).toBe('in_progress');
    const casualty = await h.db
      .insertInto('mciCasualties')
      .values({ mciIncidentId: mci.id, tagNumber: 'T-001', triageColour: 'RED', userId })
      .returning(['transported'])
      .executeTakeFirstOrThrow();
    expect(casualty.transported).toBe(false);
    expect(
      await sqlState(
        h.db
          .insertInto('mciCasualties')
          .values({
            mciIncidentId: mci.id,
            tagNumber: 'T-002',
            triageColour: 'PINK' as 'RED',
            userId,
          })
          .execute(),
      ),
    ).toBe(CHECK_VIOLATION);
  });
});

describe('sync bookkeeping', () => {
  it('keeps exact sequence numbers, refuses a mutation applied twice and stores conflicts', async () => {
    const userId = await insertUser(h.db);
    const deviceId = '0b6f3c1e-8f55-4a53-9d0b-3f3c2f0c9a11';
    const device = await h.db
      .insertInto('devices')
      .values({ deviceId, userId })
      .returning('lastAppliedSeq')
      .executeTakeFirstOrThrow();
    expect(device.lastAppliedSeq).toBe('0');
    const advanced = await h.db
      .updateTable('devices')
      .set({ lastAppliedSeq: 9007199254740993n })
      .where('deviceId', '=', deviceId)
      .returning('lastAppliedSeq')
      .executeTakeFirstOrThrow();
    expect(advanced.lastAppliedSeq).toBe('9007199254740993');

    const mutationId = '5c1d0a4e-2b7f-4c61-8a8e-0d9e4b1f7c22';
    await h.db.insertInto('appliedMutations').values({ mutationId, deviceId, seq: 1 }).execute();
    expect(
      await sqlState(
        h.db.insertInto('appliedMutations').values({ mutationId, deviceId, seq: 2 }).execute(),
      ),
    ).toBe(UNIQUE_VIOLATION);

    const rejection = await h.db
      .insertInto('syncRejections')
      .values({ deviceId, seq: 3, mutationId, reason: 'CASE_LOCKED', details: { caseId: 'C-9' } })
      .returning(['seq', 'details'])
      .executeTakeFirstOrThrow();
    expect(rejection).toEqual({ seq: '3', details: { caseId: 'C-9' } });

    const conflict = await h.db
      .insertInto('syncConflicts')
      .values({
        entityType: 'cases',
        recordKind: 'case',
        entityId: '7a3e2c10-1f2b-4c3d-9e8f-001122334455',
        field: 'patientName',
        baseVersion: 41,
        serverValue: JSON.stringify('Jane Doe'),
        clientValue: JSON.stringify('Jane Smith'),
        serverAuthor: userId,
        clientAuthor: userId,
      })
      .returning(['serverValue', 'clientValue', 'baseVersion', 'resolvedAt'])
      .executeTakeFirstOrThrow();
    expect(conflict).toEqual({
      serverValue: 'Jane Doe',
      clientValue: 'Jane Smith',
      baseVersion: '41',
      resolvedAt: null,
    });
  });
});

describe('inventory and notifications', () => {
  it('applies inventory defaults, keeps expiry dates as calendar dates, refuses a zero movement', async () => {
    const userId = await insertUser(h.db);
    const item = await h.db
      .insertInto('inventoryItems')
      .values({ id: '0b6f8a52-3c1e-4f7a-9d2b-1a2b3c4d5e6f', description: 'Adrenaline', userId })
      .returningAll()
      .executeTakeFirstOrThrow();
    expect(item).toMatchObject({ minimumQty: '1.000', unit: 'pieces', location: 'station' });
    const batch = await h.db
      .insertInto('inventoryBatches')
      .values({
        id: '1b6f8a52-3c1e-4f7a-9d2b-1a2b3c4d5e6f',
        itemId: item.id,
        expiryDate: '2027-03-31',
        userId,
      })
      .returningAll()
      .executeTakeFirstOrThrow();
    expect(batch.expiryDate).toBe('2027-03-31');
    expect(
      await sqlState(
        h.db
          .insertInto('inventoryItems')
          .values({
            id: '2b6f8a52-3c1e-4f7a-9d2b-1a2b3c4d5e6f',
            description: 'Gauze',
            minimumQty: -1,
            userId,
          })
          .execute(),
      ),
    ).toBe(CHECK_VIOLATION);
    const movement = {
      id: '3b6f8a52-3c1e-4f7a-9d2b-1a2b3c4d5e6f',
      itemId: item.id,
      batchId: batch.id,
      reason: 'received',
      at: '2026-12-08T10:00:00Z',
      userId,
    };
    expect(
      await sqlState(
        h.db
          .insertInto('inventoryMovements')
          .values({ ...movement, quantity: 0 })
          .execute(),
      ),
    ).toBe(CHECK_VIOLATION);
    const stored = await h.db
      .insertInto('inventoryMovements')
      .values({ ...movement, quantity: -2.5 })
      .returning(['quantity', 'belowZero'])
      .executeTakeFirstOrThrow();
    expect(stored).toEqual({ quantity: '-2.500', belowZero: false });
  });

  it('applies notification defaults and one delivery per notification and user', async () => {
    const userId = await insertUser(h.db);
    const n = await h.db
      .insertInto('notifications')
      .values({
        title: 'Road closure',
        message: 'N2 closed at Sir Lowry’s Pass',
        targetUserIds: [userId],
        targetRoles: ['member'],
      })
      .returningAll()
      .executeTakeFirstOrThrow();
    expect(n).toMatchObject({
      type: 'general',
      priority: 'normal',
      status: 'pending',
      icon: '/icons/icon-192.png',
      badge: '/icons/icon-192.png',
      targetUserIds: [userId],
      targetRoles: ['member'],
    });
    const d = await h.db
      .insertInto('notificationDeliveries')
      .values({ notificationId: n.id, userId })
      .returningAll()
      .executeTakeFirstOrThrow();
    expect(d.status).toBe('pending');
    expect(d.readAt).toBeNull();
    expect(
      await sqlState(
        h.db
          .insertInto('notificationDeliveries')
          .values({ notificationId: n.id, userId })
          .execute(),
      ),
    ).toBe(UNIQUE_VIOLATION);
  });
});
