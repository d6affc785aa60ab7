// How an addendum's author is named wherever the record is shown (screen, handover, FHIR):
// the name and call sign the addendum carries (decision 011), like a signature.

export interface AddendumAuthorFields {
  authorName?: string | null | undefined;
  authorCallSign?: string | null | undefined;
}

/** "Thandi Nkosi (RS-12)", the name alone, or undefined when the addendum names no author
 * (written before the server stamped names: its author is known by user id only). */
export function addendumAuthorLabel({
  authorName,
  authorCallSign,
}: AddendumAuthorFields): string | undefined {
  const name = authorName?.trim();
  if (!name) return undefined;
  const callSign = authorCallSign?.trim();
  return callSign ? `${name} (${callSign})` : name;
}
