// Runs the migrations. The list is static (no directory scan) so the API can be bundled;
// add a new migration file to `migrations` below, in timestamp order, and never edit one
// that has been committed.
import { Migrator, NO_MIGRATIONS } from 'kysely/migration';
import type { Kysely } from 'kysely';
import type { Migration, MigrationProvider, MigrationResult } from 'kysely/migration';
import * as accounts from './migrations/2026-11-21T0500-accounts';
import * as notifications from './migrations/2026-11-21T0510-notifications';
import * as inventory from './migrations/2026-11-21T0520-inventory';
import * as clinical from './migrations/2026-11-21T0530-clinical';
import * as sync from './migrations/2026-11-21T0540-sync';
import * as updatedAt from './migrations/2026-11-21T0550-updated-at';
import * as syncFields from './migrations/2026-11-21T0700-sync-fields';
import * as caseSearch from './migrations/2026-11-21T0810-case-search';
import * as caseAccessAudit from './migrations/2026-11-21T0820-case-access-audit';
import * as caseSearchIndexStats from './migrations/2026-11-21T0830-case-search-index-stats';
import * as caseSearchShortPatterns from './migrations/2026-11-21T0840-case-search-short-patterns';
import * as addendumAuthor from './migrations/2026-11-21T0850-addendum-author';
import * as recordPlatform from './migrations/2026-11-24T1000-record-platform';
import * as systemRoles from './migrations/2026-11-24T1100-system-roles';
import * as signInThrottle from './migrations/2026-11-25T0300-sign-in-throttle';
import * as uploadQuotas from './migrations/2026-11-25T0400-upload-quotas';
import * as authEpoch from './migrations/2026-11-25T0500-auth-epoch';
import * as notificationDelivery from './migrations/2026-11-26T0900-notification-delivery';
import * as caseSearchGramsLoop from './migrations/2026-11-26T1300-case-search-grams-loop';
import * as syncHorizon from './migrations/2026-11-26T1500-sync-horizon';
import * as casesOverlappedIndexes from './migrations/2026-11-26T2300-cases-overlapped-indexes';
import * as bookkeepingIndexes from './migrations/2026-11-27T0200-bookkeeping-indexes';
import * as approvalDefaultRole from './migrations/2026-11-28T0500-approval-default-role';
import * as inventoryRecords from './migrations/2026-12-08T1000-inventory-records';
import * as cprSessionOutcome from './migrations/2026-12-08T1100-cpr-session-outcome';
import * as mciCommand from './migrations/2026-12-08T1200-mci-command';
import * as incidentReportCompletion from './migrations/2026-12-08T1300-incident-report-completion';
import * as sops from './migrations/2026-12-08T1400-sops';

export const migrations: Readonly<Record<string, Migration>> = {
  '2026-11-21T0500-accounts': accounts,
  '2026-11-21T0510-notifications': notifications,
  '2026-11-21T0520-inventory': inventory,
  '2026-11-21T0530-clinical': clinical,
  '2026-11-21T0540-sync': sync,
  '2026-11-21T0550-updated-at': updatedAt,
  '2026-11-21T0700-sync-fields': syncFields,
  '2026-11-21T0810-case-search': caseSearch,
  '2026-11-21T0820-case-access-audit': caseAccessAudit,
  '2026-11-21T0830-case-search-index-stats': caseSearchIndexStats,
  '2026-11-21T0840-case-search-short-patterns': caseSearchShortPatterns,
  '2026-11-21T0850-addendum-author': addendumAuthor,
  '2026-11-24T1000-record-platform': recordPlatform,
  '2026-11-24T1100-system-roles': systemRoles,
  '2026-11-25T0300-sign-in-throttle': signInThrottle,
  '2026-11-25T0400-upload-quotas': uploadQuotas,
  '2026-11-25T0500-auth-epoch': authEpoch,
  '2026-11-26T0900-notification-delivery': notificationDelivery,
  '2026-11-26T1300-case-search-grams-loop': caseSearchGramsLoop,
  '2026-11-26T1500-sync-horizon': syncHorizon,
  '2026-11-26T2300-cases-overlapped-indexes': casesOverlappedIndexes,
  '2026-11-27T0200-bookkeeping-indexes': bookkeepingIndexes,
  '2026-11-28T0500-approval-default-role': approvalDefaultRole,
  '2026-12-08T1000-inventory-records': inventoryRecords,
  '2026-12-08T1100-cpr-session-outcome': cprSessionOutcome,
  '2026-12-08T1200-mci-command': mciCommand,
  '2026-12-08T1300-incident-report-completion': incidentReportCompletion,
  '2026-12-08T1400-sops': sops,
};

class StaticMigrationProvider implements MigrationProvider {
  constructor(private readonly list: Readonly<Record<string, Migration>>) {}
  async getMigrations(): Promise<Record<string, Migration>> {
    return { ...this.list };
  }
}

/** Thrown when a migration fails; `migrationName` names it, `cause` is the database error. */
export class MigrationFailedError extends Error {
  readonly migrationName: string | undefined;
  constructor(message: string, migrationName: string | undefined, cause: unknown) {
    super(message, { cause });
    this.name = 'MigrationFailedError';
    this.migrationName = migrationName;
  }
}

// The Migrator only reads and writes its own kysely_migration tables and runs the
// migrations' up/down with a plain Kysely; the Database type is irrelevant to it.
function migrator(db: Kysely<unknown>, list: Readonly<Record<string, Migration>>): Migrator {
  return new Migrator({ db, provider: new StaticMigrationProvider(list) });
}

function check(
  direction: 'apply' | 'roll back',
  results: MigrationResult[] | undefined,
  error: unknown,
): string[] {
  if (error === undefined)
    return (results ?? []).filter((r) => r.status === 'Success').map((r) => r.migrationName);
  const failed = results?.find((r) => r.status === 'Error');
  const reason = error instanceof Error ? error.message : String(error);
  const message = failed
    ? `Database migration "${failed.migrationName}" failed to ${direction}: ${reason}`
    : `Database migrations could not ${direction}: ${reason}`;
  throw new MigrationFailedError(message, failed?.migrationName, error);
}

/**
 * Applies every pending migration (all in one transaction: on failure none of them stays).
 * Returns the names applied. Throws MigrationFailedError naming the failed migration.
 * `list` is for tests; the app always uses the default.
 */
export async function migrateToLatest<T>(
  db: Kysely<T>,
  list: Readonly<Record<string, Migration>> = migrations,
): Promise<string[]> {
  const { results, error } = await migrator(db as Kysely<unknown>, list).migrateToLatest();
  return check('apply', results, error);
}

/** Rolls back to just after `target` (a migration name), or everything when omitted. */
export async function migrateDown<T>(
  db: Kysely<T>,
  target?: string,
  list: Readonly<Record<string, Migration>> = migrations,
): Promise<string[]> {
  const { results, error } = await migrator(db as Kysely<unknown>, list).migrateTo(
    target ?? NO_MIGRATIONS,
  );
  return check('roll back', results, error);
}

/** Names of the migrations not applied yet, in order (read only: creates nothing). */
export async function pendingMigrations<T>(
  db: Kysely<T>,
  list: Readonly<Record<string, Migration>> = migrations,
): Promise<string[]> {
  const all = await migrator(db as Kysely<unknown>, list).getMigrations();
  return all.filter((m) => m.executedAt === undefined).map((m) => m.name);
}

/** Names of the migrations recorded as applied, in order. */
export async function appliedMigrations<T>(db: Kysely<T>): Promise<string[]> {
  const all = await migrator(db as Kysely<unknown>, migrations).getMigrations();
  return all.filter((m) => m.executedAt !== undefined).map((m) => m.name);
}
