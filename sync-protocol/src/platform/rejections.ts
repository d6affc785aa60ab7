// Why a pushed mutation was acknowledged but not applied. The client shows these in the
// rejected-changes inbox with the data, so nothing disappears silently; the server keeps
// them in sync_rejections.
export const RejectionCode = {
  /** Name or args do not match the schema (mutationSchema). */
  VALIDATION_FAILED: 'VALIDATION_FAILED',
  /** The mutation's schemaVersion is older than the server still accepts. */
  SCHEMA_VERSION_UNSUPPORTED: 'SCHEMA_VERSION_UNSUPPORTED',
  /** The permission rule (spec §6) denies the action. */
  FORBIDDEN: 'FORBIDDEN',
  /** The record belongs to another responder and the user may not edit others' records. */
  NOT_OWNER: 'NOT_OWNER',
  /** The case is completed (locked): only case.addendum is accepted. */
  CASE_LOCKED: 'CASE_LOCKED',
  /** The CPR session ended (ROSC or termination): it takes no new events, only voids. */
  CPR_SESSION_COMPLETED: 'CPR_SESSION_COMPLETED',
  /** The human id (caseId, sessionId, incidentId) already belongs to a different record. */
  HUMAN_ID_COLLISION: 'HUMAN_ID_COLLISION',
  /** A create without a human id, or a human id that differs from the record's. */
  HUMAN_ID_MISMATCH: 'HUMAN_ID_MISMATCH',
  /** The record (or its parent) does not exist. */
  NOT_FOUND: 'NOT_FOUND',
  /** The record was deleted (tombstone) and accepts no more changes. */
  DELETED: 'DELETED',
  /** A new record misses a field it cannot exist without (e.g. startTime). */
  MISSING_REQUIRED_FIELD: 'MISSING_REQUIRED_FIELD',
  /** An append-only row's id was reused with different content. */
  APPEND_ONLY: 'APPEND_ONLY',
  /** A completed case cannot be completed again / a void of a void, etc. */
  INVALID_STATE: 'INVALID_STATE',
  /** case.complete while required fields are missing or invalid (sync-protocol case/completion). */
  CASE_INCOMPLETE: 'CASE_INCOMPLETE',
  /** The envelope's actorUserId is not the signed-in user. */
  ACTOR_MISMATCH: 'ACTOR_MISMATCH',
  /** A text holds what PostgreSQL cannot store (a NUL character, a lone UTF-16 surrogate). */
  TEXT_NOT_STORABLE: 'TEXT_NOT_STORABLE',
  /** A value nested deeper than any form makes (storable.ts MAX_VALUE_DEPTH). */
  VALUE_TOO_DEEP: 'VALUE_TOO_DEEP',
  /** One change larger than the server takes (storable.ts MAX_MUTATION_BYTES). */
  MUTATION_TOO_LARGE: 'MUTATION_TOO_LARGE',
  /** The server failed to store it several times (a fault of the server, not of the data):
   * the device set it aside so the rest of its queue goes on (set-aside.ts). */
  SET_ASIDE: 'SET_ASIDE',
  /** A later change to a record whose earlier change was set aside: it waits with it. */
  HELD_BACK: 'HELD_BACK',
  /** A quantity the record cannot take: 0, or a fraction of something counted whole. */
  INVALID_QUANTITY: 'INVALID_QUANTITY',
  /** A reference to a record that belongs to another parent (a batch of another item). */
  REFERENCE_MISMATCH: 'REFERENCE_MISMATCH',
  /** The incident report is completed (locked): only incidentReport.addendum is accepted. */
  INCIDENT_REPORT_LOCKED: 'INCIDENT_REPORT_LOCKED',
  /** incidentReport.complete while required fields are missing (incidents/completion.ts). */
  INCIDENT_REPORT_INCOMPLETE: 'INCIDENT_REPORT_INCOMPLETE',
  /** An incident report's typeSpecificData does not fit its type (incidents/incident-types.ts). */
  TYPE_DATA_INVALID: 'TYPE_DATA_INVALID',
} as const;
export type RejectionCode = (typeof RejectionCode)[keyof typeof RejectionCode];
export const REJECTION_CODES = Object.values(RejectionCode) as [RejectionCode, ...RejectionCode[]];

export const REJECTION_MESSAGES: Record<RejectionCode, string> = {
  VALIDATION_FAILED: 'The change is not valid.',
  SCHEMA_VERSION_UNSUPPORTED: 'The change was made by an app version the server no longer accepts.',
  FORBIDDEN: 'You do not have permission to make this change.',
  NOT_OWNER: "You cannot change another responder's record.",
  CASE_LOCKED: 'The case is completed; only addenda can be added.',
  CPR_SESSION_COMPLETED: 'The CPR session has ended; only corrections (voids) can be added.',
  HUMAN_ID_COLLISION: 'Another record already has this number.',
  HUMAN_ID_MISMATCH: 'The record number does not match the record.',
  NOT_FOUND: 'The record does not exist on the server.',
  DELETED: 'The record was deleted.',
  MISSING_REQUIRED_FIELD: 'A required field is missing.',
  APPEND_ONLY: 'This entry cannot be changed; void it and add a new one.',
  INVALID_STATE: 'The record is not in a state that allows this change.',
  ACTOR_MISMATCH: 'The change was made by a different user.',
  CASE_INCOMPLETE: 'The case cannot be completed: required fields are missing.',
  TEXT_NOT_STORABLE: 'The text contains a character that cannot be stored.',
  VALUE_TOO_DEEP: 'The value is nested too deeply to be stored.',
  MUTATION_TOO_LARGE: 'The change is too large to be sent (2 MiB at most).',
  SET_ASIDE:
    'The server could not store this change after 3 tries. It is kept here and on the server for your administrator; your other changes went on syncing.',
  HELD_BACK:
    'This change waits behind an earlier change to the same record that the server could not store.',
  INVALID_QUANTITY: 'The quantity is not one that can be booked.',
  REFERENCE_MISMATCH: 'The change refers to a record that belongs to another one.',
  INCIDENT_REPORT_LOCKED: 'The incident report is completed; only addenda can be added.',
  INCIDENT_REPORT_INCOMPLETE:
    'The incident report cannot be completed: required fields are missing.',
  TYPE_DATA_INVALID: "The report's type-specific fields do not fit its type.",
};

/** Details a rejection carries: plain JSON. */
export type RejectionDetails = Record<string, unknown>;

/**
 * A mutation that can never apply: thrown by a mutator (on the device, the save is refused;
 * on the server, the push acknowledges the mutation as rejected and goes on).
 */
export class Rejection extends Error {
  constructor(
    readonly code: RejectionCode,
    message: string = REJECTION_MESSAGES[code],
    readonly details: RejectionDetails = {},
  ) {
    super(message);
    this.name = 'Rejection';
  }
}
