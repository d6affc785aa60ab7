// The kit's controls typed for one kind, from its definition: `const F = formKit(cprRecord)`
// gives `<F.Form id={id}>` (RecordFormProvider bound to the kind) and `<F.TextField field=…>`,
// `<F.Choice field=…>`…, where `field` may only name a field the kind's `<kind>.upsert`
// mutator accepts, of a type the control can hold: a typo, or a number field on a text
// input, fails the typecheck (react-admin's `source`, checked by the compiler). At run time
// they are the kit's controls themselves (controls.tsx); only their types are narrowed.
import type { ComponentProps, ReactNode } from 'react';
import type { z } from 'zod';
import type { AnyMutator } from '@rescuelog/sync-protocol/platform/mutator';
import type { ChoiceOption } from './choice-group';
import {
  CheckboxField,
  ChoiceField,
  FormSection,
  MultiSelectField,
  NumberField,
  TextField,
  TimeField,
  YesNoField,
} from './controls';
import { useRecordForm } from './record-form';
import { RecordFormProvider, type RecordFormProviderProps } from './record-form-provider';

/** What the kit needs of a definition: its name and mutators (one of them `<kind>.upsert`). */
export interface KindDefinition {
  kind: string;
  mutators: readonly AnyMutator[];
}

type UpsertOf<D extends KindDefinition> = Extract<
  D['mutators'][number],
  { name: `${string}.upsert` }
>;

/** The fields a kind's screens write: its upsert mutator's `fields`, as parsed. */
export type FieldsOf<D extends KindDefinition> =
  UpsertOf<D> extends { args: infer S extends z.ZodType }
    ? z.output<S> extends { fields: infer F }
      ? F
      : never
    : never;

type Name<F> = Extract<keyof F, string>;
type ValueOf<F, K extends keyof F> = NonNullable<F[K]>;
type FieldsOfType<F, T> = { [K in Name<F>]-?: ValueOf<F, K> extends T ? K : never }[Name<F>];
/** Fields that may be "not recorded" (null) and hold a string or a boolean. */
type NullableOf<F, T> = {
  [K in Name<F>]-?: null extends F[K] ? (ValueOf<F, K> extends T ? K : never) : never;
}[Name<F>];
/** Booleans that are always set (a checkbox: unticked is false, not "not recorded"). */
type RequiredBooleanOf<F> = {
  [K in Name<F>]-?: null extends F[K] ? never : ValueOf<F, K> extends boolean ? K : never;
}[Name<F>];

type WithField<P, K> = Omit<P, 'field'> & { field: K };

/** A kind's record as the device keeps it (every column optional but the id). */
export type LocalRecordOf<D> = D extends { record: z.ZodType<infer R> }
  ? Partial<R> & { id: string }
  : { id: string };

/** A record form typed for a kind's fields (useRecordForm, narrowed). */
export interface TypedRecordForm<F, L = Partial<F> & { id: string }> {
  record: L;
  readOnly: boolean;
  save: (fields: Partial<F>) => Promise<Partial<Record<Name<F>, string>>>;
  saveError: string | null;
  fieldId: (field: Name<F>) => string;
  saving?: boolean;
}

export interface FormKit<F, L = Partial<F> & { id: string }> {
  kind: string;
  /** RecordFormProvider for this kind: by the record's id, or a record already loaded. */
  Form: (props: DistributiveOmit<RecordFormProviderProps, 'kind'>) => ReactNode;
  TextField: (
    props: WithField<ComponentProps<typeof TextField>, FieldsOfType<F, string>>,
  ) => ReactNode;
  NumberField: (
    props: WithField<ComponentProps<typeof NumberField>, FieldsOfType<F, number>>,
  ) => ReactNode;
  TimeField: (
    props: WithField<ComponentProps<typeof TimeField>, FieldsOfType<F, string>>,
  ) => ReactNode;
  /** A field that may not be null is always one of its options: `clearable={false}`. */
  Choice: <K extends FieldsOfType<F, string>>(
    props: Omit<
      ComponentProps<typeof ChoiceField<ValueOf<F, K> & string>>,
      'field' | 'options' | 'clearable'
    > & {
      field: K;
      options: readonly ChoiceOption<ValueOf<F, K> & string>[];
    } & (null extends F[K] ? { clearable?: boolean } : { clearable: false }),
  ) => ReactNode;
  YesNo: (props: WithField<ComponentProps<typeof YesNoField>, NullableOf<F, boolean>>) => ReactNode;
  Checkbox: (
    props: WithField<ComponentProps<typeof CheckboxField>, RequiredBooleanOf<F>>,
  ) => ReactNode;
  MultiSelect: (
    props: WithField<ComponentProps<typeof MultiSelectField>, FieldsOfType<F, readonly string[]>>,
  ) => ReactNode;
  Section: typeof FormSection;
  /** The record form, typed for this kind's fields. */
  useForm: () => TypedRecordForm<F, L>;
}

type DistributiveOmit<T, K extends PropertyKey> = T extends unknown ? Omit<T, K> : never;

/** The kit's form and controls typed for the kind `definition` declares. */
export function formKit<D extends KindDefinition>(
  definition: D,
): FormKit<FieldsOf<D>, LocalRecordOf<D>> {
  const kind = definition.kind;
  function Form(props: DistributiveOmit<RecordFormProviderProps, 'kind'>) {
    return <RecordFormProvider {...(props as RecordFormProviderProps)} kind={kind} />;
  }
  return {
    kind,
    Form,
    TextField,
    NumberField,
    TimeField,
    Choice: ChoiceField as FormKit<FieldsOf<D>>['Choice'],
    YesNo: YesNoField,
    Checkbox: CheckboxField,
    MultiSelect: MultiSelectField,
    Section: FormSection,
    useForm: useRecordForm as unknown as () => TypedRecordForm<FieldsOf<D>, LocalRecordOf<D>>,
  };
}
