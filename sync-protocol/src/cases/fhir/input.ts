// What the FHIR export reads: a case, its readings and addenda, as the device or the server
// holds them.
import type { CaseAddendumRecord } from '../case-addendum';
import type { CaseRecord } from '../case-schema';
import type { VitalSignRecord } from '../vital-sign';

/** A vital sign row as the device or the server holds it (only what the export reads). */
export type FhirVitalSignInput = Pick<VitalSignRecord, 'id' | 'type' | 'value'> &
  Partial<Pick<VitalSignRecord, 'numericValue' | 'status' | 'timestamp' | 'notes' | 'voidedAt'>>;

export type FhirAddendumInput = Pick<CaseAddendumRecord, 'id' | 'reason'> & {
  changes: readonly { field: string }[];
  createdAt?: string | null | undefined;
  userId?: number | null | undefined;
  /** The author's name and call sign as the addendum carries them (decision 011). */
  authorName?: string | null | undefined;
  authorCallSign?: string | null | undefined;
};

export interface FhirExportInput {
  case: Partial<CaseRecord> & { id: string; caseId: string };
  /**
   * The case's readings. Voided ones are left out of the export (decision 008): a
   * collection bundle is a snapshot, nobody has received the wrong reading from us, and a
   * receiver that ignores `entered-in-error` would chart it.
   */
  vitals: readonly FhirVitalSignInput[];
  /** Addenda become Provenance entries (who corrected what, when and why). */
  addenda?: readonly FhirAddendumInput[] | undefined;
  /**
   * The responder when the case does not name one (the case's responderName and
   * responderCallSign win: they are what the crew documented).
   */
  responder?:
    { name?: string | null | undefined; callSign?: string | null | undefined } | undefined;
  generatedAt: Date;
}
