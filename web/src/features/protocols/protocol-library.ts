// The first aid protocols the app carries (issue 42): every file of ./content, parsed once by
// the schema of sync-protocol/reference/first-aid and put in domain.md's order. The files are
// part of the app's bundle, so the service worker precaches them with the app shell and a
// content change reaches devices with the next app update (docs/architecture.md, Reference).
import {
  PROTOCOL_CATEGORIES,
  protocolSchema,
  URGENT_PROTOCOLS,
  type Protocol,
  type ProtocolCategory,
  type ProtocolInput,
} from '@rescuelog/sync-protocol/reference/first-aid';

const files = import.meta.glob<ProtocolInput>('./content/*.ts', {
  eager: true,
  import: 'protocol',
});

function load(): ReadonlyMap<ProtocolCategory, Protocol> {
  const byCategory = new Map<ProtocolCategory, Protocol>();
  for (const input of Object.values(files)) {
    const protocol = protocolSchema.parse(input);
    byCategory.set(protocol.category, protocol);
  }
  return new Map(
    PROTOCOL_CATEGORIES.flatMap((c) => {
      const p = byCategory.get(c);
      return p ? [[c, p] as const] : [];
    }),
  );
}

const LIBRARY = load();

/** Every protocol, in domain.md's order. */
export const PROTOCOLS: readonly Protocol[] = [...LIBRARY.values()];

/** The quick grid: CPR, choking, bleeding, anaphylaxis. */
export const URGENT: readonly Protocol[] = URGENT_PROTOCOLS.flatMap((c) => {
  const p = LIBRARY.get(c);
  return p ? [p] : [];
});

export function protocolFor(category: string): Protocol | undefined {
  return LIBRARY.get(category as ProtocolCategory);
}
