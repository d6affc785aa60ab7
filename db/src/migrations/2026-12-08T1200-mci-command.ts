// Mass-casualty incident command (issue 40, decisions 070 and 071): the METHANE report and
// triage scale of an incident, who treats a casualty and the ambulance that took it, and
// mci_triages, one append-only row per triage of a casualty (re-triage keeps its history).
import { sql, type Kysely } from 'kysely';
import { createSyncedTable } from '../synced-table';

const COLOURS = sql`('RED', 'ORANGE', 'YELLOW', 'GREEN', 'BLUE', 'GREY', 'BLACK')`;

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable('mci_incidents')
    .addColumn('major_incident', 'boolean')
    .addColumn('hazards', 'text')
    .addColumn('access', 'text')
    .addColumn('casualty_estimate', 'integer')
    .addColumn('emergency_services', 'text')
    .addColumn('triage_scale', 'text', (c) =>
      c
        .notNull()
        .defaultTo('START')
        .check(sql`triage_scale in ('START', 'SATS')`),
    )
    .execute();
  await db.schema
    .alterTable('mci_casualties')
    .addColumn('assigned_to', 'text')
    .addColumn('ambulance', 'text')
    .execute();
  await db.schema
    .createIndex('mci_incidents_started_at_idx')
    .on('mci_incidents')
    .column('started_at')
    .execute();

  await createSyncedTable(
    db,
    'mci_triages',
    { lww: false, parent: { column: 'mci_incident_id', table: 'mci_incidents' } },
    (t) =>
      t
        .addColumn('mci_casualty_id', 'uuid', (c) => c.notNull().references('mci_casualties.id'))
        .addColumn('colour', 'text', (c) => c.notNull().check(sql`colour in ${COLOURS}`))
        .addColumn('method', 'text', (c) =>
          c.notNull().check(sql`method in ('tag', 'START', 'JumpSTART')`),
        )
        .addColumn('proposed_colour', 'text', (c) => c.check(sql`proposed_colour in ${COLOURS}`))
        .addColumn('answers', 'jsonb', (c) => c.notNull().defaultTo(sql`'{}'::jsonb`))
        .addColumn('previous_triage_ids', 'jsonb', (c) => c.notNull().defaultTo(sql`'[]'::jsonb`))
        .addColumn('triaged_at', 'timestamptz', (c) => c.notNull())
        .addColumn('responder_name', 'text'),
  );
  await db.schema
    .createIndex('mci_triages_mci_casualty_id_idx')
    .on('mci_triages')
    .column('mci_casualty_id')
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('mci_triages').execute();
  await db.schema.dropIndex('mci_incidents_started_at_idx').execute();
  await db.schema
    .alterTable('mci_casualties')
    .dropColumn('assigned_to')
    .dropColumn('ambulance')
    .execute();
  await db.schema
    .alterTable('mci_incidents')
    .dropColumn('major_incident')
    .dropColumn('hazards')
    .dropColumn('access')
    .dropColumn('casualty_estimate')
    .dropColumn('emergency_services')
    .dropColumn('triage_scale')
    .execute();
}
