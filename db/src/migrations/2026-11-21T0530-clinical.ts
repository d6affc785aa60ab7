// Synced clinical and operational records: cases, vital signs, CPR sessions and events,
// incident reports, mass-casualty incidents and casualties, case addenda.
// Rows are created on devices (uuid keys, human ids unique), carry `version` from one global
// sequence (assigned by trigger on every insert and update: the pull cursor) and are
// deleted only as tombstones (deleted_at).
import { sql } from 'kysely';
import type { CreateTableBuilder, Kysely } from 'kysely';

// The interventions checklist of docs/domain.md, frozen here as SQL names.
const interventions = [
  // Airway
  'head_tilt_chin_lift',
  'jaw_thrust',
  'oropharyngeal_airway',
  'nasopharyngeal_airway',
  'suctioning',
  'supraglottic_airway',
  'endotracheal_intubation',
  'foreign_body_removal',
  // Breathing
  'oxygen_administered',
  'bag_valve_mask_ventilation',
  'nebulisation',
  'cpap_applied',
  'chest_seal',
  'needle_decompression',
  // Circulation
  'cpr_performed',
  'aed_used',
  'manual_defibrillation',
  'iv_access',
  'io_access',
  'iv_fluids',
  'bleeding_control',
  'direct_pressure',
  'wound_packing',
  'haemostatic_dressing',
  'tourniquet_application',
  'pelvic_binder',
  // Trauma
  'spinal_immobilization',
  'cervical_collar',
  'scoop_stretcher',
  'long_spine_board',
  'vacuum_mattress',
  'splinting_techniques',
  'traction_splint',
  'sling_applied',
  'wound_care',
  'burn_treatment',
  'eye_irrigation',
  // Medical
  'blood_glucose_test',
  'glucogel_administered',
  'epi_pen_used',
  'aspirin_given',
  'ecg12_lead',
  'cardiac_monitoring',
  'pulse_oximetry',
  // Environment and other
  'cooling_measures',
  'warming_measures',
  'decontamination',
  'emergency_childbirth',
  'neonatal_care',
  'extrication',
  'recovery_position',
  'psychological_support',
] as const;

const bodyRegions = ['head', 'neck', 'chest', 'abdomen', 'pelvis', 'back', 'extremities'] as const;

const syncedTables = [
  'cases',
  'vital_signs',
  'cpr_sessions',
  'cpr_events',
  'incident_reports',
  'mci_incidents',
  'mci_casualties',
  'case_addenda',
] as const;

type Builder<T extends string> = CreateTableBuilder<T, never>;

/** uuid key, version, updated_at, deleted_at: what the sync engine needs on every row. */
function syncColumns<T extends string>(t: Builder<T>): Builder<T> {
  return t
    .addColumn('id', 'uuid', (c) => c.primaryKey().defaultTo(sql`gen_random_uuid()`))
    .addColumn('version', 'bigint', (c) => c.notNull().defaultTo(sql`nextval('sync_version_seq')`))
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('deleted_at', 'timestamptz');
}

function lifecycle<T extends string>(t: Builder<T>): Builder<T> {
  return t
    .addColumn('status', 'text', (c) =>
      c
        .notNull()
        .defaultTo('in_progress')
        .check(sql`status in ('in_progress', 'completed')`),
    )
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('completed_at', 'timestamptz')
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id'));
}

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`create sequence sync_version_seq`.execute(db);
  // Whatever a statement writes into `version`, the row gets the next value of the global
  // sequence, so the server alone orders changes.
  await sql`create function sync_assign_version() returns trigger language plpgsql as $$
    begin
      new.version := nextval('sync_version_seq');
      return new;
    end
  $$`.execute(db);

  let cases = syncColumns(db.schema.createTable('cases'))
    .addColumn('case_id', 'text', (c) => c.notNull().unique())
    // Patient
    .addColumn('patient_name', 'text')
    .addColumn('approximate_age', 'integer', (c) => c.check(sql`approximate_age between 0 and 150`))
    .addColumn('patient_gender', 'text')
    .addColumn('incident_type', 'text')
    .addColumn('has_medical_aid', 'boolean')
    .addColumn('medical_aid_provider', 'text')
    // Responder
    .addColumn('responder_name', 'text')
    .addColumn('responder_call_sign', 'text')
    .addColumn('responder_arrival_time', 'timestamptz')
    // Caller
    .addColumn('caller_name', 'text')
    .addColumn('caller_phone', 'text')
    .addColumn('call_received_time', 'timestamptz')
    // Incident
    .addColumn('incident_description', 'text')
    .addColumn('incident_location', 'text')
    .addColumn('incident_latitude', 'numeric(10, 8)')
    .addColumn('incident_longitude', 'numeric(11, 8)')
    // Transport
    .addColumn('ambulance_id', 'text')
    .addColumn('arrival_time', 'timestamptz')
    .addColumn('receiving_hospital', 'text')
    .addColumn('transport_priority', 'text')
    .addColumn('departure_time', 'timestamptz')
    .addColumn('hospital_arrival_time', 'timestamptz')
    .addColumn('patient_refused_transport', 'boolean', (c) => c.notNull().defaultTo(false))
    // History
    .addColumn('allergies', 'text')
    .addColumn('medications', 'text')
    .addColumn('past_history', 'text')
    .addColumn('last_meal_time', 'text')
    .addColumn('last_meal_content', 'text')
    .addColumn('events_leading_up', 'text')
    // Treatment
    .addColumn('treatment_provided', 'text')
    .addColumn('medications_given', 'text')
    .addColumn('procedures_performed', 'text');
  for (const name of interventions) {
    cases = cases.addColumn(name, 'boolean', (c) => c.notNull().defaultTo(false));
  }
  cases = cases
    // Symptoms and findings
    .addColumn('symptoms', 'jsonb', (c) => c.notNull().defaultTo(sql`'[]'::jsonb`))
    .addColumn('subjective_symptoms', 'text')
    .addColumn('objective_symptoms', 'text')
    .addColumn('additional_findings', 'text')
    .addColumn('additional_notes', 'text')
    // Primary survey
    .addColumn('scene_safe', 'boolean')
    .addColumn('avpu', 'text')
    .addColumn('help_called', 'boolean')
    .addColumn('airway_status', 'text')
    .addColumn('breathing_status', 'text')
    .addColumn('circulation_status', 'text')
    // GCS
    .addColumn('gcs_eye_opening', 'integer', (c) => c.check(sql`gcs_eye_opening between 1 and 4`))
    .addColumn('gcs_verbal_response', 'integer', (c) =>
      c.check(sql`gcs_verbal_response between 1 and 5`),
    )
    .addColumn('gcs_verbal_intubated', 'boolean', (c) => c.notNull().defaultTo(false))
    .addColumn('gcs_motor_response', 'integer', (c) =>
      c.check(sql`gcs_motor_response between 1 and 6`),
    )
    .addColumn('gcs_total', 'integer', (c) => c.check(sql`gcs_total between 3 and 15`))
    // Hemorrhaging
    .addColumn('hemorrhaging_active', 'boolean')
    .addColumn('hemorrhaging_location', 'text')
    .addColumn('hemorrhaging_location_other', 'text')
    .addColumn('hemorrhaging_type', 'text')
    .addColumn('hemorrhaging_severity', 'text')
    .addColumn('hemorrhaging_control_status', 'text')
    .addColumn('hemorrhaging_interventions', 'jsonb', (c) =>
      c.notNull().defaultTo(sql`'[]'::jsonb`),
    )
    .addColumn('hemorrhaging_intervention_other', 'text')
    .addColumn('tourniquet_application_time', 'timestamptz')
    // Others
    .addColumn('respiratory_rate', 'integer', (c) => c.check(sql`respiratory_rate >= 0`))
    .addColumn('capillary_refill_time', 'numeric(4, 1)')
    .addColumn('pupil_responsesiveness', 'text')
    .addColumn('pain_score', 'integer', (c) => c.check(sql`pain_score between 0 and 10`))
    .addColumn('triage_status', 'text')
    // Multi-patient
    .addColumn('is_multi_patient_incident', 'boolean', (c) => c.notNull().defaultTo(false))
    .addColumn('multi_patient_incident_type', 'text')
    .addColumn('multi_patient_description', 'text')
    .addColumn('incident_duration', 'integer')
    .addColumn('total_patients', 'integer', (c) => c.check(sql`total_patients >= 0`))
    .addColumn('triage_counts', 'jsonb', (c) => c.notNull().defaultTo(sql`'{}'::jsonb`))
    .addColumn('incident_patients', 'jsonb', (c) => c.notNull().defaultTo(sql`'[]'::jsonb`))
    // Stroke BE-FAST
    .addColumn('fast_face_dropping', 'boolean')
    .addColumn('fast_arm_weakness', 'boolean')
    .addColumn('fast_speech_difficulty', 'boolean')
    .addColumn('fast_balance_loss', 'boolean')
    .addColumn('fast_vision_loss', 'boolean')
    .addColumn('fast_time_noted', 'timestamptz')
    // OPQRST
    .addColumn('onset', 'text')
    .addColumn('provocation', 'text')
    .addColumn('quality', 'text')
    .addColumn('region', 'text')
    .addColumn('severity', 'text')
    .addColumn('timing', 'text');
  for (const region of bodyRegions) {
    cases = cases
      .addColumn(`${region}_examined`, 'boolean', (c) => c.notNull().defaultTo(false))
      .addColumn(`${region}_abnormal`, 'boolean')
      .addColumn(`${region}_notes`, 'text');
  }
  await lifecycle(
    cases
      // Neuro reassessment
      .addColumn('neuro_reassessment_time', 'timestamptz')
      .addColumn('neuro_avpu', 'text')
      .addColumn('neuro_gcs_total', 'integer', (c) =>
        c.check(sql`neuro_gcs_total between 3 and 15`),
      )
      .addColumn('neuro_pupils', 'text')
      .addColumn('neuro_motor_function', 'text')
      .addColumn('neuro_sensory_function', 'text')
      .addColumn('neuro_notes', 'text'),
  )
    .addColumn('updated_by', 'integer', (c) => c.references('users.id'))
    .execute();
  await db.schema
    .createIndex('cases_user_created_idx')
    .on('cases')
    .columns(['user_id', 'created_at desc'])
    .execute();
  await db.schema.createIndex('cases_created_idx').on('cases').column('created_at').execute();
  await db.schema.createIndex('cases_status_idx').on('cases').column('status').execute();

  await syncColumns(db.schema.createTable('vital_signs'))
    .addColumn('case_id', 'uuid', (c) => c.notNull().references('cases.id'))
    .addColumn('type', 'text', (c) => c.notNull())
    .addColumn('value', 'text', (c) => c.notNull())
    .addColumn('numeric_value', 'numeric')
    .addColumn('status', 'text')
    .addColumn('timestamp', 'timestamptz', (c) => c.notNull())
    .addColumn('notes', 'text')
    .addColumn('voided_at', 'timestamptz')
    .addColumn('void_reason', 'text')
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id'))
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  await db.schema
    .createIndex('vital_signs_case_idx')
    .on('vital_signs')
    .columns(['case_id', 'timestamp'])
    .execute();

  await lifecycle(
    syncColumns(db.schema.createTable('cpr_sessions'))
      .addColumn('session_id', 'text', (c) => c.notNull().unique())
      .addColumn('case_id', 'uuid', (c) => c.references('cases.id'))
      .addColumn('start_time', 'timestamptz', (c) => c.notNull())
      .addColumn('end_time', 'timestamptz')
      .addColumn('total_duration', 'integer', (c) => c.check(sql`total_duration >= 0`))
      .addColumn('patient_age', 'text')
      .addColumn('incident_location', 'text')
      .addColumn('events_leading_up', 'text')
      .addColumn('events', 'jsonb', (c) => c.notNull().defaultTo(sql`'[]'::jsonb`)),
  ).execute();
  await db.schema
    .createIndex('cpr_sessions_user_created_idx')
    .on('cpr_sessions')
    .columns(['user_id', 'created_at desc'])
    .execute();

  await syncColumns(db.schema.createTable('cpr_events'))
    .addColumn('cpr_session_id', 'uuid', (c) => c.notNull().references('cpr_sessions.id'))
    .addColumn('type', 'text', (c) => c.notNull())
    .addColumn('at', 'timestamptz', (c) => c.notNull())
    .addColumn('details', 'jsonb', (c) => c.notNull().defaultTo(sql`'{}'::jsonb`))
    .addColumn('voids_event_id', 'uuid', (c) => c.references('cpr_events.id'))
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id'))
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  await db.schema
    .createIndex('cpr_events_session_idx')
    .on('cpr_events')
    .columns(['cpr_session_id', 'at'])
    .execute();

  await syncColumns(db.schema.createTable('incident_reports'))
    .addColumn('incident_id', 'text', (c) => c.notNull().unique())
    .addColumn('incident_type', 'text', (c) => c.notNull())
    .addColumn('title', 'text')
    .addColumn('description', 'text')
    .addColumn('location', 'text')
    .addColumn('latitude', 'numeric(10, 8)')
    .addColumn('longitude', 'numeric(11, 8)')
    .addColumn('responder_name', 'text')
    .addColumn('responder_call_sign', 'text')
    .addColumn('type_specific_data', 'jsonb', (c) => c.notNull().defaultTo(sql`'{}'::jsonb`))
    .addColumn('status', 'text', (c) =>
      c
        .notNull()
        .defaultTo('in_progress')
        .check(sql`status in ('in_progress', 'completed')`),
    )
    .addColumn('priority', 'text', (c) =>
      c
        .notNull()
        .defaultTo('normal')
        .check(sql`priority in ('low', 'normal', 'high', 'critical')`),
    )
    .addColumn('additional_notes', 'text')
    .addColumn('media_urls', 'jsonb', (c) => c.notNull().defaultTo(sql`'[]'::jsonb`))
    .addColumn('incident_start_time', 'text')
    .addColumn('incident_end_time', 'text')
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id'))
    .execute();
  await db.schema
    .createIndex('incident_reports_user_created_idx')
    .on('incident_reports')
    .columns(['user_id', 'created_at desc'])
    .execute();

  await lifecycle(
    syncColumns(db.schema.createTable('mci_incidents'))
      .addColumn('incident_id', 'text', (c) => c.notNull().unique())
      .addColumn('incident_type', 'text')
      .addColumn('description', 'text')
      .addColumn('location', 'text')
      .addColumn('latitude', 'numeric(10, 8)')
      .addColumn('longitude', 'numeric(11, 8)')
      .addColumn('started_at', 'timestamptz', (c) => c.notNull())
      .addColumn('ended_at', 'timestamptz')
      .addColumn('resources', 'jsonb', (c) => c.notNull().defaultTo(sql`'[]'::jsonb`)),
  ).execute();

  await syncColumns(db.schema.createTable('mci_casualties'))
    .addColumn('mci_incident_id', 'uuid', (c) => c.notNull().references('mci_incidents.id'))
    .addColumn('tag_number', 'text', (c) => c.notNull())
    .addColumn('triage_colour', 'text', (c) =>
      c
        .notNull()
        .check(sql`triage_colour in ('RED', 'ORANGE', 'YELLOW', 'GREEN', 'BLUE', 'GREY', 'BLACK')`),
    )
    .addColumn('description', 'text')
    .addColumn('location', 'text')
    .addColumn('case_id', 'uuid', (c) => c.references('cases.id'))
    .addColumn('transport_destination', 'text')
    .addColumn('transported', 'boolean', (c) => c.notNull().defaultTo(false))
    .addColumn('transported_at', 'timestamptz')
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id'))
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  await db.schema
    .createIndex('mci_casualties_incident_idx')
    .on('mci_casualties')
    .column('mci_incident_id')
    .execute();

  await syncColumns(db.schema.createTable('case_addenda'))
    .addColumn('case_id', 'uuid', (c) => c.notNull().references('cases.id'))
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id'))
    .addColumn('reason', 'text', (c) => c.notNull())
    // [{ field, before, after }]
    .addColumn('changes', 'jsonb', (c) => c.notNull().defaultTo(sql`'[]'::jsonb`))
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  await db.schema
    .createIndex('case_addenda_case_idx')
    .on('case_addenda')
    .columns(['case_id', 'created_at'])
    .execute();

  for (const table of syncedTables) {
    await sql`create trigger ${sql.raw(`${table}_assign_version`)} before insert or update on ${sql.table(table)}
      for each row execute function sync_assign_version()`.execute(db);
    // Pull: "changes since cursor" in version order.
    await db.schema.createIndex(`${table}_version_idx`).on(table).column('version').execute();
  }
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const table of [...syncedTables].reverse()) {
    await db.schema.dropTable(table).execute();
  }
  await sql`drop function sync_assign_version()`.execute(db);
  await sql`drop sequence sync_version_seq`.execute(db);
}
