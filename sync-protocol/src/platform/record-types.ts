// A registry's types, derived from its list of definitions (record.ts defineRecord keeps each
// definition's literal type): the record of each kind, its mutations and their args. The app
// (records/registry.ts) and a test registry with a throwaway kind type their reads and writes
// the same way, so adding a kind is its definition and one entry in a list.
import type { z } from 'zod';
import type { conflictRecord } from './conflict-record';
import type { RecordDefinition } from './record';

/** A list of definitions, as passed to createRegistry. */
export type Definitions = readonly RecordDefinition[];

/** The record a definition's schema makes (as the server sends it). */
export type RecordOf<D extends RecordDefinition> = z.output<D['record']>;

/** Every definition a registry of `L` holds: the list's and the conflicts every registry syncs. */
export type RegisteredOf<L extends Definitions> = L[number] | typeof conflictRecord;

/** Kind name -> record type, for every kind a registry of `L` holds. */
export type RecordMapOf<L extends Definitions> = {
  [D in RegisteredOf<L> as D['kind']]: RecordOf<D>;
};

/** The definition of one kind of `L`. */
export type DefinitionOf<L extends Definitions, K extends string> = Extract<
  RegisteredOf<L>,
  { kind: K }
>;

type MutatorOf<L extends Definitions> = L[number]['mutators'][number];
/** Every mutation name of `L` (`<kind>.<verb>`). */
export type MutationNameOf<L extends Definitions> = MutatorOf<L>['name'];
/** What a screen passes as a mutation's args (before parsing: defaults may be left out). */
export type MutationArgsOf<L extends Definitions, N extends MutationNameOf<L>> = z.input<
  Extract<MutatorOf<L>, { name: N }>['args']
>;
/** One mutation of `L` as a screen asks for it. */
export type MutationOf<L extends Definitions> = {
  [N in MutationNameOf<L>]: { name: N; args: MutationArgsOf<L, N> };
}[MutationNameOf<L>];
