// Protocol and schema versions that travel with every push and pull. The server answers
// 426 UPDATE_REQUIRED to a client older than MIN_PROTOCOL_VERSION; mutations queued before
// an app update keep their schemaVersion and still replay after it.
/**
 * 1: the first protocol.
 * 2: a pull page may come as rows (push-pull.ts pullRowsResponseSchema): each kind's keys once
 *    per page and each record as its values in that order; the server sends it to clients of
 *    version 2 and later, the objects form to older ones (decision 051).
 */
export const PROTOCOL_VERSION = 2;
export const MIN_PROTOCOL_VERSION = 1;
/** The first protocol version whose pull answers come as rows. */
export const PULL_ROWS_PROTOCOL_VERSION = 2;
/**
 * Version of the synced record shapes (entity schemas and mutation args).
 * 1: the first shapes.
 * 2: caseAddendum records carry authorName and authorCallSign (nullable; the server stamps
 *    them, mutation args are unchanged), decision 011.
 * 3: the record platform (decision 014): conflicts sync as records of kind syncConflict
 *    (pull sends them only to clients of version 3 and later); new refusal codes
 *    TEXT_NOT_STORABLE, VALUE_TOO_DEEP, MUTATION_TOO_LARGE; mutation args unchanged.
 * 4: medical inventory (decision 060): kinds inventoryItem, inventoryBatch, inventoryMovement;
 *    new refusal codes INVALID_QUANTITY, REFERENCE_MISMATCH.
 * 5: incident reports complete and lock (incidentReport.complete, completedAt), corrections
 *    as incidentReportAddendum records (incidentReport.addendum); typeSpecificData checked
 *    against its type; incidentReport.upsert no longer takes status; new refusal codes
 *    INCIDENT_REPORT_LOCKED, INCIDENT_REPORT_INCOMPLETE, TYPE_DATA_INVALID.
 * 6: internal SOPs, kinds sopVersion and sopAcknowledgement (reference/sop.ts, decision 080).
 * 7: cprSession gains outcome, witnessed and bystanderCpr (nullable) and a completed session's
 *    lock (refusal code CPR_SESSION_COMPLETED); cprEvent.record requires each type's detail.
 * 8: mass-casualty command (issue 40): mciTriage rows (append-only re-triage); mciIncident
 *    carries the METHANE report (majorIncident, hazards, access, casualtyEstimate,
 *    emergencyServices), its triageScale and mciIncident.close; mciCasualty carries assignedTo
 *    and ambulance, and its update no longer writes tagNumber or triageColour (decisions 070, 071).
 */
export const SCHEMA_VERSION = 8;
/** Oldest mutation schemaVersion the server still understands. Version 1 mutations are
 * still valid version 2 mutations (no mutation args changed), so it stays 1. */
export const MIN_SCHEMA_VERSION = 1;
