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
 * 5: incident reports complete and lock (incidentReport.complete, completedAt), corrections
 *    as incidentReportAddendum records (incidentReport.addendum); typeSpecificData checked
 *    against its type; incidentReport.upsert no longer takes status; new refusal codes
 *    INCIDENT_REPORT_LOCKED, INCIDENT_REPORT_INCOMPLETE, TYPE_DATA_INVALID.
 */
export const SCHEMA_VERSION = 5;
/** Oldest mutation schemaVersion the server still understands. Version 1 mutations are
 * still valid version 2 mutations (no mutation args changed), so it stays 1. */
export const MIN_SCHEMA_VERSION = 1;
